/**
 * What a JSON request body becomes, by name, so that a body can be read on this thread or in
 * the body reader worker (body-reader-worker.ts) with the same code: JSON.parse with the
 * service's message, the nesting limit, then the operation's canonical read (lib/gemini/validate).
 * From the worker the body comes back as JSON text: a plain JSON body as it was sent, a
 * canonical request as written anew (the readers make plain JSON data, no undefined members,
 * so it arrives as it was made, except that a -0 arrives as 0).
 */
import { ApiError, type ErrorDetail, type RpcStatus } from "@/lib/gemini/api-error";
import {
  MAX_NESTING_DEPTH,
  nestingDepthExceeds,
  readCountTokensRequest,
  readGenerateContentRequest,
} from "@/lib/gemini/validate";
import { readBatchGenerateContentRequest, readBatchInputLine } from "@/lib/gemini/validate-batch";
import {
  readForForwarding,
  readUnmodelledBody,
  type ForwardingFindings,
} from "@/lib/gemini/forwarding-read";
import { parseCachedContentCreate } from "@/lib/gemini/validate-caches";
import {
  readAsyncBatchEmbedContentRequest,
  readBatchEmbedContentsRequest,
  readEmbedContentRequest,
} from "@/lib/gemini/validate-embedding";
import { readInteractionEnvelope } from "@/lib/gemini/interactions/envelope";
import { writeJsonPieces, type JsonPieces } from "@/lib/runtime/json-pieces";
import { setAsideBuffers, setAsideLongStrings, type SetAsideString } from "./long-strings";
import { readOpenAIEnvelope } from "@/lib/gemini/openai/openai-envelope";

export const BODY_READERS = {
  /** The parsed JSON as sent. */
  json: (body: unknown): unknown => body,
  generateContent: readGenerateContentRequest,
  countTokens: readCountTokensRequest,
  cachedContentCreate: parseCachedContentCreate,
  batchCreate: readBatchGenerateContentRequest,
  /** One line of a batch's JSONL input file (the gateway reads those it forwards). */
  batchInputLine: readBatchInputLine,
  /** A method the gateway forwards without modelling it (a forwarding read only). */
  unmodelled: readUnmodelledBody,
  embedContent: readEmbedContentRequest,
  batchEmbedContents: readBatchEmbedContentsRequest,
  asyncBatchEmbedContent: readAsyncBatchEmbedContentRequest,
  /** An Interactions create, as the gateway reads it (a forwarding read only). */
  interactionEnvelope: readInteractionEnvelope,
  /** A body of the OpenAI-compatible endpoint, as the gateway reads it (a forwarding read only). */
  openaiEnvelope: readOpenAIEnvelope,
};

export type BodyReaderName = keyof typeof BODY_READERS;
export type BodyOf<Name extends BodyReaderName> = ReturnType<(typeof BODY_READERS)[Name]>;

/** A body read for forwarding: its canonical request and what the gateway's check needs besides. */
export interface ForwardedRead<Request> {
  request: Request;
  findings: ForwardingFindings;
}

/**
 * A body read by `reader` as the gateway reads what it forwards (lib/gemini/forwarding-read):
 * fields it does not know tolerated, resources named outside reference fields found.
 */
export function readForwardedBody<Name extends BodyReaderName>(
  source: BodySource,
  reader: Name,
): ForwardedRead<BodyOf<Name>> {
  const body = parseBodyJson(sourceText(source));
  const read = BODY_READERS[reader] as (body: unknown) => BodyOf<Name>;
  return readForForwarding(read, body, source.bytes);
}

/** A body's text read by `reader` (synchronously: for small bodies, and inside the worker). */
export function readBodyText<Name extends BodyReaderName>(
  text: string,
  reader: Name,
): BodyOf<Name> {
  return BODY_READERS[reader](parseBodyJson(text)) as BodyOf<Name>;
}

/** The body's JSON as sent: an empty body reads as `{}`. Throws the service's 400s. */
export function parseBodyJson(text: string): unknown {
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : "malformed JSON";
    throw ApiError.invalidArgument(`Invalid JSON payload received. ${detail}`);
  }
  // Refused here, for every endpoint and both modes: anything recursive later (a schema, the
  // gateway's JSON.stringify) would run out of stack on thousands of levels.
  if (nestingDepthExceeds(body, MAX_NESTING_DEPTH)) {
    throw ApiError.invalidArgument(
      `Invalid JSON payload received. Nesting is deeper than ${MAX_NESTING_DEPTH} levels.`,
    );
  }
  return body;
}

/** An ApiError as it crosses between threads. */
export interface ApiErrorData {
  httpStatus: number;
  rpcStatus: RpcStatus;
  message: string;
  details?: ErrorDetail[];
}

export function apiErrorData(error: ApiError): ApiErrorData {
  return {
    httpStatus: error.httpStatus,
    rpcStatus: error.rpcStatus,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  };
}

export function apiErrorOf(data: ApiErrorData): ApiError {
  return new ApiError(data.httpStatus, data.rpcStatus, data.message, data.details);
}

/** A body's bytes as they came (decoded where the body is read), and their total size. */
export interface BodySource {
  bytes: Uint8Array[];
  size: number;
}

export type BodyReaderRequest = {
  id: number;
  reader: BodyReaderName;
  /** Read for forwarding (readForwardedBody), the bytes handed back with the answer. */
  forward?: boolean;
} & BodySource;

/**
 * The decoder of every body's text, made once (a TextDecoder makes an ICU converter, which
 * costs more than decoding a small body): each use ends with `decode()` without `stream`,
 * which resets it, and awaits nothing in between, so no two uses interleave.
 */
const utf8 = new TextDecoder("utf-8");

/** The text of a body: UTF-8, invalid sequences replaced and a leading BOM dropped (TextDecoder). */
export function sourceText(source: BodySource): string {
  const pieces = source.bytes.map((bytes) => utf8.decode(bytes, { stream: true }));
  pieces.push(utf8.decode());
  return pieces.join("");
}

export type BodyReaderReply =
  | { id: number; kind: "ready" }
  | {
      id: number;
      kind: "value";
      /** Its JSON in pieces, each parsed on its own (json-pieces.ts). */
      pieces: JsonPieces;
      /** Its long strings, beside the pieces, as code units in shared memory or bytes (long-strings.ts). */
      long?: SetAsideString[];
      bytes?: Uint8Array[];
    }
  | { id: number; kind: "error"; error: ApiErrorData }
  | { id: number; kind: "failure"; message: string };

/**
 * The memory a reply hands over to the request's thread rather than copying into the message:
 * its JSON pieces, a forwarded body's bytes (as they came) and inline data (as its bytes).
 */
export function replyTransferList(reply: BodyReaderReply): ArrayBuffer[] {
  if (reply.kind !== "value") return [];
  return [
    reply.pieces.bytes.buffer as ArrayBuffer,
    ...(reply.bytes ?? []).map((piece) => piece.buffer as ArrayBuffer),
    ...setAsideBuffers(reply.long ?? []),
  ];
}

/** The worker's answer to one body: read (as JSON pieces), or refused. */
export function answerBodyReaderRequest(request: BodyReaderRequest): BodyReaderReply {
  const { id, reader } = request;
  try {
    if (request.forward) {
      const read = readForwardedBody(request, reader);
      const long = setAsideLongStrings(read);
      return { id, kind: "value", pieces: writeJsonPieces(read), long, bytes: request.bytes };
    }
    const read = BODY_READERS[reader](parseBodyJson(sourceText(request)));
    const long = setAsideLongStrings(read);
    return { id, kind: "value", pieces: writeJsonPieces(read), long };
  } catch (error) {
    if (error instanceof ApiError) return { id, kind: "error", error: apiErrorData(error) };
    return { id, kind: "failure", message: error instanceof Error ? error.message : String(error) };
  }
}
