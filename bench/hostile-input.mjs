#!/usr/bin/env node
// Hostile request text against the local engine: for each shape and size,
// one generateContent whose prompt is that text (or function parts and declarations of that
// size), while a light countTokens runs every 50 ms. Reports the hostile request's time (it
// should grow linearly with the size), the light requests' latency meanwhile against their
// latency when the server is idle (the wait a hostile request imposes on others), and the
// longest the server's main thread went without serving its event loop meanwhile, in wall and
// in CPU time (bench/event-loop-probe.cjs, preloaded into the server this bench starts; the
// CPU figure hardly depends on what else the machine runs). Needs a production build.
//
//   node bench/hostile-input.mjs [--sizes 1,2,4,8,16] [--shapes all|none|name,...]
//                                [--operations all|none|name,...] [--timeout-s 120]
//                                (an operation is picked by the start of its name: "speech: 3")
//                                [--app-dir DIR] [--compare-app-dir DIR]
//
// Besides the sized shapes, one request per entry of bench/hostile-operations.mjs (speech,
// pictures, batches, wide schemas, junk PDFs, URLs of dots, refused prompts), each alone
// while the light requests run, sent from a worker thread of this process (so reading a
// hostile answer of tens of megabytes never delays the timing of a light one); its row reports
// the status that ended it.
//
// With --compare-app-dir, a second build (another worktree's, after `npm run build` there) is
// started beside the first and every row is measured on each in turn, so a comparison shares
// the machine's load of the moment.
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
import { OPERATIONS } from "./hostile-operations.mjs";

const KEY = "hostile-input-bench-key-0123456789";
const ENV = { STUDIO_API_KEYS: `bench:${KEY}` };

/** Each shape: text of about `bytes` bytes that once cost super-linear time somewhere. */
const TEXT_SHAPES = {
  // "repeat after me: a" + spaces + "b": the skill regex backtracked over the run.
  "whitespace runs": (bytes) => `repeat after me: a${" ".repeat(bytes - 20)}b`,
  // promptHints re-tested the whole prefix for every capitalised word.
  "capitalised words": (bytes) => "Ab x ".repeat(Math.floor(bytes / 5)),
  // One line, one word: scanners that look for the end of a word or line.
  "long lines": (bytes) => "abcdefghij".repeat(Math.floor(bytes / 10)),
  // Deep brackets in text.
  "deep brackets": (bytes) =>
    "([{".repeat(Math.floor(bytes / 6)) + "}])".repeat(Math.floor(bytes / 6)),
  // The skill phrases with whitespace runs between their words, many times over.
  "skill phrases": (bytes) =>
    `${"decode this base64   string:   say exactly   ".repeat(Math.floor(bytes / 45))}QUJDRA==`,
};

/** `count` entries of a wide object: short strings, numbers and small nested objects. */
function wideObject(count) {
  const object = {};
  for (let index = 0; index < count; index++) {
    const key = `field_${index}`;
    if (index % 3 === 0) object[key] = `value ${index} of the call`;
    else if (index % 3 === 1) object[key] = index * 1.5;
    else object[key] = { city: "Paris", days: [index, index + 1] };
  }
  return object;
}

const LOOKUP = {
  name: "lookup",
  description: "Looks a thing up.",
  parameters: { type: "OBJECT", properties: { query: { type: "STRING" } } },
};

/**
 * Each shape: the request fields (contents, tools) of a request of about `bytes` bytes. The
 * text shapes put their text in one user part; "many parts" sends a user turn of a great many
 * short parts and "many turns" a history of a great many short turns (work per JSON node and
 * per Content); the function shapes fill what the engine writes
 * out as the service's function notation for counting (function-text.ts) and flattens into
 * its context: a model turn's function call with a wide object of arguments answered by a
 * function response of one long string, and a declaration with a long description and many
 * properties.
 */
const SHAPES = {
  ...Object.fromEntries(
    Object.entries(TEXT_SHAPES).map(([name, text]) => [
      name,
      (bytes) => ({ contents: [{ role: "user", parts: [{ text: text(bytes) }] }] }),
    ]),
  ),
  // Many small parts: the work per JSON node (parse, canonical read, rules, counting).
  "many parts": (bytes) => ({
    contents: [
      {
        role: "user",
        parts: Array.from({ length: Math.floor(bytes / 17) }, (_, index) => ({
          text: `w${index % 1000} `,
        })),
      },
    ],
  }),
  // A history of many short turns: every turn is a Content to check, count and cite from.
  "many turns": (bytes) => ({
    contents: Array.from({ length: Math.floor(bytes / 56) }, (_, index) => ({
      role: index % 2 ? "model" : "user",
      parts: [{ text: `turn ${index % 997} of the talk ${index % 13}` }],
    })).concat([{ role: "user", parts: [{ text: "What did we say?" }] }]),
  }),
  "function calls": (bytes) => ({
    contents: [
      { role: "user", parts: [{ text: "Look it up." }] },
      // About 40 bytes per entry as JSON; half of the size here, half in the response.
      {
        role: "model",
        parts: [{ functionCall: { name: "lookup", args: wideObject(Math.floor(bytes / 80)) } }],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "lookup",
              response: { result: "found it ".repeat(Math.floor(bytes / 18)) },
            },
          },
        ],
      },
    ],
    tools: [{ functionDeclarations: [LOOKUP] }],
  }),
  "function declarations": (bytes) => ({
    contents: [{ role: "user", parts: [{ text: "Which tool fits?" }] }],
    tools: [
      {
        functionDeclarations: [
          LOOKUP,
          {
            name: "describe",
            description: "Describes the thing in words. ".repeat(Math.floor(bytes / 60)),
            parameters: {
              type: "OBJECT",
              properties: Object.fromEntries(
                Array.from({ length: Math.floor(bytes / 140) }, (_, index) => [
                  `option_${index}`,
                  { type: "STRING", description: `Option number ${index}.` },
                ]),
              ),
            },
          },
        ],
      },
    ],
  }),
};
const {
  sizes: SIZES,
  shapes,
  timeoutMs: TIMEOUT_MS,
  appDirs,
  operations: operationsOption,
} = benchOptions(Object.keys(SHAPES));
const operations =
  operationsOption === "all"
    ? Object.keys(OPERATIONS)
    : // Each given name picks the operations it begins (their names hold commas themselves).
      Object.keys(OPERATIONS).filter((name) =>
        operationsOption.split(",").some((given) => given && name.startsWith(given)),
      );

const agent = new Agent({ connections: 64, headersTimeout: 0, bodyTimeout: 0 });
const headers = { "x-goog-api-key": KEY, "content-type": "application/json" };

async function call(target, operation, body, signal) {
  const response = await request(
    `${target.server.baseUrl}/v1beta/models/gemini-2.5-flash:${operation}`,
    {
      method: "POST",
      headers,
      body,
      dispatcher: agent,
      signal,
    },
  );
  const text = await response.body.text();
  return { status: response.statusCode, text };
}

const LIGHT = JSON.stringify({ contents: [{ parts: [{ text: "Still here?" }] }] });
/**
 * The hostile operations run in a worker thread of this process (hostile-operation-worker.mjs),
 * started once before the first row: this thread only times the light requests.
 */
const operationWorker = new Worker(new URL("./hostile-operation-worker.mjs", import.meta.url), {
  workerData: { key: KEY },
});
const pendingOperations = new Map();
let nextOperationId = 1;
operationWorker.on("message", ({ id, status, error }) => {
  const pending = pendingOperations.get(id);
  pendingOperations.delete(id);
  if (error) pending.reject(Object.assign(new Error(error.message), error));
  else pending.resolve(status);
});

/** One operation on a target, sent from the worker: the status that ended it. */
function runOperation(target, operation) {
  const id = nextOperationId++;
  return new Promise((resolve, reject) => {
    pendingOperations.set(id, { resolve, reject });
    operationWorker.postMessage({
      id,
      operation,
      baseUrl: target.server.baseUrl,
      timeoutMs: TIMEOUT_MS,
    });
  });
}

/** The light request: a countTokens of one sentence, answering its status. */
const lightCall = (target) => async (signal) =>
  (await call(target, "countTokens", LIGHT, signal)).status;

/**
 * Warm up (tokenizer and model loaded, connections open, and the bulk lanes' workers started,
 * so the first shape does not measure their start), then the light requests' latency idle.
 */
async function warmUp(target) {
  for (let index = 0; index < 5; index++) await call(target, "countTokens", LIGHT);
  await call(
    target,
    "countTokens",
    JSON.stringify({ contents: [{ parts: [{ text: "warm up ".repeat(MiB / 8 + 1) }] }] }),
  );
  await call(
    target,
    "generateContent",
    JSON.stringify({
      contents: [{ parts: [{ text: "Hello" }] }],
      generationConfig: { maxOutputTokens: 8 },
    }),
  );
  await idleLatency(target, lightCall(target));
}

const targets = [];
try {
  for (const dir of appDirs) targets.push({ dir, ...(await startProbedServer(dir, ENV)) });
  for (const target of targets) await warmUp(target);
  const rows = [];
  for (const shape of shapes) {
    for (const size of SIZES) {
      const body = JSON.stringify({
        ...SHAPES[shape](size * MiB),
        generationConfig: { maxOutputTokens: 32, thinkingConfig: { thinkingBudget: 0 } },
      });
      for (const target of targets) {
        const labels = { shape, MiB: round(Buffer.byteLength(body) / MiB) };
        const hostile = async () =>
          (await call(target, "generateContent", body, AbortSignal.timeout(TIMEOUT_MS))).status;
        const row = await measureRow(target, labels, hostile, lightCall(target));
        rows.push(row);
        console.log(JSON.stringify(row));
        // Let the server settle (a timed-out request may still be working).
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }
  for (const operation of operations) {
    for (const target of targets) {
      const labels = { shape: operation, MiB: "-" };
      const hostile = () => runOperation(target, operation);
      const row = await measureRow(target, labels, hostile, lightCall(target));
      // A request that made the server exit is reported so; a fresh server takes its place.
      if (!target.server.alive()) {
        row.status = `exited (${row.status})`;
        await target.server.stop("SIGKILL");
        Object.assign(target, await startProbedServer(target.dir, ENV));
        await warmUp(target);
      }
      rows.push(row);
      console.log(JSON.stringify(row));
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  printTable(rows, targets.length > 1);
} finally {
  await agent.close();
  await operationWorker.terminate();
  for (const target of targets) await target.server.stop();
}
