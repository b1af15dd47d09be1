import "server-only";
import { encodeSseComment, encodeSseError, encodeSseEvent } from "@/lib/gemini/sse";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { errorResponse, toApiError } from "./responses";

/** Idle time after which a keep-alive comment is sent. */
export const KEEP_ALIVE_MS = 10_000;
/** How long the writer waits for the first chunk before it commits to a 200 stream. */
export const FIRST_CHUNK_WAIT_MS = 5_000;

export interface StreamResponseOptions {
  /** The client's signal: when it aborts, the source is stopped (`return()`). */
  signal: AbortSignal;
  keepAliveMs?: number;
  firstChunkWaitMs?: number;
}

type First<T> =
  | { kind: "value"; result: IteratorResult<T> }
  | { kind: "error"; error: unknown }
  | { kind: "timeout" };

/**
 * Waits for the source's first chunk (bounded), so a failure before anything was produced
 * (validation, unknown model, upstream refusal) is still an ordinary HTTP error response.
 */
async function firstChunk<T>(
  iterator: AsyncIterator<T>,
  waitMs: number,
): Promise<{ first: First<T>; pending: Promise<IteratorResult<T>> }> {
  const pending = iterator.next();
  pending.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<First<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "timeout" }), waitMs);
  });
  const first = await Promise.race([
    pending.then(
      (result): First<T> => ({ kind: "value", result }),
      (error: unknown): First<T> => ({ kind: "error", error }),
    ),
    timeout,
  ]);
  clearTimeout(timer);
  return { first, pending };
}

interface Framing<T> {
  contentType: string;
  extraHeaders: Record<string, string>;
  open: string;
  event: (value: T, index: number) => string;
  error: (body: ReturnType<ReturnType<typeof toApiError>["toBody"]>, index: number) => string;
  close: (count: number) => string;
  keepAlive: string;
}

function streamResponse<T>(
  source: AsyncIterable<T>,
  options: StreamResponseOptions,
  framing: Framing<T>,
): Promise<Response> {
  return (async () => {
    const iterator = source[Symbol.asyncIterator]();
    const { first, pending } = await firstChunk(
      iterator,
      options.firstChunkWaitMs ?? FIRST_CHUNK_WAIT_MS,
    );
    if (first.kind === "error") return errorResponse(first.error);

    const encoder = new TextEncoder();
    let count = 0;
    let closed = false;
    let lastWrite = Date.now();
    let timer: ReturnType<typeof setInterval> | undefined;
    let firstPending: Promise<IteratorResult<T>> | null = first.kind === "timeout" ? pending : null;
    let firstResult: IteratorResult<T> | null = first.kind === "value" ? first.result : null;

    const stop = () => {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
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
    let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;

    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controllerRef = controller;
        controller.enqueue(encoder.encode(framing.open));
        const interval = options.keepAliveMs ?? KEEP_ALIVE_MS;
        timer = setInterval(
          () => {
            if (closed || Date.now() - lastWrite < interval) return;
            lastWrite = Date.now();
            controller.enqueue(encoder.encode(framing.keepAlive));
          },
          Math.max(50, Math.floor(interval / 2)),
        );
        if (options.signal.aborted) onAbort();
        else options.signal.addEventListener("abort", onAbort, { once: true });
      },
      async pull(controller) {
        if (closed) return;
        try {
          let result: IteratorResult<T>;
          if (firstResult) {
            result = firstResult;
            firstResult = null;
          } else if (firstPending) {
            const waiting = firstPending;
            firstPending = null;
            result = await waiting;
          } else {
            result = await iterator.next();
          }
          if (closed) return;
          if (result.done) {
            controller.enqueue(encoder.encode(framing.close(count)));
            stop();
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(framing.event(result.value, count)));
          count += 1;
          lastWrite = Date.now();
        } catch (error) {
          if (closed) return;
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
        ...framing.extraHeaders,
      },
    });
  })();
}

/**
 * The one SSE writer (`?alt=sse`): each chunk is one `data: <JSON>\r\n\r\n` event, flushed on
 * its own; a `: ping` comment opens the stream and repeats while idle; a failure after the
 * stream started is written as `data: {"error": {...}}` and the stream closes; a client that
 * goes away stops the source. A failure before the first chunk is a normal HTTP error.
 */
export function sseResponse(
  source: AsyncIterable<GenerateContentResponse>,
  options: StreamResponseOptions,
): Promise<Response> {
  return streamResponse(source, options, {
    contentType: "text/event-stream",
    extraHeaders: {},
    open: encodeSseComment("ping"),
    event: (value) => encodeSseEvent(value),
    error: (body) => encodeSseError(body),
    close: () => "",
    keepAlive: encodeSseComment("ping"),
  });
}

/**
 * The streamed form without `alt=sse`: one JSON array of responses, `[{...},\r\n{...}]`,
 * written element by element. A failure after the start becomes a last element holding the
 * error object; idle time is filled with JSON whitespace.
 */
export function jsonArrayStreamResponse(
  source: AsyncIterable<GenerateContentResponse>,
  options: StreamResponseOptions,
): Promise<Response> {
  return streamResponse(source, options, {
    contentType: "application/json; charset=UTF-8",
    extraHeaders: {},
    open: "[",
    event: (value, index) => (index > 0 ? ",\r\n" : "") + JSON.stringify(value, null, 2),
    error: (body, index) => (index > 0 ? ",\r\n" : "") + JSON.stringify(body, null, 2) + "]",
    close: () => "]",
    keepAlive: "\n",
  });
}
