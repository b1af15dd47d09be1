import "server-only";
import { encodeSseError, SSE_EVENT_END } from "@/lib/gemini/sse";
import { PIECE_CHARACTERS } from "@/lib/runtime/piece-writer";
import { TimeSlices } from "@/lib/runtime/time-slices";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { ApiError } from "@/lib/gemini/api-error";
import { TransportFault } from "@/lib/engine/emulator/faults";
import { interactionErrorCode } from "@/lib/gemini/interactions/errors";
import type { InteractionEvent } from "@/lib/gemini/interactions/types";
import { errorResponse, jsonPieces, textLength, toApiError } from "./responses";

export interface StreamResponseOptions {
  /** The client's signal: when it aborts, the source is stopped (`return()`). */
  signal: AbortSignal;
}

type First<T> = { kind: "value"; result: IteratorResult<T> } | { kind: "error"; error: unknown };

/**
 * Waits for the source's first chunk, its failure, or the client going away. Nothing is
 * written before it: response headers leave with the first event, so a failure before any
 * chunk (validation, unknown model, upstream refusal) is an ordinary HTTP error status.
 *
 * Trade-off, chosen on purpose: a client sees no response headers until the first chunk is
 * ready (as for a unary call). The alternative, committing to 200 early with a comment line
 * or a keep-alive comment, breaks the Python SDK and the legacy JS SDK (api-notes §2).
 */
async function firstChunk<T>(iterator: AsyncIterator<T>, signal: AbortSignal): Promise<First<T>> {
  const pending = iterator.next().then(
    (result): First<T> => ({ kind: "value", result }),
    (error: unknown): First<T> => ({ kind: "error", error }),
  );
  if (signal.aborted) return { kind: "error", error: cancelled() };
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<First<T>>((resolve) => {
    onAbort = () => resolve({ kind: "error", error: cancelled() });
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([pending, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}

function cancelled(): ApiError {
  return new ApiError(499, "CANCELLED", "The request was cancelled by the client.");
}

interface Framing<T> {
  contentType: string;
  open: string;
  /** The text of an event in pieces, written in slices (a long one is megabytes). */
  event: (value: T, index: number) => Promise<string[]>;
  error: (body: ReturnType<ReturnType<typeof toApiError>["toBody"]>, index: number) => string;
  close: (count: number) => string;
  /** The answer to a failure before the first item (default: the service's error body). */
  refuse?: (error: unknown) => Response;
}

/**
 * A streamed answer in the given framing: an error before the first item is an HTTP error,
 * after it an error event, then the end. Kept whole: start, pull, abort and cancel share the
 * stream's closed flag, its count and its controller.
 */
async function streamResponse<T>(
  source: AsyncIterable<T>,
  options: StreamResponseOptions,
  framing: Framing<T>,
): Promise<Response> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await firstChunk(iterator, options.signal);
  if (first.kind === "error") {
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
    return (framing.refuse ?? errorResponse)(first.error);
  }

  // Only start() writes the first chunk: held apart from `first` and dropped once written, so
  // a held stream does not keep its first chunk (an image's, say) for as long as it stays open.
  let firstResult: IteratorResult<T> | null = first.result;
  const encoder = new TextEncoder();
  const slices = new TimeSlices();
  let count = 0;
  let closed = false;
  let resetPending = false;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;

  const stop = () => {
    if (closed) return;
    closed = true;
    options.signal.removeEventListener("abort", onAbort);
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  };
  const onAbort = () => {
    stop();
    try {
      controllerRef?.close();
    } catch {
      // Already closed or errored by the runtime.
    }
  };
  const write = async (
    controller: ReadableStreamDefaultController<Uint8Array>,
    result: IteratorResult<T>,
  ) => {
    if (result.done) {
      controller.enqueue(encoder.encode(framing.close(count)));
      stop();
      controller.close();
      return;
    }
    const pieces = await framing.event(result.value, count);
    if (closed) return;
    if (textLength(pieces) <= PIECE_CHARACTERS) controller.enqueue(encoder.encode(pieces.join("")));
    else
      for (const piece of pieces) {
        // A long event is encoded and handed on piece by piece, other work in between.
        controller.enqueue(encoder.encode(piece));
        if (slices.due()) await slices.pause();
        if (closed) return;
      }
    count += 1;
  };

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controllerRef = controller;
      controller.enqueue(encoder.encode(framing.open));
      const result = firstResult!;
      firstResult = null;
      await write(controller, result);
      if (closed) return;
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      if (resetPending) {
        stop();
        controller.error(new DOMException("connection reset by a scenario", "AbortError"));
        return;
      }
      if (closed) return;
      try {
        const result = await iterator.next();
        if (closed) return;
        await write(controller, result);
      } catch (error) {
        if (closed) return;
        if (TransportFault.is(error)) {
          // A scripted reset mid-stream: the connection drops with no error event, once the
          // events already queued have been taken (erroring now would discard them).
          resetPending = true;
          return;
        }
        controller.enqueue(encoder.encode(framing.error(toApiError(error).toBody(), count)));
        stop();
        controller.close();
      }
    },
    cancel() {
      stop();
    },
  });

  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": framing.contentType,
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

/**
 * The one SSE writer (`?alt=sse`): each chunk is one `data: <JSON>\r\n\r\n` event, flushed on
 * its own, and nothing else is ever written (no comment lines, first or idle: the service
 * sends none and the Python SDK and the legacy JS SDK fail on them). A failure after the
 * first chunk is written as `data: {"error": {...}}` and the stream closes; a client that goes
 * away stops the source. A failure before the first chunk is a normal HTTP error.
 */
export function sseResponse(
  source: AsyncIterable<GenerateContentResponse>,
  options: StreamResponseOptions,
): Promise<Response> {
  return streamResponse(source, options, {
    contentType: "text/event-stream",
    open: "",
    event: async (value) => ["data: ", ...(await jsonPieces(value)), SSE_EVENT_END],
    error: (body) => encodeSseError(body),
    close: () => "",
  });
}

/**
 * The streamed form without `alt=sse`: one JSON array of responses, `[{...},\r\n{...}]`,
 * written element by element. A failure after the start becomes a last element holding the
 * error object.
 */
export function jsonArrayStreamResponse(
  source: AsyncIterable<GenerateContentResponse>,
  options: StreamResponseOptions,
): Promise<Response> {
  return streamResponse(source, options, {
    contentType: "application/json; charset=UTF-8",
    open: "[",
    event: async (value, index) => [
      index > 0 ? ",\r\n" : "",
      ...(await jsonPieces(value, { pretty: true })),
    ],
    error: (body, index) => (index > 0 ? ",\r\n" : "") + JSON.stringify(body, null, 2) + "]",
    close: () => "]",
  });
}

/**
 * A stream of the studio's own events (`/api/...`, e.g. a chat turn's): each value one
 * `data: <JSON>` event, with the same framing and ending as the API's streams.
 */
export function eventStreamResponse(
  source: AsyncIterable<object>,
  options: StreamResponseOptions,
): Promise<Response> {
  return streamResponse(source, options, {
    contentType: "text/event-stream",
    open: "",
    event: async (value) => ["data: ", ...(await jsonPieces(value)), SSE_EVENT_END],
    error: (body) => encodeSseError(body),
    close: () => "",
  });
}

/**
 * The OpenAI-compatible endpoint's stream (`stream: true`), as OpenAI's clients read it: each
 * chunk one `data: <JSON>` event ended by a blank line, then `data: [DONE]`; a failure after
 * the first chunk is an `error` event, and before it the endpoint's HTTP error (`refuse`).
 */
export function chatChunkStreamResponse(
  source: AsyncIterable<object>,
  options: StreamResponseOptions & { refuse: (error: unknown) => Response },
): Promise<Response> {
  return streamResponse(source, options, {
    contentType: "text/event-stream",
    open: "",
    event: async (value) => ["data: ", ...(await jsonPieces(value)), "\n\n"],
    error: (body) => `data: ${JSON.stringify(body)}\n\n`,
    close: () => "data: [DONE]\n\n",
    refuse: options.refuse,
  });
}

/** One Interactions event block: `event: <type>`, `data: <compact JSON>`, a blank line (LF). */
function interactionBlock(type: string, data: string): string {
  return `event: ${type}\ndata: ${data}\n\n`;
}

/**
 * The Interactions API's stream (recorded 2026-05 on): each event a block `event: <its
 * event_type>` / `data: <compact JSON>` with LF line ends, the stream ending with
 * `event: done` / `data: [DONE]`. A failure after the first event is an `error` event (its
 * `{"error": {code, message}}` as this API words it), then the end; one before it is an HTTP
 * error answered by `refuse` (this API's error body).
 */
export function interactionEventStreamResponse(
  source: AsyncIterable<InteractionEvent>,
  options: StreamResponseOptions,
  refuse: (error: unknown) => Response,
): Promise<Response> {
  return streamResponse(source, options, {
    contentType: "text/event-stream",
    open: "",
    event: async (value) => [
      `event: ${value.event_type}\ndata: `,
      ...(await jsonPieces(value)),
      "\n\n",
    ],
    error: (body) =>
      interactionBlock(
        "error",
        JSON.stringify({
          error: { code: interactionErrorCode(body.error.code), message: body.error.message },
          event_type: "error",
        }),
      ) + interactionBlock("done", "[DONE]"),
    close: () => interactionBlock("done", "[DONE]"),
    refuse,
  });
}
