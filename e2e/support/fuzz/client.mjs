/**
 * The fuzzer's HTTP client: undici with raw request targets (so `%2e%2e`, `%ZZ` and encoded
 * slashes reach the server exactly as generated, which fetch's URL parser would normalise),
 * any method, and one deadline per request covering headers and the whole body.
 */
import zlib from "node:zlib";
import { Pool } from "undici";

/** The body as text, undoing a Content-Encoding the server chose (the fuzzer sends Accept-Encoding now and then). */
function decode(bytes, encoding) {
  try {
    if (encoding === "gzip" || encoding === "x-gzip")
      return zlib.gunzipSync(bytes).toString("utf8");
    if (encoding === "br") return zlib.brotliDecompressSync(bytes).toString("utf8");
    if (encoding === "deflate") return zlib.inflateSync(bytes).toString("utf8");
  } catch {
    return `<undecodable ${encoding} body of ${bytes.length} bytes>`;
  }
  return bytes.toString("utf8");
}

/**
 * @typedef {{ method: string, path: string, headers?: Record<string, string>, body?: string | Uint8Array, label: string }} FuzzRequest
 * @typedef {{ status: number, headers: Record<string, string>, text: string, ms: number }} FuzzAnswer
 * @typedef {{ failure: "timeout" | "connection" | "client", message: string, ms: number }} FuzzFailure
 */

/**
 * A reset before the answer's headers: the pool may have reused a connection the server had
 * just closed as idle (keep-alive timeout), a race a busy client cannot rule out. Such a
 * request is sent once more on a fresh connection; a server that resets that one too fails
 * the run.
 */
function isStaleConnection(answer) {
  return (
    "failure" in answer &&
    answer.failure === "connection" &&
    !answer.afterHeaders &&
    /^(ECONNRESET|UND_ERR_SOCKET)/.test(answer.message)
  );
}

/** A client bound to one server. */
export function createFuzzClient(baseUrl, { connections = 8 } = {}) {
  const pool = new Pool(baseUrl, { connections, pipelining: 1, keepAliveTimeout: 4_000 });

  /** @returns {Promise<FuzzAnswer | (FuzzFailure & { afterHeaders: boolean })>} */
  const sendOnce = async (request, { timeoutMs = 15_000, freshConnection = false } = {}) => {
    const started = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    let afterHeaders = false;
    try {
      const answer = await pool.request({
        method: request.method,
        path: request.path,
        headers: request.headers ?? {},
        body: request.body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        reset: freshConnection,
      });
      afterHeaders = true;
      const bytes = Buffer.from(await answer.body.arrayBuffer());
      const headers = {};
      for (const [name, value] of Object.entries(answer.headers))
        headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
      const text = decode(bytes, headers["content-encoding"]);
      return { status: answer.statusCode, headers, text, ms: performance.now() - started };
    } catch (error) {
      const ms = performance.now() - started;
      const name = error?.name ?? "";
      const code = error?.code ?? "";
      if (
        signal.aborted ||
        name === "TimeoutError" ||
        code === "UND_ERR_HEADERS_TIMEOUT" ||
        code === "UND_ERR_BODY_TIMEOUT"
      ) {
        return {
          failure: "timeout",
          message: `no complete answer within ${timeoutMs} ms`,
          ms,
          afterHeaders,
        };
      }
      // The client refused or tripped over the request itself (nothing reached the server).
      if (
        code === "UND_ERR_INVALID_ARG" ||
        name === "InvalidArgumentError" ||
        code === "ERR_ASSERTION"
      )
        return { failure: "client", message: String(error?.message ?? error), ms, afterHeaders };
      return {
        failure: "connection",
        message: `${code || name}: ${error?.message ?? error}`,
        ms,
        afterHeaders,
      };
    }
  };

  return {
    /**
     * Sends one request and reads the whole answer within `timeoutMs`; `retried` tells that a
     * stale keep-alive connection made it go out twice.
     * @returns {Promise<(FuzzAnswer | FuzzFailure) & { retried?: true }>}
     */
    async send(request, options = {}) {
      const first = await sendOnce(request, options);
      if (!isStaleConnection(first)) return first;
      return { ...(await sendOnce(request, { ...options, freshConnection: true })), retried: true };
    },
    close: () => pool.close(),
    destroy: () => pool.destroy(),
  };
}
