#!/usr/bin/env node
// Hostile request text against the local engine (issue 14 item 2): for each shape and size,
// one generateContent whose prompt is that text (or function parts and declarations of that
// size), while a light countTokens runs every 50 ms. Reports the hostile request's time (it
// should grow linearly with the size), the light requests' latency meanwhile against their
// latency when the server is idle (the wait a hostile request imposes on others), and the
// longest the server's main thread went without serving its event loop meanwhile, in wall and
// in CPU time (bench/event-loop-probe.cjs, preloaded into the server this bench starts; the
// CPU figure hardly depends on what else the machine runs). Needs a production build.
//
//   node bench/hostile-input.mjs [--sizes 1,2,4,8,16] [--shapes all|name,...] [--timeout-s 120]
//                                [--app-dir DIR] [--compare-app-dir DIR]
//
// With --compare-app-dir, a second build (another worktree's, after `npm run build` there) is
// started beside the first and every row is measured on each in turn, so a comparison shares
// the machine's load of the moment.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1,2,4,8,16" },
    shapes: { type: "string", default: "all" },
    "timeout-s": { type: "string", default: "120" },
    "app-dir": { type: "string" },
    "compare-app-dir": { type: "string" },
  },
});
const MiB = 2 ** 20;
const SIZES = values.sizes.split(",").map(Number);
const TIMEOUT_MS = Number(values["timeout-s"]) * 1000;
const KEY = "hostile-input-bench-key-0123456789";

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
const shapes =
  values.shapes === "all"
    ? Object.keys(SHAPES)
    : values.shapes.split(",").filter((name) => name in SHAPES);

const probeScript = fileURLToPath(new URL("./event-loop-probe.cjs", import.meta.url));
const appDirs = [values["app-dir"] ?? process.cwd(), values["compare-app-dir"]]
  .filter(Boolean)
  .map((dir) => path.resolve(dir));

/** One build under test: its own server, data and event-loop probe. */
async function startTarget(cwd) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-hostile-bench-"));
  const probeFile = path.join(dataDir, "event-loop-probe.log");
  const server = await startOwnServer({
    dataDir,
    cwd,
    env: {
      STUDIO_API_KEYS: `bench:${KEY}`,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${probeScript}`.trim(),
      GENSTUDIO_EVENT_LOOP_PROBE: probeFile,
    },
  });
  return { build: path.basename(cwd), server, probeFile, idleP50: NaN };
}

/** The longest event-loop gaps (wall ms, CPU ms) a probe noted between two moments (epoch ms). */
function longestGaps(probeFile, from, to) {
  let wall = 0;
  let cpu = 0;
  for (const line of fs.readFileSync(probeFile, "utf8").split("\n")) {
    const [at, lineWall, lineCpu] = line.split(" ").map(Number);
    // A line covers the 100 ms before it (longer when the loop was held).
    if (!(at >= from && at <= to + 200)) continue;
    wall = Math.max(wall, lineWall);
    cpu = Math.max(cpu, lineCpu);
  }
  return { wall: round(wall), cpu: round(cpu) };
}
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

/** Longest a light request is waited for; past it, it counts as this long (and as timed out). */
const LIGHT_TIMEOUT_MS = 30_000;

/** Light countTokens every 50 ms (start to start) until stopped: their latencies in ms. */
function lightRequests(target) {
  const latencies = [];
  const inFlight = new Set();
  const timer = setInterval(() => {
    const begun = performance.now();
    const done = call(target, "countTokens", LIGHT, AbortSignal.timeout(LIGHT_TIMEOUT_MS)).then(
      ({ status }) => {
        if (status !== 200) throw new Error(`light request answered ${status}`);
        latencies.push(performance.now() - begun);
        inFlight.delete(done);
      },
      () => {
        latencies.push(LIGHT_TIMEOUT_MS);
        inFlight.delete(done);
      },
    );
    inFlight.add(done);
  }, 50);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
    return latencies;
  };
}

function percentile(sorted, fraction) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

const round = (value) => Math.round(value * 10) / 10;

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
  const idleBegun = Date.now();
  const stopIdle = lightRequests(target);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = (await stopIdle()).sort((left, right) => left - right);
  target.idleP50 = percentile(idle, 0.5);
  const idleGaps = longestGaps(target.probeFile, idleBegun, Date.now());
  console.log(
    `${target.build}: idle light countTokens: n=${idle.length} p50 ${round(target.idleP50)} ms, p99 ${round(percentile(idle, 0.99))} ms; longest event-loop gap ${idleGaps.wall} ms wall, ${idleGaps.cpu} ms CPU`,
  );
}

/** One hostile request on a target while light requests run: the row of the table. */
async function measure(target, shape, body) {
  const stopLight = lightRequests(target);
  const begunAt = Date.now();
  const begun = performance.now();
  let status;
  try {
    ({ status } = await call(target, "generateContent", body, AbortSignal.timeout(TIMEOUT_MS)));
  } catch (error) {
    status =
      error.name === "TimeoutError" || error.code === "UND_ERR_ABORTED" ? "timeout" : error.message;
  }
  const hostileMs = performance.now() - begun;
  const light = (await stopLight()).sort((left, right) => left - right);
  const gaps = longestGaps(target.probeFile, begunAt, Date.now());
  return {
    build: target.build,
    shape,
    MiB: round(Buffer.byteLength(body) / MiB),
    status,
    hostileSeconds: round(hostileMs / 1000),
    light: light.length,
    lightP50: round(percentile(light, 0.5)),
    lightP99: round(percentile(light, 0.99)),
    lightMax: round(light.at(-1) ?? NaN),
    waitP99: round(percentile(light, 0.99) - target.idleP50),
    gapWall: gaps.wall,
    gapCpu: gaps.cpu,
  };
}

function printTable(rows, compared) {
  const build = (row) => (compared ? ` ${row.build} |` : "");
  console.log(
    `\n|${compared ? " build |" : ""} shape | MiB | status | hostile s | light n | light p50 ms | light p99 ms | max ms | p99 wait ms | longest block, wall ms | longest block, CPU ms |`,
  );
  console.log(`|${compared ? "---|" : ""}---|---|---|---|---|---|---|---|---|---|---|`);
  for (const row of rows)
    console.log(
      `|${build(row)} ${row.shape} | ${row.MiB} | ${row.status} | ${row.hostileSeconds} | ${row.light} | ${row.lightP50} | ${row.lightP99} | ${row.lightMax} | ${row.waitP99} | ${row.gapWall} | ${row.gapCpu} |`,
    );
}

const targets = [];
try {
  for (const dir of appDirs) targets.push(await startTarget(dir));
  for (const target of targets) await warmUp(target);
  const rows = [];
  for (const shape of shapes) {
    for (const size of SIZES) {
      const body = JSON.stringify({
        ...SHAPES[shape](size * MiB),
        generationConfig: { maxOutputTokens: 32, thinkingConfig: { thinkingBudget: 0 } },
      });
      for (const target of targets) {
        const row = await measure(target, shape, body);
        rows.push(row);
        console.log(JSON.stringify(row));
        // Let the server settle (a timed-out request may still be working).
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }
  printTable(rows, targets.length > 1);
  if (targets.length > 1)
    for (const target of targets) {
      const own = rows.filter((row) => row.build === target.build);
      const under = own.filter((row) => row.waitP99 < 50).length;
      const worst = Math.max(...own.map((row) => row.waitP99));
      console.log(
        `${target.build}: p99 wait under 50 ms in ${under} of ${own.length} rows; worst ${worst} ms`,
      );
    }
  console.log(
    `\nmachine: ${os.cpus().length} cpus, load ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")}`,
  );
} finally {
  await agent.close();
  for (const target of targets) await target.server.stop();
}
