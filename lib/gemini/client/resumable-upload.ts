/**
 * Client of the resumable upload protocol (api-notes §5) for the browser and for Node: start,
 * chunks with `upload` / `upload, finalize` and offsets, `query` after a dropped connection to
 * learn how many bytes the session holds, and `cancel`. Progress counts real bytes sent: with
 * XMLHttpRequest each chunk reports its upload progress; elsewhere progress moves per chunk
 * (the transports are upload-transport.ts). Safe in the browser.
 */
import { ApiError, parseErrorBody } from "../api-error";
import type { File } from "../types";
import { UPLOAD_CHUNK_GRANULARITY } from "../upload-chunks";
import {
  abortError,
  defaultTransport,
  isUploadAbort,
  UploadConnectionError,
  type TransportResponse,
  type UploadTransport,
} from "./upload-transport";

/** Where uploads start (same origin in the browser). */
export const UPLOAD_START_PATH = "/upload/v1beta/files";

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}

export interface ResumableUploadOptions {
  blob: Blob;
  mimeType: string;
  displayName?: string;
  /** Start URL; relative URLs stay relative (same origin). Default UPLOAD_START_PATH. */
  startUrl?: string;
  /** An open session to resume (its bytes so far are asked with `query`) instead of starting. */
  sessionUrl?: string;
  /** Extra headers on every request (an API key outside the browser). */
  headers?: Record<string, string>;
  chunkBytes?: number;
  transport?: UploadTransport;
  signal?: AbortSignal;
  onProgress?(progress: UploadProgress): void;
  /** Called once the session exists, so a caller can keep its URL and resume later. */
  onSession?(sessionUrl: string): void;
  /** Failed attempts in a row (without new bytes acknowledged) before giving up. Default 6. */
  maxAttempts?: number;
  /** Delay before retry `attempt` (1-based). Default 400 ms doubling to 8 s, with jitter. */
  retryDelayMs?(attempt: number): number;
  sleep?(milliseconds: number, signal: AbortSignal): Promise<void>;
}

/** The upload stopped after its retries; the session may still be resumed with `sessionUrl`. */
export class UploadInterruptedError extends Error {
  constructor(
    message: string,
    readonly sessionUrl: string | null,
    readonly sentBytes: number,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = "UploadInterruptedError";
  }
}

function defaultRetryDelay(attempt: number): number {
  const base = Math.min(8000, 400 * 2 ** (attempt - 1));
  return base / 2 + Math.random() * (base / 2);
}

function defaultSleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function uploadHeader(response: TransportResponse, name: string): string | null {
  return response.header(`X-Goog-Upload-${name}`) ?? response.header(`X-Svc-Upload-${name}`);
}

function errorOf(response: TransportResponse): ApiError {
  try {
    const parsed = parseErrorBody(JSON.parse(response.text));
    if (parsed) return parsed;
  } catch {
    // not JSON
  }
  return new ApiError(
    response.status,
    "UNKNOWN",
    response.text.trim().slice(0, 300) || `HTTP ${response.status}`,
  );
}

/** Worth another attempt: the server is busy, overloaded, or the session is in use. */
function retryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 409 || status === 429;
}

function isAbsolute(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
}

/**
 * Where to send the session's requests: the path and query of the URL the server gave, on the
 * origin the start used (as the official SDK does), so a proxy's idea of our host cannot
 * send the bytes elsewhere.
 */
export function sessionUrlFor(uploadUrl: string, startUrl: string): string {
  const given = new URL(uploadUrl, "http://placeholder.invalid");
  const pathAndQuery = `${given.pathname}${given.search}`;
  return isAbsolute(startUrl) ? new URL(pathAndQuery, startUrl).href : pathAndQuery;
}

function parseFile(response: TransportResponse): File {
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    throw new ApiError(502, "UNKNOWN", "The upload finished but the server's answer was not JSON.");
  }
  const file = (body as { file?: File }).file;
  if (!file?.name)
    throw new ApiError(
      502,
      "UNKNOWN",
      "The upload finished but the server's answer carried no file.",
    );
  return file;
}

/**
 * One upload's session and how far it got: the protocol's steps, each one request (start,
 * query, a chunk, cancel), and the progress reported as bytes are acknowledged.
 */
class UploadSteps {
  /** Bytes the session holds, as far as this client knows. */
  offset = 0;
  sessionUrl: string | null;
  private lastReported = -1;
  private readonly totalBytes: number;
  private readonly startUrl: string;
  private readonly chunkBytes: number;

  constructor(
    private readonly options: ResumableUploadOptions,
    private readonly transport: UploadTransport,
    private readonly signal: AbortSignal,
  ) {
    this.totalBytes = options.blob.size;
    this.startUrl = options.startUrl ?? UPLOAD_START_PATH;
    this.chunkBytes = Math.max(1, options.chunkBytes ?? UPLOAD_CHUNK_GRANULARITY);
    this.sessionUrl = options.sessionUrl ?? null;
  }

  report(sentBytes: number): void {
    const bounded = Math.min(this.totalBytes, Math.max(0, sentBytes));
    if (bounded === this.lastReported) return;
    this.lastReported = bounded;
    this.options.onProgress?.({ sentBytes: bounded, totalBytes: this.totalBytes });
  }

  private command(name: string, more: Record<string, string> = {}): Record<string, string> {
    return {
      ...(this.options.headers ?? {}),
      "X-Goog-Upload-Protocol": "resumable",
      "X-Goog-Upload-Command": name,
      ...more,
    };
  }

  async start(): Promise<string> {
    const { options } = this;
    const body: { file: { displayName?: string; mimeType: string } } = {
      file: { mimeType: options.mimeType },
    };
    if (options.displayName) body.file.displayName = options.displayName;
    const response = await this.transport({
      url: this.startUrl,
      headers: this.command("start", {
        "X-Goog-Upload-Header-Content-Length": String(this.totalBytes),
        "X-Goog-Upload-Header-Content-Type": options.mimeType,
        "Content-Type": "application/json",
      }),
      body: JSON.stringify(body),
      signal: this.signal,
    });
    if (response.status !== 200) throw errorOf(response);
    const url = uploadHeader(response, "URL");
    if (!url)
      throw new ApiError(
        502,
        "UNKNOWN",
        "The server started the upload but sent no X-Goog-Upload-URL.",
      );
    return sessionUrlFor(url, this.startUrl);
  }

  /** Asks the session how far it got; a finished session answers its file. */
  async query(url: string): Promise<{ received: number; file?: File }> {
    const response = await this.transport({
      url,
      headers: this.command("query"),
      body: null,
      signal: this.signal,
    });
    if (response.status !== 200) throw errorOf(response);
    const status = uploadHeader(response, "Status");
    if (status === "final") return { received: this.totalBytes, file: parseFile(response) };
    const received = Number(uploadHeader(response, "Size-Received"));
    if (!Number.isSafeInteger(received) || received < 0 || received > this.totalBytes) {
      throw new ApiError(
        502,
        "UNKNOWN",
        `The upload session reported an impossible received size (${uploadHeader(response, "Size-Received")}).`,
      );
    }
    return { received };
  }

  /** Sends the chunk at `offset`; answers the file when it was the last one. */
  async sendChunk(url: string): Promise<File | null> {
    const { totalBytes } = this;
    const end = Math.min(totalBytes, this.offset + this.chunkBytes);
    const last = end === totalBytes;
    const chunk = this.options.blob.slice(this.offset, end);
    const at = this.offset;
    const response = await this.transport({
      url,
      headers: this.command(last ? "upload, finalize" : "upload", {
        "X-Goog-Upload-Offset": String(at),
        "Content-Type": "application/octet-stream",
      }),
      body: chunk,
      signal: this.signal,
      onBodyProgress: (loaded) => this.report(at + loaded),
    });
    if (response.status !== 200) throw errorOf(response);
    if (last || uploadHeader(response, "Status") === "final") {
      this.offset = totalBytes;
      this.report(totalBytes);
      return parseFile(response);
    }
    const received = Number(uploadHeader(response, "Size-Received"));
    this.offset =
      Number.isSafeInteger(received) && received > at && received <= totalBytes ? received : end;
    this.report(this.offset);
    return null;
  }

  /**
   * Best effort: the server may still be reading the chunk the abort cut off (the session
   * answers 409 while busy), so a few quick retries; an abandoned session expires on its own.
   */
  async cancel(sleep: NonNullable<ResumableUploadOptions["sleep"]>): Promise<void> {
    if (!this.sessionUrl) return;
    const quiet = new AbortController().signal;
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        const response = await this.transport({
          url: this.sessionUrl,
          headers: this.command("cancel"),
          body: null,
          signal: quiet,
        });
        if (!retryable(response.status)) return;
      } catch {
        // connection trouble: try again
      }
      await sleep(Math.min(2000, 150 * 2 ** (attempt - 1)), quiet).catch(() => undefined);
    }
  }
}

/**
 * Uploads `blob` with the resumable protocol and resolves with the created File (state
 * PROCESSING or ACTIVE). A dropped connection or a busy/overloaded server is retried with
 * backoff: the session is asked how many bytes it holds (`query`) and the upload continues
 * from there. Aborting `signal` stops sending, cancels the session (best effort) and rejects
 * with an AbortError. Service refusals reject with ApiError.
 */
export async function uploadResumable(options: ResumableUploadOptions): Promise<File> {
  const transport = options.transport ?? defaultTransport();
  const maxAttempts = options.maxAttempts ?? 6;
  const retryDelay = options.retryDelayMs ?? defaultRetryDelay;
  const sleep = options.sleep ?? defaultSleep;
  const signal = options.signal ?? new AbortController().signal;
  const totalBytes = options.blob.size;
  const upload = new UploadSteps(options, transport, signal);

  let failures = 0;
  let needsQuery = upload.sessionUrl !== null;
  upload.report(0);
  try {
    for (;;) {
      if (signal.aborted) throw abortError();
      try {
        if (upload.sessionUrl === null) {
          upload.sessionUrl = await upload.start();
          options.onSession?.(upload.sessionUrl);
        }
        const sessionUrl = upload.sessionUrl;
        if (needsQuery) {
          const state = await upload.query(sessionUrl);
          if (state.file) {
            upload.report(totalBytes);
            return state.file;
          }
          if (state.received > upload.offset) failures = 0;
          upload.offset = state.received;
          upload.report(upload.offset);
          needsQuery = false;
        }
        const before = upload.offset;
        let file: File | null;
        try {
          file = await upload.sendChunk(sessionUrl);
        } catch (error) {
          // A refused offset after a retry means an earlier attempt did arrive (a transport may
          // resend a request whose connection dropped): ask, and continue from the session's count.
          if (!(error instanceof ApiError) || error.httpStatus !== 400) throw error;
          const state = await upload.query(sessionUrl);
          if (state.file) return state.file;
          if (state.received === before) throw error;
          upload.offset = state.received;
          upload.report(upload.offset);
          failures++;
          continue;
        }
        if (file) return file;
        if (upload.offset > before) failures = 0;
      } catch (error) {
        if (isUploadAbort(error) || signal.aborted) throw abortError();
        const again =
          error instanceof UploadConnectionError ||
          (error instanceof ApiError && retryable(error.httpStatus));
        if (!again) throw error;
        failures++;
        if (failures >= maxAttempts) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new UploadInterruptedError(
            `The upload stopped after ${failures} failed attempts (${reason}). ${upload.offset} of ${totalBytes} bytes are on the server; it can be resumed.`,
            upload.sessionUrl,
            upload.offset,
            error,
          );
        }
        // Whatever was in flight may have partly arrived: ask before sending again.
        needsQuery = upload.sessionUrl !== null;
        await sleep(retryDelay(failures), signal);
      }
    }
  } catch (error) {
    if (isUploadAbort(error)) await upload.cancel(sleep);
    throw error;
  }
}
