import "server-only";
import type { Backend } from "@/lib/gemini/backend/contract";
import { emulatorOf, type Emulator } from "@/lib/engine/emulator";
import { operationOf } from "@/lib/engine/emulator/operations";
import { exchangeScope, type ExchangeNotes } from "@/lib/engine/emulator/exchange-scope";
import { RequestLog, type LoggedBody } from "@/lib/engine/emulator/request-log";
import type { UsageMetadata } from "@/lib/gemini/types";
import { formatTimestampDigits } from "@/lib/gemini/wire-time";
import { TransportFault } from "@/lib/engine/emulator/faults";
import { replayExchange } from "./replay-exchange";
import { requestWithBody } from "../http/request-copy";
import { transportFaultResponse } from "../http/transport-fault-response";

/**
 * Serves one API request of the local engine under the emulator: the handler runs inside the
 * request's exchange scope (scenarios read its headers, and note which of them answered), and
 * the request and its answer are logged for the caller as they pass. Neither body is held: both
 * are passed on piece by piece while their first bytes (and the answer's last, for its usage)
 * are copied for the log.
 */
export async function serveEmulated(options: {
  emulator: Emulator;
  request: Request;
  url: URL;
  ownerId: string;
  operation: string;
  /** The model the path names (`models/{model}:...`), for requests refused before the engine. */
  pathModel?: string;
  handle: (request: Request) => Promise<Response>;
  /** How the route renders a failure (the Interactions API has an error body of its own). */
  renderError: (error: unknown) => Response;
}): Promise<Response> {
  const { emulator, request, url, ownerId } = options;
  const log = emulator.requestLog;
  const notes: ExchangeNotes = {};
  const scope = { ownerId, headers: request.headers, notes };
  if (!log.enabled && emulator.replay.isEmpty(ownerId))
    return exchangeScope.run(scope, () =>
      handleSafely(options.handle, request, options.renderError),
    );

  const arrived = Date.now();
  const started = performance.now();
  const requestCopy = new BodyCopy(log.maxBodyBytes, request.headers.get("content-type"));
  const handled = request.body
    ? requestWithBody(request, requestCopy.through(request.body))
    : request;
  const response = await exchangeScope.run(scope, () =>
    handleSafely(
      async (own) => {
        const replayed = await replayExchange({
          store: emulator.replay,
          ownerId,
          request: own,
          url,
          operation: options.operation,
          signal: request.signal,
        });
        if ("response" in replayed) {
          notes.replayedFrom = replayed.exchangeId;
          return replayed.response;
        }
        return options.handle(replayed.request);
      },
      handled,
      options.renderError,
    ),
  );
  const responseCopy = new BodyCopy(log.maxBodyBytes, response.headers.get("content-type"), true);
  let firstByteMs: number | undefined;
  const finish = (ended?: "client-closed" | "reset") => {
    const usage = responseCopy.lastUsage();
    log.add(ownerId, {
      id: RequestLog.newId(),
      time: formatTimestampDigits(arrived, 3),
      method: request.method,
      path: loggedPath(url),
      operation: options.operation,
      ...(notes.model || options.pathModel ? { model: notes.model ?? options.pathModel } : {}),
      status: response.status,
      ...(firstByteMs !== undefined ? { firstByteMs: Math.round(firstByteMs) } : {}),
      durationMs: Math.round(performance.now() - started),
      ...(notes.scenarioId ? { scenarioId: notes.scenarioId } : {}),
      ...(notes.scenarioName ? { scenarioName: notes.scenarioName } : {}),
      ...(notes.replayedFrom !== undefined ? { replayedFrom: notes.replayedFrom } : {}),
      ...(usage ? { usage } : {}),
      request: requestCopy.logged(),
      response: responseCopy.logged(),
      ...(ended ? { ended } : {}),
    });
  };
  if (!response.body) {
    finish();
    return response;
  }
  const body = responseCopy.through(response.body, {
    first: () => (firstByteMs = performance.now() - started),
    end: finish,
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

async function handleSafely(
  handle: (request: Request) => Promise<Response>,
  request: Request,
  renderError: (error: unknown) => Response,
): Promise<Response> {
  try {
    return await handle(request);
  } catch (error) {
    // A scenario's bare status or reset is no error body at all, whatever the route's shape.
    if (TransportFault.is(error)) return transportFaultResponse(error);
    return renderError(error);
  }
}

/** The path and query as received, with any `key` parameter removed. */
function loggedPath(url: URL): string {
  const query = new URLSearchParams(url.search);
  query.delete("key");
  const text = query.toString();
  return url.pathname + (text ? `?${text}` : "");
}

const TEXT_TYPES = /^(?:application\/(?:json|x-ndjson)|text\/)/i;
/** Bytes of an answer's end kept to find its last usageMetadata (SSE and JSON array streams). */
const TAIL_BYTES = 16 * 1024;

/** A copy of a body's first bytes (and optionally its last) taken while it is passed on. */
class BodyCopy {
  private readonly head: Uint8Array[] = [];
  private headBytes = 0;
  private bytes = 0;
  private tail: Uint8Array[] = [];
  private tailBytes = 0;
  private readonly text: boolean;

  constructor(
    private readonly cap: number,
    private readonly contentType: string | null,
    private readonly keepTail = false,
  ) {
    // Uploads' bytes and media are logged by size; JSON and text (a JSON-typed upload chunk included) by content.
    this.text = contentType === null || TEXT_TYPES.test(contentType);
  }

  private copy(piece: Uint8Array): void {
    this.bytes += piece.byteLength;
    if (this.text && this.headBytes < this.cap) {
      const taken = piece.subarray(0, this.cap - this.headBytes);
      this.head.push(taken.slice());
      this.headBytes += taken.byteLength;
    }
    if (this.keepTail) {
      // A view, not a copy: a stream's pieces are not written to once sent, and at most the
      // last few are held; the tail is copied once, when the answer has ended.
      this.tail.push(piece.subarray(Math.max(0, piece.byteLength - TAIL_BYTES)));
      this.tailBytes += Math.min(piece.byteLength, TAIL_BYTES);
      while (this.tailBytes - (this.tail[0]?.byteLength ?? 0) >= TAIL_BYTES) {
        this.tailBytes -= this.tail.shift()!.byteLength;
      }
    }
  }

  /** The stream passed on: pulled only as its reader pulls, each piece copied on the way. */
  through(
    source: ReadableStream<Uint8Array>,
    events: { first?: () => void; end?: (ended?: "client-closed" | "reset") => void } = {},
  ): ReadableStream<Uint8Array> {
    const reader = source.getReader();
    const copy = (piece: Uint8Array) => this.copy(piece);
    let started = false;
    let ended = false;
    const end = (how?: "client-closed" | "reset") => {
      if (ended) return;
      ended = true;
      events.end?.(how);
    };
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          let next: ReadableStreamReadResult<Uint8Array>;
          try {
            next = await reader.read();
          } catch (error) {
            end("reset");
            controller.error(error);
            return;
          }
          if (next.done) {
            end();
            controller.close();
            return;
          }
          if (!started) {
            started = true;
            events.first?.();
          }
          copy(next.value);
          controller.enqueue(next.value);
        },
        async cancel(reason) {
          end("client-closed");
          await reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }

  logged(): LoggedBody {
    const body: LoggedBody = {
      ...(this.contentType ? { contentType: this.contentType } : {}),
      bytes: this.bytes,
      truncated: this.text ? this.bytes > this.headBytes : this.bytes > 0,
    };
    if (this.text && this.bytes > 0)
      body.text = new TextDecoder().decode(concat(this.head), { stream: false });
    return body;
  }

  /** The last usageMetadata object in the answer's last bytes, if one is whole there. */
  lastUsage(): UsageMetadata | undefined {
    const text = new TextDecoder().decode(concat(this.tail.length ? this.tail : this.head));
    const at = text.lastIndexOf('"usageMetadata"');
    if (at < 0) return undefined;
    const open = text.indexOf("{", at);
    if (open < 0) return undefined;
    const close = matchingBrace(text, open);
    if (close < 0) return undefined;
    try {
      return JSON.parse(text.slice(open, close + 1)) as UsageMetadata;
    } catch {
      return undefined;
    }
  }
}

function concat(pieces: Uint8Array[]): Uint8Array {
  const total = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.byteLength;
  }
  return out;
}

/** Where the object opened at `open` closes (strings skipped), or -1. */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let index = open; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === "\\") index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === "{") depth++;
    else if (character === "}" && --depth === 0) return index;
  }
  return -1;
}

/**
 * How the router serves a matched API request: under the emulator when the backend is the
 * local engine's, else by the handler alone (the gateway has no emulator).
 */
export function serveApiRequest(options: {
  backend: Backend;
  request: Request;
  url: URL;
  /** The path after the version segment, e.g. `models/x:generateContent`. */
  rest: string;
  ownerId: string;
  handle: (request: Request) => Promise<Response>;
  renderError: (error: unknown) => Response;
}): Promise<Response> {
  const emulator = emulatorOf(options.backend);
  const pathModel = /^models\/([^/:]+)/.exec(options.rest)?.[1];
  if (!emulator) {
    // The gateway has no emulator; its recorder files exchanges by the caller in scope.
    const scope = { ownerId: options.ownerId, headers: options.request.headers, notes: {} };
    return exchangeScope.run(scope, () => options.handle(options.request));
  }
  return serveEmulated({
    emulator,
    request: options.request,
    url: options.url,
    ownerId: options.ownerId,
    operation: operationOf(options.request.method, options.rest, {
      upload: options.url.pathname.startsWith("/upload/"),
      sessionCommand: options.url.searchParams.has("upload_id"),
    }),
    ...(pathModel ? { pathModel } : {}),
    handle: options.handle,
    renderError: options.renderError,
  });
}
