#!/usr/bin/env node
// Hostile upstream answers against the gateway: for each shape and
// size, one call whose upstream answer is that text, while a light countTokens through the
// same gateway (answered at once by the upstream) runs every 50 ms. Reports the hostile call's
// time (linear in the size), the light requests' wait, and the longest the gateway's main
// thread went without serving its event loop, in wall and in CPU time (bench/event-loop-probe.cjs).
// The upstream is a stand-in on a worker thread (bench/hostile-upstream-stand-in.mjs). Needs a
// production build.
//
//   node bench/hostile-upstream.mjs [--sizes 1,2,4,8,16] [--shapes all|name,...] [--timeout-s 120]
//                                   [--app-dir DIR] [--compare-app-dir DIR]
// With --compare-app-dir, a second build is measured beside the first, row by row.
import { Worker } from "node:worker_threads";
import { Agent, request } from "undici";
import {
  benchOptions,
  idleLatency,
  measureRow,
  MiB,
  printTable,
  round,
  startProbedServer,
} from "./hostile-support.mjs";

const KEY = "hostile-upstream-bench-key-0123456789";
const UPSTREAM_KEY = "hostile-upstream-server-key-0123456789";

/** A countTokens answer of `bytes`: a great many small objects (parse and scrub per node). */
function manyObjects(bytes) {
  const details = Array.from({ length: Math.floor(bytes / 40) }, (_, index) => ({
    modality: "TEXT",
    tokenCount: index,
  }));
  return JSON.stringify({ totalTokens: 1, promptTokensDetails: details });
}

/** The upstream's own address over and over (what the gateway rewrites in every answer). */
function addresses(bytes, origin) {
  const line = `${origin}/v1beta/files/abc `;
  return JSON.stringify({ totalTokens: 1, note: line.repeat(Math.floor(bytes / line.length)) });
}

function longAnswer(bytes) {
  return JSON.stringify({
    candidates: [
      {
        content: { role: "model", parts: [{ text: "word ".repeat(Math.floor(bytes / 5)) }] },
        finishReason: "STOP",
      },
    ],
    usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 },
  });
}

/**
 * Each shape: the operation the client calls, and the upstream's answer to it (status,
 * content type, body text) for `bytes`.
 */
const SHAPES = {
  "countTokens: many objects": {
    operation: "countTokens",
    answer: (bytes) => ["application/json", manyObjects(bytes)],
  },
  "countTokens: upstream addresses": {
    operation: "countTokens",
    answer: (bytes, origin) => ["application/json", addresses(bytes, origin)],
  },
  "generateContent: long answer": {
    operation: "generateContent",
    answer: (bytes) => ["application/json", longAnswer(bytes)],
  },
  "stream: one long event": {
    operation: "streamGenerateContent",
    answer: (bytes) => ["text/event-stream", `data: ${longAnswer(bytes)}\r\n\r\n`],
  },
  "stream: no blank line": {
    operation: "streamGenerateContent",
    answer: (bytes) => ["text/event-stream", `data: ${longAnswer(bytes)}`],
  },
};
const { sizes: SIZES, shapes, timeoutMs: TIMEOUT_MS, appDirs } = benchOptions(Object.keys(SHAPES));

// The stand-in upstream runs on a worker thread (bench/hostile-upstream-stand-in.mjs).
const standIn = new Worker(new URL("./hostile-upstream-stand-in.mjs", import.meta.url));
const message = () => new Promise((resolve) => standIn.once("message", resolve));
const origin = `http://127.0.0.1:${(await message()).port}`;

/** Sets the stand-in's answer to the next call of the hostile model. */
async function answerNext([contentType, text]) {
  const ready = message();
  standIn.postMessage({ contentType, text });
  await ready;
}

const agent = new Agent({ connections: 64, headersTimeout: 0, bodyTimeout: 0 });
const headers = { "x-goog-api-key": KEY, "content-type": "application/json" };
const PROMPT = JSON.stringify({ contents: [{ parts: [{ text: "Still here?" }] }] });

async function call(target, model, operation, signal) {
  const query = operation === "streamGenerateContent" ? "?alt=sse" : "";
  const response = await request(
    `${target.server.baseUrl}/v1beta/models/${model}:${operation}${query}`,
    { method: "POST", headers, body: PROMPT, dispatcher: agent, signal },
  );
  await response.body.dump({ limit: Number.POSITIVE_INFINITY });
  return response.statusCode;
}
const lightCall = (target) => (signal) => call(target, "light", "countTokens", signal);

// The hostile call is made and its answer of megabytes read on a thread of its own, so that
// reading it never delays the light requests measured on this one.
const hostileCaller = new Worker(
  `const { parentPort } = require("node:worker_threads");
  parentPort.on("message", async ({ url, headers, body, timeoutMs }) => {
    try {
      const response = await fetch(url, {
        method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs),
      });
      for await (const _ of response.body);
      parentPort.postMessage({ status: response.status });
    } catch (error) {
      parentPort.postMessage({ status: error.name === "TimeoutError" ? "timeout" : error.message });
    }
  });`,
  { eval: true },
);

function hostileCall(target, operation) {
  const query = operation === "streamGenerateContent" ? "?alt=sse" : "";
  const url = `${target.server.baseUrl}/v1beta/models/hostile:${operation}${query}`;
  const answered = new Promise((resolve) => hostileCaller.once("message", resolve));
  hostileCaller.postMessage({ url, headers, body: PROMPT, timeoutMs: TIMEOUT_MS });
  return answered.then(({ status }) => status);
}

const targets = [];
try {
  for (const dir of appDirs)
    targets.push(
      await startProbedServer(dir, {
        STUDIO_API_KEYS: `bench:${KEY}`,
        GEMINI_API_KEY: UPSTREAM_KEY,
        GEMINI_BASE_URL: origin,
      }),
    );
  for (const target of targets) {
    for (let index = 0; index < 5; index++) await lightCall(target)();
    await idleLatency(target, lightCall(target));
  }
  const rows = [];
  for (const shape of shapes) {
    for (const size of SIZES) {
      const { operation, answer } = SHAPES[shape];
      const next = answer(size * MiB, origin);
      await answerNext(next);
      const labels = { shape, MiB: round(Buffer.byteLength(next[1]) / MiB) };
      for (const target of targets) {
        const hostile = () => hostileCall(target, operation);
        // Light requests for a second at least: the answers of a few megabytes take less.
        const row = await measureRow(target, labels, hostile, lightCall(target), {
          minimumMs: 1000,
        });
        rows.push(row);
        console.log(JSON.stringify(row));
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }
  printTable(rows, targets.length > 1);
} finally {
  await agent.close();
  for (const target of targets) await target.server.stop();
  await standIn.terminate();
  await hostileCaller.terminate();
}
