import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { logger } from "../config/logger";
import { jsonBytePieces, jsonTextPieces } from "@/lib/runtime/json-stringify-in-slices";
import { TimeSlices } from "@/lib/runtime/time-slices";
import { plainJsonSizeWithin } from "@/lib/runtime/json-size-within";
import { TransportFault } from "@/lib/engine/emulator/faults";
import { transportFaultResponse } from "./transport-fault-response";
import { WholeResponse } from "./whole-response";

const JSON_CONTENT_TYPE = "application/json; charset=UTF-8";
const utf8 = new TextEncoder();

/**
 * A JSON answer's headers when it has no others, as Headers lists them (sorted, lower case):
 * made once, for every such answer (WholeResponse's fixed headers).
 */
const JSON_HEADER_LIST: readonly string[] = Object.freeze([
  "cache-control",
  "private, no-store",
  "content-type",
  JSON_CONTENT_TYPE,
]);

function jsonHeaders(extra?: HeadersInit): Headers {
  const headers = new Headers(extra);
  headers.set("Content-Type", JSON_CONTENT_TYPE);
  headers.set("Cache-Control", "private, no-store");
  return headers;
}

/** Answers up to this long are pretty-printed as the service prints them. */
const PRETTY_CHARACTERS = 262_144;
/**
 * Plain answers estimated at most this long are written with one JSON.stringify, without a
 * sliced pass first: even with every character escaped, a few hundred kilobytes of text.
 */
const WRITTEN_AT_ONCE_CHARACTERS = 32_768;

/**
 * A unary answer as the service sends it: pretty-printed JSON, 200 unless told. It is written
 * in slices first (a batch's inline answers, an upstream's long list: megabytes that one
 * JSON.stringify would write while every other request waits), each piece encoded as it is
 * complete; one that turns out longer than PRETTY_CHARACTERS is sent compact, piece by piece,
 * as the client reads.
 */
export async function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: HeadersInit } = {},
): Promise<Response> {
  // Most answers are a few fields of plain data: written once, pretty, with no sliced pass first.
  if (plainJsonSizeWithin(body, WRITTEN_AT_ONCE_CHARACTERS)) return smallJsonResponse(body, init);
  const { pieces, characters } = await jsonBytePieces(body);
  if (characters <= PRETTY_CHARACTERS) return smallJsonResponse(body, init);
  return streamedResponse(pieces.values(), jsonHeaders(init.headers), init.status);
}

/**
 * A value's JSON text in pieces, written in slices: compact, or pretty-printed (one piece) as
 * the service prints unary answers when `pretty` and it is no longer than PRETTY_CHARACTERS.
 */
export async function jsonPieces(
  value: unknown,
  options: { pretty?: boolean } = {},
): Promise<string[]> {
  const pieces = await jsonTextPieces(value);
  if (options.pretty && textLength(pieces) <= PRETTY_CHARACTERS)
    return [JSON.stringify(value, null, 2)];
  return pieces;
}

export function textLength(pieces: readonly string[]): number {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length;
}

/**
 * jsonResponse at once, for a body of a few fields that cannot grow (an error, an upload's
 * status): pretty-printed in one go.
 */
export function smallJsonResponse(
  body: unknown,
  init: { status?: number; headers?: HeadersInit } = {},
): Response {
  const bytes = utf8.encode(JSON.stringify(body, null, 2) + "\n");
  const status = init.status ?? 200;
  if (init.headers === undefined) return new WholeResponse(bytes, { status }, JSON_HEADER_LIST);
  return new WholeResponse(bytes, { status, headers: jsonHeaders(init.headers) });
}

/**
 * An upstream's JSON answer passed on as it wrote it (ForwardedJson): its text as one body,
 * with the headers of every JSON answer, ended by a newline as the service ends its own.
 */
export function forwardedJsonResponse(text: string): Response {
  const bytes = utf8.encode(text.endsWith("\n") ? text : text + "\n");
  return new WholeResponse(bytes, { status: 200 }, JSON_HEADER_LIST);
}

/**
 * A JSON answer too large to hold whole, produced piece by piece as the client reads: the
 * next piece is made only when the previous one has been taken, so a client that stops
 * reading holds one piece, not the answer. A piece that throws ends the stream as an error
 * (the client sees a broken answer, never a wrong one).
 */
export function streamedJsonResponse(
  pieces: AsyncIterator<string | Uint8Array> | Iterator<Uint8Array>,
  extraHeaders?: HeadersInit,
): Response {
  return streamedResponse(pieces, jsonHeaders(extraHeaders));
}

/** The same for a download of another type (an export as Markdown). */
export function streamedTextResponse(
  pieces: AsyncIterator<string>,
  contentType: string,
  extraHeaders?: HeadersInit,
): Response {
  const headers = new Headers(extraHeaders);
  headers.set("Content-Type", contentType);
  headers.set("Cache-Control", "private, no-store");
  return streamedResponse(pieces, headers);
}

function streamedResponse(
  pieces: AsyncIterator<string | Uint8Array> | Iterator<string | Uint8Array>,
  headers: Headers,
  status = 200,
): Response {
  const encoder = new TextEncoder();
  const slices = new TimeSlices();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          // Other callers get their turn between pieces: a reader that takes each piece at
          // once (a socket with room) would otherwise pull tens of megabytes in one run of
          // promise callbacks, encoding and writing them while everyone else waits.
          await slices.pause();
          const next = await pieces.next();
          if (next.done) controller.close();
          else
            controller.enqueue(
              typeof next.value === "string" ? encoder.encode(next.value) : next.value,
            );
        } catch (error) {
          logger.warn("streamed answer ended early", {
            reason: error instanceof Error ? error.message : String(error),
          });
          controller.error(error);
        }
      },
      async cancel() {
        await pieces.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status, headers });
}

/**
 * Renders any thrown value as the service's error body. ApiErrors keep their status;
 * anything else is a bug of ours: logged (without secrets) and answered 500 INTERNAL.
 */
export function errorResponse(error: unknown, extraHeaders?: HeadersInit): Response {
  // A scenario's bare status or reset is no error body at all.
  if (TransportFault.is(error)) return transportFaultResponse(error);
  const { body, status, headers } = errorAnswer(error, extraHeaders);
  return smallJsonResponse(body, { status, headers });
}

/**
 * What errorResponse answers, before it is written: the service's error body, its status, and
 * `Retry-After` when the error says when to retry.
 */
export function errorAnswer(
  error: unknown,
  extraHeaders?: HeadersInit,
): { body: ReturnType<ApiError["toBody"]>; status: number; headers: Headers } {
  const apiError = toApiError(error);
  const headers = new Headers(extraHeaders);
  const retryInfo = apiError.details?.find(
    (detail) => detail["@type"] === "type.googleapis.com/google.rpc.RetryInfo",
  );
  if (retryInfo && "retryDelay" in retryInfo)
    headers.set("Retry-After", String(Math.ceil(Number.parseFloat(retryInfo.retryDelay))));
  return { body: apiError.toBody(), status: apiError.httpStatus, headers };
}

/**
 * An error answer to a `streamGenerateContent?alt=sse` request that failed before its stream
 * started keeps its JSON error body but is typed `text/event-stream`, as the service types it
 * (recorded); clients read an error status's body whatever its type.
 */
export function asEventStreamError(response: Response): Response {
  if (response.status >= 400) response.headers.set("Content-Type", "text/event-stream");
  return response;
}

/** Whether a request asks for server-sent events (`:streamGenerateContent?alt=sse`). */
export function isEventStreamRequest(url: URL): boolean {
  return url.searchParams.get("alt") === "sse" && /:streamGenerateContent$/.test(url.pathname);
}

/**
 * A route handler for the methods a studio route does not serve: 405 with the service's
 * error body (Next's own 405 for an unexported method has no body at all).
 */
export function methodNotAllowed(allowed: string[]): (request: Request) => Response {
  return (request) =>
    errorResponse(
      new ApiError(
        405,
        "UNIMPLEMENTED",
        `Method ${request.method} is not allowed for ${new URL(request.url).pathname}.`,
      ),
      {
        Allow: allowed.join(", "),
      },
    );
}

/** A full disk or quota, from the file system or from SQLite: the server's condition, answered 503. */
function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL";
}

/** The ApiError a thrown value stands for; unexpected errors are logged once here. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // A client that went away: the fetch abort, or Next's own error for a closed response.
  if (error instanceof Error && (error.name === "AbortError" || error.name === "ResponseAborted")) {
    return new ApiError(499, "CANCELLED", "The request was cancelled by the client.");
  }
  if (isStorageFull(error)) {
    logger.warn("storage is full", error);
    return new ApiError(
      503,
      "UNAVAILABLE",
      "The studio's storage is full (no space left in its data directory). Free some space, then retry.",
    );
  }
  logger.error("unexpected error", error);
  return ApiError.internal();
}
