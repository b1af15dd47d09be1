import "server-only";
import { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { UpstreamSettings } from "../config/env";
import { logger } from "../config/logger";
import { withRetries, type RetrySafety } from "./retry-policy";
import { createUpstreamDispatchers, type UpstreamDispatchers } from "./upstream-dispatcher";
import {
  UpstreamError,
  errorFromTransport,
  errorFromUpstreamStatus,
  malformedUpstream,
  redirectRefused,
} from "./upstream-errors";
import { createScrubber, type Scrubber } from "../config/scrubber";
import { scrubbedJson, scrubbedJsonText } from "./scrubbed-json";
import { markStage } from "../observability/request-stages";
import { wholeAnswer, type WholeAnswer } from "./whole-answer";
import { stringifyJsonInSlices } from "@/lib/runtime/json-stringify-in-slices";
import { readPieces, type ReadPieces } from "@/lib/runtime/readable-pieces";
import type { ExchangeRecorder, RecordingTap } from "../emulator/exchange-recorder";

/**
 * The one place that talks to the upstream. Requests are built here from parts the gateway
 * chose (a path of the API surface, a JSON body, a client's JSON body as checked, a few upload
 * headers): nothing else of the client's request (its headers, cookies, key, host) is ever
 * copied. The server key
 * goes in `x-goog-api-key`, only to the configured origin; redirects are never followed.
 * Bodies stream both ways through undici (fetch's duplex upload buffers whole bodies).
 */

export type UpstreamMethod = "GET" | "POST" | "PATCH" | "DELETE" | "PUT";

/** Headers a call may add; everything else the upstream sees is set by the client class. */
const ALLOWED_HEADERS = new Set([
  "content-type",
  "content-length",
  "x-goog-upload-protocol",
  "x-goog-upload-command",
  "x-goog-upload-offset",
  "x-goog-upload-header-content-length",
  "x-goog-upload-header-content-type",
]);

export interface UpstreamCall {
  method: UpstreamMethod;
  /** A path of the API (`/v1beta/models/x:countTokens`), or an absolute URL on the upstream's origin. */
  target: string;
  query?: Record<string, string | undefined>;
  /** JSON body, serialised here. */
  json?: unknown;
  /** JSON body as bytes (a client's body forwarded as received), sent as they are; retryable. */
  jsonBytes?: readonly Uint8Array[];
  /** Streamed body (upload chunks), pulled as the upstream takes it; never retried. */
  body?: AsyncIterable<Uint8Array>;
  headers?: Record<string, string>;
  /** The key as `Authorization: Bearer`, as the OpenAI-compatible endpoint takes it. */
  bearerKey?: boolean;
  /**
   * The answer is held open while it lasts (an event stream passed on as it comes): it may share
   * an HTTP/2 connection with other held answers. Every other call goes over HTTP/1.1.
   */
  held?: boolean;
  signal: AbortSignal;
  safety: RetrySafety;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData["body"];
}

const ERROR_BODY_LIMIT = 1024 * 1024;
/** A refused redirect's body read and dropped, as undici's `dump()` does, before the exchange ends. */
const REDIRECT_BODY_LIMIT = 128 * 1024;
/** How the gateway names itself upstream. */
const USER_AGENT = "genstudio-gateway";
/** API paths remembered at most (`address`): a few per model and operation. */
const REMEMBERED_ADDRESSES = 1024;
/** The largest answer parsed whole: lists, files, caches, models, token counts. */
const JSON_BODY_LIMIT = 32 * 1024 * 1024;
/**
 * Most of a generation's answer held before it is passed on: one that ends within it is
 * checked (and retried like a lost request when cut); a longer one (images, audio) is
 * streamed through to the client as it arrives, so no answer is ever held whole.
 */
export const ANSWER_BUFFER_BYTES = 1024 * 1024;

/** An answer read whole (parsed and scrubbed), or too long for that: its text, scrubbed, as it arrives. */
export type HeldOrPassedOn<T> = { value: T } | { pieces: AsyncGenerator<string> };

/** Reads a body as UTF-8 text, refusing more than `limit` bytes. */
export async function readBodyText(
  body: AsyncIterable<Buffer | string>,
  limit: number,
): Promise<string> {
  return (await readBodyPieces(body, limit)).join("");
}

/**
 * Reads a body as UTF-8 text in the pieces it arrived in, refusing more than `limit` bytes:
 * megabytes are never decoded or copied in one call.
 */
export async function readBodyPieces(
  body: AsyncIterable<Buffer | string>,
  limit: number,
): Promise<string[]> {
  const decoder = new TextDecoder("utf-8");
  const pieces: string[] = [];
  let total = 0;
  for await (const piece of body) {
    const buffer = typeof piece === "string" ? Buffer.from(piece) : piece;
    total += buffer.length;
    if (total > limit) throw malformedUpstream(`a response larger than ${limit} bytes`);
    pieces.push(decoder.decode(buffer, { stream: true }));
  }
  pieces.push(decoder.decode());
  return pieces;
}

/**
 * The most of an answer read whole, by its status: a 2xx answer's JSON, an error's text (a
 * longer one is logged and mapped without it), and what undici's `dump()` reads of a refused
 * redirect's body before ending the exchange.
 */
function answerLimit(status: number): number {
  if (status < 300) return JSON_BODY_LIMIT;
  return status < 400 ? REDIRECT_BODY_LIMIT : ERROR_BODY_LIMIT;
}

/**
 * The decoder of answers read whole, made once (a TextDecoder makes an ICU converter, which
 * costs more than decoding a small answer): each use ends with `decode()` without `stream`,
 * which resets it, and awaits nothing in between, so no two uses interleave.
 */
const wholeAnswerText = new TextDecoder("utf-8");

/** Pieces read whole (readPieces) as UTF-8 text, decoded piece by piece as readBodyPieces does. */
function decodedPieces({ pieces }: Pick<ReadPieces, "pieces">): string[] {
  const text = pieces.map((piece) => wholeAnswerText.decode(piece, { stream: true }));
  text.push(wholeAnswerText.decode());
  return text;
}

/**
 * An upstream body as a web stream for our own response: a piece is read only when the
 * client has taken the previous one, and a client that goes away ends the upstream exchange.
 */
export function webStreamOf(body: UpstreamResponse["body"]): ReadableStream<Uint8Array> {
  const pieces = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await pieces.next();
          if (done) controller.close();
          else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        if (!body.destroyed) body.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A forwarded JSON body up to this size goes out in one write with the request's headers. */
const ONE_WRITE_BYTES = 64 * 1024;

/**
 * A client's JSON body as received, for undici: small ones as one buffer, larger ones piece by
 * piece. The pieces go as a synchronous iterable (undici takes one, its documentation says),
 * not a stream: undici runs a stream's exchange alone on its connection, since a stream's
 * source may fail midway, while these bytes are all in memory, so the exchange may share an
 * HTTP/2 connection with held streams.
 */
function forwardedBody(pieces: readonly Uint8Array[]): Uint8Array | Iterable<Uint8Array> {
  let total = 0;
  for (const piece of pieces) total += piece.byteLength;
  if (total > ONE_WRITE_BYTES) return handedOver([...pieces]);
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, total);
}

/**
 * The pieces one by one, each let go once handed on: undici keeps a request's body until the
 * exchange ends, which for a held stream is minutes. A copy of the list is taken (a retry
 * sends the same pieces again), and emptied as it is read.
 */
function* handedOver(queue: Uint8Array[]): Generator<Uint8Array> {
  while (queue.length > 0) yield queue.shift()!;
}

/** The JSON a call sends, for a recording: its value, or its forwarded bytes read as JSON. */
function recordedJson(call: UpstreamCall): unknown {
  if (call.json !== undefined || call.jsonBytes === undefined) return call.json;
  try {
    return JSON.parse(Buffer.concat(call.jsonBytes).toString("utf8"));
  } catch {
    return undefined;
  }
}

export class UpstreamClient {
  readonly scrub: Scrubber;
  private readonly origin: string;
  private readonly dispatchers: UpstreamDispatchers;
  /** API paths read into undici's origin and path (`address`). */
  private readonly addresses = new Map<string, { origin: string; path: string }>();
  /** The headers every call ends with: who is calling, and the server's key. */
  private readonly keyHeaders: Readonly<Record<string, string>>;
  private readonly bearerHeaders: Readonly<Record<string, string>>;

  constructor(
    readonly settings: UpstreamSettings,
    /** One dispatcher for every call (a test's), or the two kinds (upstream-dispatcher.ts). */
    dispatcher?: Dispatcher | UpstreamDispatchers,
    /** GENSTUDIO_RECORD's recorder: every exchange written as a cassette line. */
    private readonly recorder?: ExchangeRecorder,
  ) {
    this.scrub = createScrubber(settings.apiKey, settings.baseUrl);
    this.origin = new URL(settings.baseUrl).origin;
    this.keyHeaders = { "user-agent": USER_AGENT, "x-goog-api-key": settings.apiKey };
    this.bearerHeaders = { "user-agent": USER_AGENT, authorization: `Bearer ${settings.apiKey}` };
    this.dispatchers =
      dispatcher === undefined
        ? createUpstreamDispatchers(settings)
        : "held" in dispatcher
          ? dispatcher
          : { held: dispatcher, unary: dispatcher };
  }

  /** Held answers share HTTP/2 where the upstream offers it; every other exchange is unary. */
  private dispatcherFor(call: UpstreamCall): Dispatcher {
    return call.held ? this.dispatchers.held : this.dispatchers.unary;
  }

  /** True when `url` is on the upstream's own origin (the only place the key may go). */
  isUpstreamUrl(url: string): boolean {
    try {
      return new URL(url).origin === this.origin;
    } catch {
      return false;
    }
  }

  /**
   * Where a call goes, as undici takes it. A path of the API without a query (most calls:
   * `/v1beta/models/x:countTokens`) is read once and remembered: it depends on nothing of
   * the request but the path itself. Absolute addresses (upload sessions, whose ids are
   * credentials) are read each time and never kept.
   */
  private address(call: UpstreamCall): { origin: string; path: string } {
    if (call.query !== undefined || !call.target.startsWith("/")) {
      const url = this.url(call);
      return { origin: url.origin, path: url.pathname + url.search };
    }
    let address = this.addresses.get(call.target);
    if (address === undefined) {
      const url = this.url(call);
      address = { origin: url.origin, path: url.pathname + url.search };
      if (this.addresses.size >= REMEMBERED_ADDRESSES) this.addresses.clear();
      this.addresses.set(call.target, address);
    }
    return address;
  }

  private url(call: UpstreamCall): URL {
    const url = /^https?:\/\//i.test(call.target)
      ? new URL(call.target)
      : new URL(this.settings.baseUrl + call.target);
    if (url.origin !== this.origin) throw malformedUpstream("an address outside its own origin");
    url.searchParams.delete("key");
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    return url;
  }

  private headers(call: UpstreamCall): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(call.headers ?? {})) {
      const lower = name.toLowerCase();
      if (!ALLOWED_HEADERS.has(lower)) throw new Error(`header ${name} may not be sent upstream`);
      headers[lower] = value;
    }
    if (call.json !== undefined || call.jsonBytes !== undefined)
      headers["content-type"] = "application/json";
    if (call.jsonBytes !== undefined)
      headers["content-length"] = String(
        call.jsonBytes.reduce((total, piece) => total + piece.byteLength, 0),
      );
    return Object.assign(headers, call.bearerKey ? this.bearerHeaders : this.keyHeaders);
  }

  /** The call's path for log lines: upload session ids are credentials, so they are cut. */
  private describe(call: UpstreamCall): string {
    try {
      const url = /^https?:\/\//i.test(call.target)
        ? new URL(call.target)
        : new URL(this.settings.baseUrl + call.target);
      return url.searchParams.has("upload_id") ? `${url.pathname}?upload_id=…` : url.pathname;
    } catch {
      return "(invalid target)";
    }
  }

  /**
   * What one attempt sends, as undici's dispatcher takes it (`json` is the call's JSON value
   * already serialised), and the recorder's tap for it. The origin and path are known, so
   * undici's top-level helper's second reading of the URL is skipped.
   */
  private prepared(
    call: UpstreamCall,
    json: string | undefined,
  ): { request: Dispatcher.DispatchOptions; tap: RecordingTap | undefined } {
    const address = this.address(call);
    const headers = this.headers(call);
    const tap = this.recorder?.begin({
      method: call.method,
      url: new URL(address.origin + address.path),
      headers,
      json: recordedJson(call),
    });
    const body = call.body && tap ? tap.requestBody(call.body) : call.body;
    return {
      request: {
        origin: address.origin,
        path: address.path,
        method: call.method,
        headers,
        body:
          json !== undefined
            ? json
            : call.jsonBytes !== undefined
              ? (forwardedBody(call.jsonBytes) as Dispatcher.DispatchOptions["body"])
              : body
                ? Readable.from(body, { objectMode: false })
                : undefined,
      },
      tap,
    };
  }

  /** Logs a call that failed before any answer, unless the client went away. */
  private failed(call: UpstreamCall, error: unknown): unknown {
    const mapped = errorFromTransport(error, this.settings);
    if (mapped instanceof Error && mapped.name !== "AbortError")
      logger.warn(`upstream ${call.method} ${this.describe(call)} failed`, mapped.message);
    return mapped;
  }

  /** The error an answer of `status` becomes, logged: redirects are refused, 4xx and 5xx mapped. */
  private refused(call: UpstreamCall, status: number, text: string): UpstreamError {
    if (status < 400) {
      logger.warn(
        `upstream ${call.method} ${this.describe(call)} answered ${status} (redirect refused)`,
      );
      return redirectRefused(status);
    }
    const error = errorFromUpstreamStatus(status, text, this.scrub);
    // The upstream's own words go to the log (the logger redacts secrets); the client's
    // own mistakes (4xx other than 429) only as information.
    const serious = status === 429 || status >= 500 || error.failure === "gateway";
    (serious ? logger.warn : logger.info)(
      `upstream ${call.method} ${this.describe(call)} answered ${status}`,
      text.slice(0, 2000),
    );
    return error;
  }

  /** One attempt: a 2xx response with its body unread, or a thrown error (body consumed). */
  private async attempt(call: UpstreamCall): Promise<UpstreamResponse> {
    let response: Dispatcher.ResponseData;
    let tap: RecordingTap | undefined;
    try {
      // A forwarded request of megabytes is written out in slices.
      const json = call.json !== undefined ? await stringifyJsonInSlices(call.json) : undefined;
      const prepared = this.prepared(call, json);
      tap = prepared.tap;
      // undici's first-byte clock runs once the body has been written, so a streamed body
      // that trickles in from our client is never cut off by it.
      response = await this.dispatcherFor(call).request({
        ...prepared.request,
        signal: call.signal,
      });
    } catch (error) {
      throw this.failed(call, error);
    }
    const { statusCode: status, headers, body } = response;
    if (status >= 300 && status < 400) {
      await body.dump().catch(() => undefined);
      throw this.refused(call, status, "");
    }
    if (status >= 400) {
      let text = "";
      try {
        text = await readBodyText(body, ERROR_BODY_LIMIT);
      } catch {
        text = "";
      }
      tap?.responseText(status, headers, text);
      throw this.refused(call, status, text);
    }
    return { status, headers, body: tap ? tap.response(status, headers, body) : body };
  }

  /** Sends `call` (retrying as its safety allows) and returns the 2xx response, body unread. */
  async open(call: UpstreamCall): Promise<UpstreamResponse> {
    return withRetries(() => this.attempt(call), {
      safety: call.body ? "never" : call.safety,
      settings: this.settings,
      signal: call.signal,
    });
  }

  /** Sends `call` and parses the JSON answer; a lost body is retried like a lost request. */
  json<T>(call: UpstreamCall): Promise<T> {
    return this.scrubbedAnswer(call, (pieces) => scrubbedJson<T>(pieces, this.scrub));
  }

  /**
   * Sends `call` and answers its JSON text as the upstream wrote it, scrubbed and checked to
   * be JSON, for an answer the gateway passes on without reading it; retried like `json`.
   */
  jsonText(call: UpstreamCall): Promise<string> {
    return this.scrubbedAnswer(call, (pieces) => scrubbedJsonText(pieces, this.scrub));
  }

  /** Sends `call`, reads its answer whole and hands the pieces to `scrubbed`; retried as a whole. */
  private scrubbedAnswer<R>(
    call: UpstreamCall,
    scrubbed: (pieces: string[]) => Promise<R>,
  ): Promise<R> {
    return withRetries(
      async () => {
        const pieces = await this.answerRead(call);
        markStage("upstream body read");
        const value = await scrubbed(pieces);
        markStage("answer scrubbed");
        return value;
      },
      { safety: call.body ? "never" : call.safety, settings: this.settings, signal: call.signal },
    );
  }

  /** A call whose answer is read as a stream: one with a streamed body, or one the recorder taps. */
  private readsStream(call: UpstreamCall): boolean {
    return call.body !== undefined || this.recorder !== undefined;
  }

  /**
   * One attempt whose 2xx answer is read whole (up to JSON_BODY_LIMIT), as text in the pieces
   * it came in; any other answer, or a failure, thrown.
   */
  private async answerRead(call: UpstreamCall): Promise<string[]> {
    if (this.readsStream(call)) {
      const response = await this.attempt(call);
      markStage("upstream answered");
      return this.readAnswer(response);
    }
    const answer = await this.heldAnswer(call, JSON_BODY_LIMIT, "end");
    if (answer.bodyError !== undefined) throw errorFromTransport(answer.bodyError, this.settings);
    return decodedPieces(answer);
  }

  /**
   * One attempt through wholeAnswer, holding up to `limit` bytes of a 2xx answer: an answer
   * of any other status, or a failure before the answer, thrown as `attempt` throws it.
   */
  private async heldAnswer(
    call: UpstreamCall,
    limit: number,
    overflow: "end" | "stream",
  ): Promise<WholeAnswer> {
    let answer: WholeAnswer;
    try {
      const json = call.json !== undefined ? await stringifyJsonInSlices(call.json) : undefined;
      answer = await wholeAnswer(this.dispatcherFor(call), {
        request: this.prepared(call, json).request,
        signal: call.signal,
        limit: (status) => (status < 300 ? limit : answerLimit(status)),
        tooLarge: (status) =>
          status < 300
            ? malformedUpstream(`a response larger than ${limit} bytes`)
            : new Error(`an answer of status ${status} longer than is read`),
        overflow,
      });
    } catch (error) {
      throw this.failed(call, error);
    }
    const { status, bodyError } = answer;
    if (status >= 300)
      throw this.refused(
        call,
        status,
        bodyError === undefined && status >= 400 ? decodedPieces(answer).join("") : "",
      );
    return answer;
  }

  /** A 2xx answer's body read whole (up to JSON_BODY_LIMIT), as text in the pieces it came in. */
  private async readAnswer(response: UpstreamResponse): Promise<string[]> {
    try {
      return decodedPieces(
        await readPieces(response.body, JSON_BODY_LIMIT, () =>
          malformedUpstream(`a response larger than ${JSON_BODY_LIMIT} bytes`),
        ),
      );
    } catch (error) {
      throw errorFromTransport(error, this.settings);
    }
  }

  /**
   * Sends `call` and reads its JSON answer into a buffer of `bufferBytes`: an answer that
   * ends within it is parsed (retried like `json` when lost); a longer one is passed on as
   * scrubbed text while it arrives, and can no longer be retried.
   */
  async jsonOrPassedOn<T>(
    call: UpstreamCall,
    bufferBytes = ANSWER_BUFFER_BYTES,
  ): Promise<HeldOrPassedOn<T>> {
    return withRetries(
      async () => {
        if (this.readsStream(call)) return this.heldOrPassedOnStream<T>(call, bufferBytes);
        const answer = await this.heldAnswer(call, bufferBytes, "stream");
        if (answer.rest !== undefined)
          return {
            pieces: this.passOn(
              answer.pieces,
              answer.rest[Symbol.asyncIterator]() as AsyncIterator<Buffer>,
              answer.rest,
            ),
          };
        if (answer.bodyError !== undefined)
          throw errorFromTransport(answer.bodyError, this.settings);
        const text = Buffer.concat(answer.pieces, answer.size).toString("utf8");
        return { value: await scrubbedJson<T>([text], this.scrub) };
      },
      { safety: call.body ? "never" : call.safety, settings: this.settings, signal: call.signal },
    );
  }

  /** jsonOrPassedOn's attempt for a call whose answer is read as undici's stream. */
  private async heldOrPassedOnStream<T>(
    call: UpstreamCall,
    bufferBytes: number,
  ): Promise<HeldOrPassedOn<T>> {
    const response = await this.attempt(call);
    const pieces = response.body[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
    const held: Buffer[] = [];
    let size = 0;
    try {
      for (;;) {
        const next = await pieces.next();
        if (next.done) {
          const text = Buffer.concat(held).toString("utf8");
          return { value: await scrubbedJson<T>([text], this.scrub) };
        }
        const piece = typeof next.value === "string" ? Buffer.from(next.value) : next.value;
        held.push(piece);
        size += piece.length;
        if (size > bufferBytes) break;
      }
    } catch (error) {
      response.body.destroy();
      throw errorFromTransport(error, this.settings);
    }
    return { pieces: this.passOn(held, pieces, response.body) };
  }

  private async *passOn(
    held: Buffer[],
    pieces: AsyncIterator<Buffer | string>,
    body: Readable,
  ): AsyncGenerator<string> {
    const decoder = new TextDecoder("utf-8");
    const scrubbing = this.scrub.pieces();
    let finished = false;
    try {
      yield scrubbing.push(decoder.decode(Buffer.concat(held.splice(0)), { stream: true }));
      for (;;) {
        let next: IteratorResult<Buffer | string>;
        try {
          next = await pieces.next();
        } catch (error) {
          throw errorFromTransport(error, this.settings);
        }
        if (next.done) break;
        const text = scrubbing.push(
          typeof next.value === "string"
            ? next.value
            : decoder.decode(next.value, { stream: true }),
        );
        if (text !== "") yield text;
      }
      yield scrubbing.push(decoder.decode()) + scrubbing.end();
      finished = true;
    } finally {
      // The client went away or the upstream broke: end the upstream exchange at once.
      if (!finished && !body.destroyed) body.destroy();
    }
  }

  /** Closes pooled connections (tests, shutdown). */
  async close(): Promise<void> {
    const { held, unary } = this.dispatchers;
    await Promise.all(held === unary ? [unary.close()] : [held.close(), unary.close()]);
  }
}
