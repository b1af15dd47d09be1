// The hostile operations of bench/hostile-input.mjs, sent from a worker thread of the bench: the
// process that times the light requests does nothing else, so a light answer is timed when it
// arrives, not when that process is done reading a hostile answer of tens of megabytes (32 MB
// of speech read in the same event loop held it for tens of milliseconds at a time). Told
// `{ id, operation, baseUrl, timeoutMs }`, it answers `{ id, status }` or `{ id, error }`.
import { parentPort, workerData } from "node:worker_threads";
import { Agent, request } from "undici";
import { OPERATIONS } from "./hostile-operations.mjs";

const agent = new Agent({ connections: 64, headersTimeout: 0, bodyTimeout: 0 });
const headers = { "x-goog-api-key": workerData.key, "content-type": "application/json" };

/** Answers this long are read and dropped (their text is never looked at). */
const KEPT_BYTES = 1024 * 1024;

async function textOf(response) {
  const kept = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size <= KEPT_BYTES) kept.push(chunk);
  }
  return size <= KEPT_BYTES ? Buffer.concat(kept).toString("utf8") : "";
}

/** Any request to the server, for the operations: its status, headers and text. */
const requestOn =
  (baseUrl, signal) =>
  async (method, path, body, extraHeaders = {}) => {
    const response = await request(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, ...extraHeaders },
      body,
      dispatcher: agent,
      signal,
    });
    return { status: response.statusCode, headers: response.headers, text: await textOf(response) };
  };

parentPort.on("message", async ({ id, operation, baseUrl, timeoutMs }) => {
  try {
    const status = await OPERATIONS[operation](requestOn(baseUrl, AbortSignal.timeout(timeoutMs)));
    parentPort.postMessage({ id, status });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: { name: error.name, code: error.code, message: error.message },
    });
  }
});
