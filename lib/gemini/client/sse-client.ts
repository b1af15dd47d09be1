/**
 * Browser reader of `:streamGenerateContent?alt=sse` (api-notes §2): response bytes → text →
 * the one SSE reader (lib/gemini/sse, on eventsource-parser) → one GenerateContentResponse
 * per `data:` event. An error after the
 * stream started (`data: {"error":...}`, or the raw JSON object the real service writes) is
 * thrown as an ApiError after the chunks that came before it. Safe in the browser.
 */
import { ApiError, parseErrorBody } from "../api-error";
import { decodeSseData, SseReader, type SseMessage } from "../sse";
import { readApiError } from "./read-api-error";
import type { GenerateContentRequest, GenerateContentResponse } from "../types";

export interface StreamGenerateContentOptions {
  /** Model id or resource name (`gemini-2.5-flash` or `models/gemini-2.5-flash`). */
  model: string;
  request: GenerateContentRequest;
  /** Aborting it cancels the fetch; the iterator then throws the signal's AbortError. */
  signal?: AbortSignal;
  /** Origin of the API; defaults to this page's origin (the session cookie authenticates). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Sees the exchange as it happens (the studio's raw inspector). */
  observer?: StreamObserver;
}

/** What a reader of the stream may watch, raw: the response, each event's data, a failure's body. */
export interface StreamObserver {
  /** The response's status and headers, before its body is read. */
  onResponse?(response: Response): void;
  /** The body of a failed response, as it was sent. */
  onErrorBody?(text: string): void;
  /** Each event's data as it arrived (and any line outside the SSE grammar, such as a raw error). */
  onEvent?(data: string): void;
}

/** The path of the streaming method for a model id or resource name. */
export function streamGenerateContentPath(model: string): string {
  const id = model.replace(/^models\//, "");
  return `/v1beta/models/${encodeURIComponent(id)}:streamGenerateContent?alt=sse`;
}

/**
 * Streams a generation: yields each chunk as it arrives. Throws the service's ApiError when
 * the request fails before streaming or when an error object arrives mid-stream.
 */
export async function* streamGenerateContent(
  options: StreamGenerateContentOptions,
): AsyncGenerator<GenerateContentResponse> {
  const fetchFunction = options.fetch ?? fetch;
  const response = await fetchFunction(
    `${options.baseUrl ?? ""}${streamGenerateContentPath(options.model)}`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(options.request),
      signal: options.signal,
      credentials: "same-origin",
    },
  );
  options.observer?.onResponse?.(response);
  if (!response.ok) {
    if (options.observer?.onErrorBody)
      options.observer.onErrorBody(
        await response
          .clone()
          .text()
          .catch(() => ""),
      );
    throw await readApiError(response);
  }
  if (!response.body) throw new ApiError(response.status, "UNKNOWN", "The stream has no body.");
  yield* readGenerateContentStream(response.body, options.signal, options.observer);
}

/** The chunk a message of the stream holds, or the ApiError it stands for. */
function chunkOf(message: SseMessage): GenerateContentResponse | ApiError {
  switch (message.kind) {
    case "data":
      if (
        typeof message.value !== "object" ||
        message.value === null ||
        Array.isArray(message.value)
      )
        return new ApiError(
          502,
          "UNKNOWN",
          "The stream sent an event that is not a response object.",
        );
      return message.value as GenerateContentResponse;
    case "error":
      return (
        parseErrorBody({ error: message.error }) ??
        new ApiError(
          502,
          "UNKNOWN",
          "The stream sent an error object without a code and a message.",
        )
      );
    case "long-data":
      // This reader sets no parseUpTo, so it parses every event itself.
      return chunkOf(decodeSseData(message.text));
    case "invalid":
      return new ApiError(
        502,
        "UNKNOWN",
        message.reason === "not-json"
          ? `The stream sent an event that is not JSON: ${message.text.slice(0, 200)}`
          : `The stream sent text that is not an event: ${message.text.slice(0, 200)}`,
      );
  }
}

/** Parses an SSE body of GenerateContentResponse events (exposed for tests and other callers). */
export async function* readGenerateContentStream(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  observer?: StreamObserver,
): AsyncGenerator<GenerateContentResponse> {
  const events = new SseReader();
  const reader = body
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .getReader();
  const abort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", abort, { once: true });
  try {
    for (let done = false; !done;) {
      if (signal?.aborted) throw abortReason(signal);
      const next = await reader.read();
      if (signal?.aborted) throw abortReason(signal);
      done = next.done;
      for (const message of done ? events.end() : events.feed(next.value!)) {
        observer?.onEvent?.(message.text);
        const chunk = chunkOf(message);
        if (chunk instanceof ApiError) throw chunk;
        yield chunk;
      }
    }
  } finally {
    signal?.removeEventListener("abort", abort);
    reader.releaseLock();
  }
}

/**
 * Parses an SSE body whose events are JSON objects of another shape (the studio's own streams),
 * with the same framing and the same mid-stream errors.
 */
export function readJsonEventStream<Event extends object>(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<Event> {
  return readGenerateContentStream(body, signal) as AsyncGenerator<object> as AsyncGenerator<Event>;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The stream was aborted.", "AbortError");
}

/** Whether a thrown value is the abort of a stream (so it is a stop, not a failure). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "name" in error &&
    (error as { name: string }).name === "AbortError"
  );
}
