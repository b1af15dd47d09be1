/**
 * How the upload client sends one POST: over XMLHttpRequest in the browser (the only API that
 * reports request-body progress), over fetch elsewhere. A failed connection and an abort are
 * told apart so the client knows what to retry. Safe in the browser.
 */

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

export function abortError(): DOMException {
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

export function defaultTransport(): UploadTransport {
  return typeof XMLHttpRequest === "function" ? xhrTransport() : fetchTransport();
}
