/**
 * Client of the resumable upload protocol (api-notes §5) for the browser and for Node: start,
 * chunks with `upload` / `upload, finalize` and offsets, `query` after a dropped connection to
 * learn how many bytes the session holds, and `cancel`. Progress counts real bytes sent: with
 * XMLHttpRequest each chunk reports its upload progress; elsewhere progress moves per chunk.
 * Safe in the browser.
 */
import { ApiError, parseErrorBody } from "../api-error";
import type { File } from "../types";
import { UPLOAD_CHUNK_GRANULARITY } from "../upload-chunks";

/** Where uploads start (same origin in the browser). */
export const UPLOAD_START_PATH = "/upload/v1beta/files";

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}

export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  body: Blob | string | null;
  signal: AbortSignal;
  /** Bytes of this request's body sent so far (transports that can tell). */
  onBodyProgress?(loadedBytes: number): void;
}

export interface TransportResponse {
  status: number;
  header(name: string): string | null;
  text: string;
}

/** Sends one POST. Rejects with UploadConnectionError when the connection fails, AbortError on abort. */
export type UploadTransport = (request: TransportRequest) => Promise<TransportResponse>;

/** The connection failed before an answer arrived (dropped, refused, timed out). */
export class UploadConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UploadConnectionError";
  }
}

function abortError(): DOMException {
  return new DOMException("The upload was cancelled.", "AbortError");
}

/** True for the error an aborted upload rejects with. */
export function isUploadAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/** A transport over XMLHttpRequest: the only browser API that reports request-body progress. */
export function xhrTransport(): UploadTransport {
  return (request) =>
    new Promise<TransportResponse>((resolve, reject) => {
      if (request.signal.aborted) {
        reject(abortError());
        return;
      }
      const xhr = new XMLHttpRequest();
      xhr.open("POST", request.url);
      for (const [name, value] of Object.entries(request.headers))
        xhr.setRequestHeader(name, value);
      const onAbort = () => xhr.abort();
      request.signal.addEventListener("abort", onAbort, { once: true });
      const done = () => request.signal.removeEventListener("abort", onAbort);
      if (request.onBodyProgress) {
        const report = request.onBodyProgress;
        xhr.upload.onprogress = (event) => report(event.loaded);
      }
      xhr.onload = () => {
        done();
        resolve({
          status: xhr.status,
          header: (name) => xhr.getResponseHeader(name),
          text: xhr.responseText,
        });
      };
      xhr.onerror = () => {
        done();
        reject(
          new UploadConnectionError(
            "The connection to the studio server dropped during the upload.",
          ),
        );
      };
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => {
        done();
        reject(abortError());
      };
      xhr.send(request.body);
    });
}

/** A transport over fetch (Node, tests): progress is reported when a chunk is acknowledged. */
export function fetchTransport(fetchImplementation: typeof fetch = fetch): UploadTransport {
  return async (request) => {
    let response: Response;
    try {
      response = await fetchImplementation(request.url, {
        method: "POST",
        headers: request.headers,
        body: request.body,
        signal: request.signal,
        credentials: "same-origin",
      });
    } catch (error) {
      if (request.signal.aborted) throw abortError();
      throw new UploadConnectionError(
        `The connection failed during the upload: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (request.signal.aborted) throw abortError();
      throw new UploadConnectionError(
        `The answer was cut off: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return { status: response.status, header: (name) => response.headers.get(name), text };
  };
}

function defaultTransport(): UploadTransport {
  return typeof XMLHttpRequest === "function" ? xhrTransport() : fetchTransport();
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
 * Uploads `blob` with the resumable protocol and resolves with the created File (state
 * PROCESSING or ACTIVE). A dropped connection or a busy/overloaded server is retried with
 * backoff: the session is asked how many bytes it holds (`query`) and the upload continues
 * from there. Aborting `signal` stops sending, cancels the session (best effort) and rejects
 * with an AbortError. Service refusals reject with ApiError.
 */
export async function uploadResumable(options: ResumableUploadOptions): Promise<File> {
  const transport = options.transport ?? defaultTransport();
  const startUrl = options.startUrl ?? UPLOAD_START_PATH;
  const chunkBytes = Math.max(1, options.chunkBytes ?? UPLOAD_CHUNK_GRANULARITY);
  const maxAttempts = options.maxAttempts ?? 6;
  const retryDelay = options.retryDelayMs ?? defaultRetryDelay;
  const sleep = options.sleep ?? defaultSleep;
  const signal = options.signal ?? new AbortController().signal;
  const totalBytes = options.blob.size;
  const extraHeaders = options.headers ?? {};
  let sessionUrl = options.sessionUrl ?? null;
  let offset = 0;
  let lastReported = -1;

  const report = (sentBytes: number) => {
    const bounded = Math.min(totalBytes, Math.max(0, sentBytes));
    if (bounded === lastReported) return;
    lastReported = bounded;
    options.onProgress?.({ sentBytes: bounded, totalBytes });
  };

  const command = (name: string, more: Record<string, string> = {}): Record<string, string> => ({
    ...extraHeaders,
    "X-Goog-Upload-Protocol": "resumable",
    "X-Goog-Upload-Command": name,
    ...more,
  });

  async function start(): Promise<string> {
    const body: { file: { displayName?: string; mimeType: string } } = {
      file: { mimeType: options.mimeType },
    };
    if (options.displayName) body.file.displayName = options.displayName;
    const response = await transport({
      url: startUrl,
      headers: command("start", {
        "X-Goog-Upload-Header-Content-Length": String(totalBytes),
        "X-Goog-Upload-Header-Content-Type": options.mimeType,
        "Content-Type": "application/json",
      }),
      body: JSON.stringify(body),
      signal,
    });
    if (response.status !== 200) throw errorOf(response);
    const url = uploadHeader(response, "URL");
    if (!url)
      throw new ApiError(
        502,
        "UNKNOWN",
        "The server started the upload but sent no X-Goog-Upload-URL.",
      );
    return sessionUrlFor(url, startUrl);
  }

  /** Asks the session how far it got; a finished session answers its file. */
  async function query(url: string): Promise<{ received: number; file?: File }> {
    const response = await transport({ url, headers: command("query"), body: null, signal });
    if (response.status !== 200) throw errorOf(response);
    const status = uploadHeader(response, "Status");
    if (status === "final") return { received: totalBytes, file: parseFile(response) };
    const received = Number(uploadHeader(response, "Size-Received"));
    if (!Number.isSafeInteger(received) || received < 0 || received > totalBytes) {
      throw new ApiError(
        502,
        "UNKNOWN",
        `The upload session reported an impossible received size (${uploadHeader(response, "Size-Received")}).`,
      );
    }
    return { received };
  }

  /** Sends the chunk at `offset`; answers the file when it was the last one. */
  async function sendChunk(url: string): Promise<File | null> {
    const end = Math.min(totalBytes, offset + chunkBytes);
    const last = end === totalBytes;
    const chunk = options.blob.slice(offset, end);
    const at = offset;
    const response = await transport({
      url,
      headers: command(last ? "upload, finalize" : "upload", {
        "X-Goog-Upload-Offset": String(at),
        "Content-Type": "application/octet-stream",
      }),
      body: chunk,
      signal,
      onBodyProgress: (loaded) => report(at + loaded),
    });
    if (response.status !== 200) throw errorOf(response);
    if (last || uploadHeader(response, "Status") === "final") {
      offset = totalBytes;
      report(totalBytes);
      return parseFile(response);
    }
    const received = Number(uploadHeader(response, "Size-Received"));
    offset =
      Number.isSafeInteger(received) && received > at && received <= totalBytes ? received : end;
    report(offset);
    return null;
  }

  /**
   * Best effort: the server may still be reading the chunk the abort cut off (the session
   * answers 409 while busy), so a few quick retries; an abandoned session expires on its own.
   */
  async function cancelSession(): Promise<void> {
    if (!sessionUrl) return;
    const quiet = new AbortController().signal;
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        const response = await transport({
          url: sessionUrl,
          headers: command("cancel"),
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

  let failures = 0;
  let needsQuery = sessionUrl !== null;
  report(0);
  try {
    for (;;) {
      if (signal.aborted) throw abortError();
      try {
        if (sessionUrl === null) {
          sessionUrl = await start();
          options.onSession?.(sessionUrl);
        }
        if (needsQuery) {
          const state = await query(sessionUrl);
          if (state.file) {
            report(totalBytes);
            return state.file;
          }
          if (state.received > offset) failures = 0;
          offset = state.received;
          report(offset);
          needsQuery = false;
        }
        const before = offset;
        let file: File | null;
        try {
          file = await sendChunk(sessionUrl);
        } catch (error) {
          // A refused offset after a retry means an earlier attempt did arrive (a transport may
          // resend a request whose connection dropped): ask, and continue from the session's count.
          if (!(error instanceof ApiError) || error.httpStatus !== 400) throw error;
          const state = await query(sessionUrl);
          if (state.file) return state.file;
          if (state.received === before) throw error;
          offset = state.received;
          report(offset);
          failures++;
          continue;
        }
        if (file) return file;
        if (offset > before) failures = 0;
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
            `The upload stopped after ${failures} failed attempts (${reason}). ${offset} of ${totalBytes} bytes are on the server; it can be resumed.`,
            sessionUrl,
            offset,
            error,
          );
        }
        // Whatever was in flight may have partly arrived: ask before sending again.
        needsQuery = sessionUrl !== null;
        await sleep(retryDelay(failures), signal);
      }
    }
  } catch (error) {
    if (isUploadAbort(error)) await cancelSession();
    throw error;
  }
}
