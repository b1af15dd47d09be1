import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PassThrough, pipeline, type Readable } from "node:stream";
import {
  CASSETTE_VERSION,
  ownerFolder,
  type RecordedExchange,
} from "@/lib/engine/emulator/cassettes/cassette-format";
import { currentExchange } from "@/lib/engine/emulator/exchange-scope";
import { operationOf } from "@/lib/engine/emulator/operations";
import { logger } from "../config/logger";

/**
 * The gateway's recorder (GENSTUDIO_RECORD=dir): every exchange with the upstream, each attempt
 * of a retried call included, is written as one line of a cassette in the recorded-exchanges
 * format, in the folder of the caller it was made for (`dir/<ownerFolder>/<start time>.jsonl`),
 * so a team's own traffic becomes a cassette GENSTUDIO_REPLAY answers from. The body is kept as
 * received, with when each piece arrived; what identifies the upstream is stripped: the key
 * (never sent in the kept headers or query, and replaced wherever else it would appear; a line
 * still holding it is not written) and the upstream's address (only paths are kept).
 */

/** Headers the format keeps (names lower-cased). */
const KEPT_HEADER = /^(?:content-type|x-goog-upload-.*)$/;
/** Longest body recorded; an exchange with a longer one is not recorded (and says so in the log). */
const MAX_RECORDED_BYTES = 64 * 1024 * 1024;
const REDACTED = "[redacted]";

export interface RecordedCall {
  method: string;
  url: URL;
  headers: Record<string, string>;
  json?: unknown;
}

/** One exchange being recorded: its request, then its answer as it passes. */
export interface RecordingTap {
  /** A streamed request body (an upload chunk), copied as it is sent. */
  requestBody(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array>;
  /** The upstream's answer body, recorded as it is read; the same stream to read from. */
  response<T extends Readable>(status: number, headers: Record<string, unknown>, body: T): T;
  /** An answer read whole by the client (an error status). */
  responseText(status: number, headers: Record<string, unknown>, text: string): void;
}

export class ExchangeRecorder {
  private readonly started = new Date().toISOString().replace(/[:.]/g, "-");
  private readonly counters = new Map<string, number>();
  private writing: Promise<void> = Promise.resolve();
  private readonly basePath: string;

  constructor(
    private readonly dir: string,
    private readonly upstream: { apiKey: string; baseUrl: string },
  ) {
    this.basePath = new URL(upstream.baseUrl).pathname.replace(/\/+$/, "");
  }

  begin(call: RecordedCall): RecordingTap {
    const ownerId = currentExchange()?.ownerId ?? "unknown";
    const t0 = performance.now();
    let requestPieces: Buffer[] | null = [];
    let requestBytes = 0;
    const finish = (
      status: number,
      headers: Record<string, unknown>,
      body: Buffer[],
      timing: RecordedExchange["responseTiming"],
    ) => {
      const requestBody =
        call.json !== undefined
          ? { requestBodyEncoding: "json" as const, requestBody: call.json }
          : requestPieces && requestBytes > 0
            ? {
                requestBodyEncoding: "base64" as const,
                requestBody: Buffer.concat(requestPieces).toString("base64"),
              }
            : { requestBodyEncoding: "none" as const };
      this.write(ownerId, call, status, headers, body, timing, requestBody);
    };
    return {
      async *requestBody(body) {
        for await (const piece of body) {
          requestBytes += piece.byteLength;
          if (requestPieces && requestBytes <= MAX_RECORDED_BYTES)
            requestPieces.push(Buffer.from(piece));
          else requestPieces = null;
          yield piece;
        }
      },
      response(status, headers, body) {
        const headersMs = performance.now() - t0;
        const pieces: Buffer[] = [];
        const chunks: Array<[number, number]> = [];
        let size = 0;
        const copy = new PassThrough({
          transform(piece: Buffer, _encoding, callback) {
            size += piece.byteLength;
            if (size <= MAX_RECORDED_BYTES) {
              pieces.push(piece);
              chunks.push([Math.round(performance.now() - t0), piece.byteLength]);
            }
            callback(null, piece);
          },
        });
        copy.once("end", () => {
          if (size > MAX_RECORDED_BYTES) {
            logger.warn(`recording skipped an answer longer than ${MAX_RECORDED_BYTES} bytes`);
            return;
          }
          finish(status, headers, pieces, { headersMs: Math.round(headersMs), chunks });
        });
        pipeline(body, copy, () => undefined);
        // The undici body's own way to discard the rest, for callers that use it.
        return Object.assign(copy, {
          dump: async () => {
            copy.resume();
            await new Promise((resolve) => copy.once("close", resolve));
          },
        }) as unknown as typeof body;
      },
      responseText(status, headers, text) {
        const ms = Math.round(performance.now() - t0);
        const bytes = Buffer.from(text);
        finish(status, headers, [bytes], {
          headersMs: ms,
          chunks: bytes.length ? [[ms, bytes.length]] : [],
        });
      },
    };
  }

  /** The path without the upstream base URL's own path; the query without the key. */
  private strippedTarget(url: URL): { path: string; query: Record<string, string> } {
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) if (name !== "key") query[name] = value;
    const pathname =
      this.basePath && url.pathname.startsWith(this.basePath)
        ? url.pathname.slice(this.basePath.length) || "/"
        : url.pathname;
    return { path: pathname, query };
  }

  /** The upstream's address and key replaced wherever they appear in a body's bytes. */
  private scrubbed(pieces: Buffer[]): Buffer[] {
    const base = Buffer.from(this.upstream.baseUrl);
    const key = Buffer.from(this.upstream.apiKey);
    return pieces.map((piece) =>
      replaceBytes(replaceBytes(piece, base, Buffer.alloc(0)), key, Buffer.from(REDACTED)),
    );
  }

  private keptHeaders(headers: Record<string, unknown>): Record<string, string> {
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (!KEPT_HEADER.test(lower) || value === undefined) continue;
      const text = Array.isArray(value) ? value.join(", ") : String(value);
      kept[lower] = lower === "x-goog-upload-url" ? this.relativeUploadUrl(text) : text;
    }
    return kept;
  }

  private relativeUploadUrl(value: string): string {
    try {
      const url = new URL(value);
      const { path: pathname, query } = this.strippedTarget(url);
      const search = new URLSearchParams(query).toString();
      return pathname + (search ? `?${search}` : "");
    } catch {
      return value;
    }
  }

  private write(
    ownerId: string,
    call: RecordedCall,
    status: number,
    headers: Record<string, unknown>,
    body: Buffer[],
    timing: RecordedExchange["responseTiming"],
    requestBody: Pick<RecordedExchange, "requestBodyEncoding" | "requestBody">,
  ): void {
    const folder = ownerFolder(ownerId);
    const file = `${this.started}-${process.pid}.jsonl`;
    const group = `genstudio:${folder}/${file}`;
    const index = this.counters.get(folder) ?? 0;
    this.counters.set(folder, index + 1);
    const { path: pathname, query } = this.strippedTarget(call.url);
    const scrubbed = this.scrubbed(body);
    const requestHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(call.headers))
      if (KEPT_HEADER.test(name.toLowerCase())) requestHeaders[name.toLowerCase()] = value;
    const exchange: RecordedExchange & Record<string, unknown> = {
      id: `${group}#${index}`,
      group,
      source: { repo: "genstudio", commit: "", path: `${folder}/${file}`, index },
      operation: operationOf(
        call.method,
        pathname.replace(/^\/(?:upload\/|download\/)?v1[a-z0-9]*\//, ""),
        {
          upload: pathname.startsWith("/upload/"),
          sessionCommand: "upload_id" in query,
        },
      ),
      method: call.method,
      path: pathname,
      query,
      requestHeaders,
      ...requestBody,
      status,
      responseHeaders: this.keptHeaders(headers),
      responseBody: Buffer.concat(scrubbed).toString("utf8"),
      cassetteVersion: CASSETTE_VERSION,
      responseTiming: timing && {
        headersMs: timing.headersMs,
        chunks: timing.chunks.map(([at], position) => [at, scrubbed[position]?.byteLength ?? 0]),
      },
    };
    const line = JSON.stringify(exchange);
    if (line.includes(this.upstream.apiKey)) {
      logger.warn("recording skipped an exchange that would have held the upstream key");
      return;
    }
    const target = path.join(this.dir, folder, file);
    this.writing = this.writing
      .then(async () => {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.appendFile(target, line + "\n");
      })
      .catch((error: unknown) =>
        logger.warn("recording an exchange failed", (error as Error).message),
      );
  }

  /** Resolves when every exchange recorded so far is on disk (tests). */
  flushed(): Promise<void> {
    return this.writing;
  }
}

/** `haystack` with every `needle` replaced. */
function replaceBytes(haystack: Buffer, needle: Buffer, replacement: Buffer): Buffer {
  if (needle.length === 0) return haystack;
  let at = haystack.indexOf(needle);
  if (at < 0) return haystack;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(haystack.subarray(from, at), replacement);
    from = at + needle.length;
    at = haystack.indexOf(needle, from);
  }
  parts.push(haystack.subarray(from));
  return Buffer.concat(parts);
}
