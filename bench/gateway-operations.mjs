// The requests bench/gateway.mjs times, each against any of its servers (the upstream called
// directly, the bare proxy, the gateway): one call of an operation, a timed run at a number of
// concurrent callers, held streams, a large upload.
import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";
import { mib, treeRss } from "./gateway-support.mjs";

export const UPSTREAM_KEY = "bench-upstream-key-0123456789";
export const GATEWAY_KEY = "bench-gateway-key-0123456789";
export const MODEL = "gemini-2.5-flash";

/** The limits a benched gateway runs with: on, and too high for a bench to reach. */
export const BENCH_LIMITS = {
  STUDIO_RATE_LIMIT_PER_MINUTE: "60000000",
  STUDIO_MAX_STREAMS_PER_KEY: "100000",
};

/**
 * The environment of a gateway in front of `upstreamUrl` that callers reach with GATEWAY_KEY,
 * with `limits` (BENCH_LIMITS, or off) and `extra` on top.
 */
export function gatewayEnvironment(upstreamUrl, { limits = BENCH_LIMITS, extra = {} } = {}) {
  return {
    GEMINI_API_KEY: UPSTREAM_KEY,
    GEMINI_BASE_URL: upstreamUrl,
    STUDIO_API_KEYS: `bench:${GATEWAY_KEY}`,
    ...limits,
    ...extra,
  };
}

export const client = new Agent({ connections: null, pipelining: 1, keepAliveTimeout: 30_000 });

/** The key each server takes: the upstream's own directly, the studio's through the gateway. */
export function keyFor(server) {
  return server.name === "gateway" ? GATEWAY_KEY : UPSTREAM_KEY;
}

function headersFor(server) {
  return { "content-type": "application/json", "x-goog-api-key": keyFor(server) };
}

const COUNT_BODY = JSON.stringify({
  contents: [{ parts: [{ text: "The quick brown fox jumps over the lazy dog." }] }],
});

/**
 * The time to the first event of a stream that would go on (the stand-in's held model), after
 * which the client leaves: for an upstream whose streams do not end by themselves.
 */
export async function firstEventThenLeave(server) {
  const started = performance.now();
  const response = await request(
    `${server.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    { method: "POST", headers: headersFor(server), body: COUNT_BODY, dispatcher: client },
  );
  if (response.statusCode !== 200)
    throw new Error(`${server.name} stream ${response.statusCode}: ${await response.body.text()}`);
  let text = "";
  for await (const piece of response.body) {
    text += piece.toString("utf8");
    if (text.includes("data:")) break;
  }
  const first = performance.now() - started;
  response.body.destroy();
  if (!text.includes("data:")) throw new Error(`${server.name} stream had no event`);
  return first;
}

/** One unary call of `method` on the model with `body`, timed; throws unless it answers 200. */
async function unaryOnce(server, method, body) {
  const started = performance.now();
  const response = await request(`${server.baseUrl}/v1beta/models/${MODEL}:${method}`, {
    method: "POST",
    headers: headersFor(server),
    body,
    dispatcher: client,
  });
  const text = await response.body.text();
  if (response.statusCode !== 200)
    throw new Error(`${server.name} ${method} ${response.statusCode}: ${text}`);
  return performance.now() - started;
}

export function countOnce(server) {
  return unaryOnce(server, "countTokens", COUNT_BODY);
}

export function generateOnce(server, seed) {
  return unaryOnce(
    server,
    "generateContent",
    JSON.stringify({
      contents: [{ parts: [{ text: "Tell me about rivers." }] }],
      generationConfig: { seed, maxOutputTokens: 24 },
    }),
  );
}

export async function firstEventOnce(server, seed) {
  const started = performance.now();
  const response = await request(
    `${server.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    {
      method: "POST",
      headers: headersFor(server),
      body: JSON.stringify({
        contents: [{ parts: [{ text: "Tell me about rivers." }] }],
        generationConfig: { seed, maxOutputTokens: 24 },
      }),
      dispatcher: client,
    },
  );
  if (response.statusCode !== 200)
    throw new Error(`${server.name} stream ${response.statusCode}: ${await response.body.text()}`);
  let first = null;
  let text = "";
  for await (const piece of response.body) {
    text += piece.toString("utf8");
    if (first === null && text.includes("data:")) first = performance.now() - started;
  }
  if (first === null) throw new Error(`${server.name} stream had no event`);
  return first;
}

/** Starts a resumable upload of `totalBytes` on `server`; answers the session URL it gave. */
async function startUpload(server, totalBytes, displayName) {
  const start = await request(`${server.baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      ...headersFor(server),
      "x-goog-upload-protocol": "resumable",
      "x-goog-upload-command": "start",
      "x-goog-upload-header-content-length": String(totalBytes),
      "x-goog-upload-header-content-type": "application/octet-stream",
    },
    body: JSON.stringify({ file: { displayName } }),
    dispatcher: client,
  });
  await start.body.dump();
  const sessionUrl = start.headers["x-goog-upload-url"];
  if (start.statusCode !== 200 || !sessionUrl)
    throw new Error(`${server.name} upload start ${start.statusCode}`);
  return sessionUrl;
}

/**
 * Opens a resumable upload of `chunks` pieces of `chunkBytes` on `server`, and answers a
 * function that sends the next chunk (timed). Through the bare proxy the session URL the
 * upstream answered is pointed back at the proxy.
 */
export async function uploadSession(server, chunkBytes, chunks) {
  const answered = await startUpload(server, chunkBytes * chunks, "bench-chunks");
  const session = new URL(answered);
  const url = `${server.baseUrl}${session.pathname}${session.search}`;
  const piece = Buffer.alloc(chunkBytes, 0x61);
  let offset = 0;
  return async function chunkOnce() {
    const last = offset + chunkBytes >= chunkBytes * chunks;
    const started = performance.now();
    const response = await request(url, {
      method: "POST",
      headers: {
        "x-goog-api-key": keyFor(server),
        "x-goog-upload-command": last ? "upload, finalize" : "upload",
        "x-goog-upload-offset": String(offset),
        "content-length": String(chunkBytes),
      },
      body: piece,
      dispatcher: client,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200)
      throw new Error(`${server.name} upload chunk ${response.statusCode}: ${text}`);
    offset += chunkBytes;
    return performance.now() - started;
  };
}

/**
 * Requests per second of `once` with `concurrency` callers, each sending its next request when
 * the previous one is answered, for `seconds`.
 */
export async function throughput(server, concurrency, seconds, once) {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const caller = async () => {
    while (performance.now() < until) {
      await once(server);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, caller));
  return done / ((performance.now() - started) / 1000);
}

/** Delay from the upstream writing each event to the client reading it, through `server`. */
export async function eventDelays(server) {
  const delays = [];
  const response = await request(
    `${server.baseUrl}/v1beta/models/hold-fast:streamGenerateContent?alt=sse`,
    {
      method: "POST",
      headers: headersFor(server),
      body: JSON.stringify({ contents: [{ parts: [{ text: "hold" }] }] }),
      dispatcher: client,
    },
  );
  let buffer = "";
  for await (const piece of response.body) {
    const now = performance.timeOrigin + performance.now();
    buffer += piece.toString("utf8");
    const blocks = buffer.split("\r\n\r\n");
    buffer = blocks.pop();
    for (const block of blocks) {
      const sentAt = /@([\d.]+)/.exec(block)?.[1];
      if (block.startsWith("data:") && sentAt) delays.push(now - Number(sentAt));
    }
  }
  return delays;
}

/**
 * Opens `total` streams through `server` (the upstream sends one event every `holdEveryMs`),
 * noting the server's resident memory after each checkpoint (then calling `onCheckpoint` with
 * the number held), then checks every stream still receives. Each stream sends `prompt`.
 */
export async function holdStreams(
  server,
  total,
  checkpoints,
  holdEveryMs = 2_000,
  onCheckpoint = async () => undefined,
  prompt = "hold",
) {
  const streamAgent = new Agent({ connections: null, pipelining: 1 });
  const held = [];
  const openStream = async () => {
    const response = await request(
      `${server.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
      {
        method: "POST",
        headers: headersFor(server),
        body: JSON.stringify({ contents: [{ parts: [{ text: prompt }] }] }),
        dispatcher: streamAgent,
        headersTimeout: 120_000,
      },
    );
    if (response.statusCode !== 200)
      throw new Error(`hold stream ${response.statusCode}: ${await response.body.text()}`);
    const stream = { events: 0, response };
    let tail = "";
    let firstResolve;
    const first = new Promise((resolve) => (firstResolve = resolve));
    response.body.on("data", (piece) => {
      const text = tail + piece.toString("utf8");
      const blocks = text.split("\r\n\r\n");
      tail = blocks.pop();
      const events = blocks.filter((block) => block.startsWith("data:")).length;
      if (events > 0) {
        stream.events += events;
        firstResolve();
      }
    });
    response.body.on("error", () => undefined);
    await first;
    held.push(stream);
  };
  const baseline = treeRss(server.pid);
  const results = [];
  const failures = { count: 0, first: null };
  let opened = 0;
  for (const target of checkpoints) {
    while (opened < target) {
      const batch = Math.min(100, target - opened);
      // A stream that fails to open is counted, not fatal: the memory is per stream held.
      await Promise.all(
        Array.from({ length: batch }, () =>
          openStream().catch((error) => {
            failures.count++;
            failures.first ??= `stream ${opened + 1} to ${opened + batch}: ${error.message}`;
          }),
        ),
      );
      opened += batch;
    }
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    results.push({ streams: held.length, rss: treeRss(server.pid) });
    await onCheckpoint(held.length);
  }
  const before = held.map((stream) => stream.events);
  // Long enough for every stream's next event.
  await new Promise((resolve) => setTimeout(resolve, holdEveryMs + 2_500));
  const alive = held.filter((stream, index) => stream.events > before[index]).length;
  for (const stream of held) stream.response.body.destroy();
  await streamAgent.close().catch(() => undefined);
  return { baseline, results, alive, held: held.length, failures };
}

export function printHeldStreams({ baseline, results, alive, held, failures }) {
  console.log(`| open streams | gateway RSS | growth over idle | per stream |`);
  console.log(`|---|---|---|---|`);
  console.log(`| 0 | ${mib(baseline)} | | |`);
  for (const result of results) {
    console.log(
      `| ${result.streams} | ${mib(result.rss)} | ${mib(result.rss - baseline)} | ${((result.rss - baseline) / result.streams / 1024).toFixed(1)} KiB |`,
    );
  }
  const first = results[0];
  const last = results.at(-1);
  if (first !== last) {
    console.log(
      `marginal memory per stream (${first.streams} -> ${last.streams}): ${((last.rss - first.rss) / (last.streams - first.streams) / 1024).toFixed(1)} KiB`,
    );
  }
  console.log(`still receiving after ${last.streams} opened: ${alive}/${held}`);
  if (failures.count > 0)
    console.log(`failed to open: ${failures.count} (the first: ${failures.first})`);
}

/** One `upload, finalize` request of `totalBytes`, streamed by the client. */
export async function upload(server, totalBytes) {
  const sessionUrl = await startUpload(server, totalBytes, "bench-upload");
  const piece = Buffer.alloc(1024 * 1024, 0x61);
  async function* bytes() {
    for (let sent = 0; sent < totalBytes; sent += piece.length)
      yield piece.subarray(0, Math.min(piece.length, totalBytes - sent));
  }
  const started = performance.now();
  const response = await request(sessionUrl, {
    method: "POST",
    headers: {
      "x-goog-api-key": keyFor(server),
      "x-goog-upload-command": "upload, finalize",
      "x-goog-upload-offset": "0",
      "content-length": String(totalBytes),
    },
    body: bytes(),
    dispatcher: client,
    headersTimeout: 600_000,
    bodyTimeout: 600_000,
  });
  const text = await response.body.text();
  const seconds = (performance.now() - started) / 1000;
  if (response.statusCode !== 200)
    throw new Error(`${server.name} upload ${response.statusCode}: ${text}`);
  const file = JSON.parse(text).file;
  if (file.sizeBytes !== String(totalBytes))
    throw new Error(`${server.name} stored ${file.sizeBytes} bytes`);
  return { seconds, throughput: totalBytes / 1048576 / seconds };
}
