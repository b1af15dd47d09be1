/**
 * The studio's conversation endpoints as a script, behind a `fetch` the chat client's tests
 * put in place of the network. Answers are made by the server's own writers: a turn's events
 * by `eventStreamResponse` (each event `data: <JSON>\r\n\r\n`; a failure after the first
 * event a `data: {"error": …}` event; one before it the service's error body with its
 * status), other answers by `jsonResponse` and `errorResponse`, so the client reads exactly
 * the bytes the route handlers send.
 */
import type { TurnEvent } from "@/lib/studio/turn-events";
import { errorResponse, jsonResponse } from "@/lib/server/http/responses";
import { eventStreamResponse } from "@/lib/server/http/sse-response";

export interface ScriptedRequest {
  method: string;
  path: string;
  body: unknown;
  signal: AbortSignal;
}

type Reply = (request: ScriptedRequest) => Response | Promise<Response>;

/** A step of a scripted turn stream: an event, or the connection dropping (no event, no end). */
export const DROP = Symbol("the connection drops");
export type TurnStep = TurnEvent | typeof DROP;

/**
 * A turn's events as the route answers them. `steps` may wait between events (an async
 * generator) and may throw: before its first event that is the route's HTTP error, after it
 * the error event. A DROP ends the body with a network error, as a browser sees a lost
 * connection.
 */
export async function turnStreamResponse(
  steps: AsyncIterable<TurnStep> | Iterable<TurnStep>,
  signal: AbortSignal,
): Promise<Response> {
  let dropped = false;
  const events = (async function* () {
    for await (const step of steps) {
      if (step === DROP) {
        dropped = true;
        return;
      }
      yield step;
    }
  })();
  const response = await eventStreamResponse(events, { signal });
  if (!response.body) return response;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      flush(controller) {
        if (dropped) controller.error(new TypeError("network error"));
      },
    }),
  );
  return new Response(body, { status: response.status, headers: response.headers });
}

/** A JSON answer (`{"stopped": true}`, a saved conversation's head), or an error thrown as the service's body. */
export function jsonReply(body: unknown): Reply {
  return () => jsonResponse(body);
}

export function errorReply(error: unknown): Reply {
  return () => errorResponse(error);
}

/**
 * The scripted server: each expected request is answered by the next reply queued for its
 * method and path (a RegExp on the path), once. A request nothing was queued for is recorded
 * in `unexpected` and fails as an unreachable server would.
 */
export class ScriptedStudioServer {
  readonly requests: ScriptedRequest[] = [];
  readonly unexpected: string[] = [];
  private readonly queue: { method: string; path: RegExp; reply: Reply }[] = [];

  answer(method: string, path: RegExp, reply: Reply): this {
    this.queue.push({ method, path, reply });
    return this;
  }

  /** The requests made to a method and path, in order. */
  made(method: string, path: RegExp): ScriptedRequest[] {
    return this.requests.filter((request) => request.method === method && path.test(request.path));
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal ?? new AbortController().signal;
    if (signal.aborted) throw new DOMException("The operation was aborted.", "AbortError");
    const request: ScriptedRequest = {
      method: init.method ?? "GET",
      path: String(input),
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      signal,
    };
    this.requests.push(request);
    const index = this.queue.findIndex(
      (entry) => entry.method === request.method && entry.path.test(request.path),
    );
    if (index < 0) {
      this.unexpected.push(`${request.method} ${request.path}`);
      throw new TypeError("fetch failed");
    }
    const { reply } = this.queue.splice(index, 1)[0]!;
    return abortable(Promise.resolve(reply(request)), signal);
  };
}

/** A response that is not there yet when the request is aborted is an AbortError, as fetch's. */
function abortable(response: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new DOMException("The operation was aborted.", "AbortError"));
    signal.addEventListener("abort", onAbort, { once: true });
    response.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
