import "server-only";
import type { Readable } from "node:stream";
import { readPieces } from "@/lib/runtime/readable-pieces";
import { ApiError } from "@/lib/gemini/api-error";
import type { Backend, ReceivedBody } from "@/lib/gemini/backend/contract";
import { markStage } from "../observability/request-stages";
import { readBody, readBodyForForwarding, readBodyForForwardingHere } from "./body-reader-client";
import type { BodyOf, BodyReaderName, BodySource } from "./body-readers";

/** Largest JSON body accepted (inline media included), checked before it is buffered. */
export const MAX_JSON_BODY_BYTES = 100 * 1024 * 1024;

/**
 * Reads a JSON request body with a size cap enforced while reading, so an oversized body
 * is refused before it is held in memory. An empty body reads as `{}`.
 */
export async function readJsonBody(
  request: Request,
  limit = MAX_JSON_BODY_BYTES,
): Promise<unknown> {
  return readRequestBody(request, "json", limit);
}

/**
 * Reads a request body into what `reader` makes of it (an operation's canonical request, see
 * body-readers.ts), with the size cap of readJsonBody. A large body is decoded, parsed and read
 * off this thread (body-reader-client.ts).
 */
export async function readRequestBody<Name extends BodyReaderName>(
  request: Request,
  reader: Name,
  limit = MAX_JSON_BODY_BYTES,
): Promise<BodyOf<Name>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  return readBody(await readBytesCapped(request, limit), reader);
}

/**
 * Reads an operation's body as its backend needs it: the local engine strictly, as the
 * service reads it (readRequestBody); a backend that forwards (the gateway) leniently, as
 * lib/gemini/forwarding-read reads it, and then `context.received` holds the bytes as they
 * came and what the read found, for the backend to check and forward. Answers the canonical
 * request either way.
 */
export async function readOperationBody<Name extends BodyReaderName>(
  context: { request: Request; backend: Pick<Backend, "mode">; received?: ReceivedBody },
  reader: Name,
  limit = MAX_JSON_BODY_BYTES,
): Promise<BodyOf<Name>> {
  if (context.backend.mode !== "upstream") return readRequestBody(context.request, reader, limit);
  const declared = Number(context.request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const bytes = await readBytesCapped(context.request, limit);
  markStage("body read");
  // A body read on this thread (most are) is read at once, without a promise to wait for.
  const read =
    readBodyForForwardingHere(bytes, reader) ?? (await readBodyForForwarding(bytes, reader));
  markStage("body parsed");
  context.received = { ...read.source, findings: read.findings };
  return read.request;
}

function tooLarge(limit: number): ApiError {
  return new ApiError(
    413,
    "INVALID_ARGUMENT",
    `Request payload size exceeds the limit: ${limit} bytes.`,
  );
}

/**
 * A request's body piece by piece: as Node gives it when the start script's dispatch made the
 * request (scripts/api-dispatch.cjs) and its web body is untouched, without a web stream in
 * between; else through its web body. Either way the body is then taken (a second read fails).
 * Null when the request has no body.
 */
export function requestBodyPieces(request: Request): AsyncIterator<Uint8Array> | null {
  const node = (request as DispatchedRequest)[NODE_BODY]?.();
  if (node) return node[Symbol.asyncIterator]();
  if (!request.body) return null;
  const reader = request.body.getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
    return: async () => {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}

/**
 * How scripts/api-dispatch.cjs offers Node's request, whose body it is: taking it marks the web
 * body as used; null when there is none to take in that form.
 */
const NODE_BODY = Symbol.for("genstudio.nodeRequestBody");
type DispatchedRequest = Request & {
  [NODE_BODY]?: () => AsyncIterable<Uint8Array> | null;
};

/** Bytes read between two turns of the event loop. */
const YIELD_EVERY_BYTES = 1024 * 1024;

/**
 * The body's bytes as they arrive, each piece copied into a buffer of its own (so it can be
 * handed to a worker whole). Node's request (the dispatch's) is read through its own events, a
 * piece per socket read. A web body that has already arrived is otherwise read in one
 * unbroken run of promise callbacks: 16 MiB held every other caller for hundreds of
 * milliseconds. Every MiB, other work gets its turn.
 */
async function readBytesCapped(request: Request, limit: number): Promise<BodySource> {
  const node = (request as DispatchedRequest)[NODE_BODY]?.();
  if (node) {
    const read = await readPieces(node as Readable, limit, () => tooLarge(limit));
    return { bytes: read.pieces.map((piece) => new Uint8Array(piece)), size: read.size };
  }
  const bytes: Uint8Array[] = [];
  const pieces = requestBodyPieces(request);
  if (pieces === null) return { bytes, size: 0 };
  let size = 0;
  let sinceYield = 0;
  for (;;) {
    const { done, value } = await pieces.next();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await pieces.return?.();
      throw tooLarge(limit);
    }
    bytes.push(new Uint8Array(value));
    sinceYield += value.byteLength;
    if (sinceYield >= YIELD_EVERY_BYTES) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return { bytes, size };
}
