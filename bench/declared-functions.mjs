#!/usr/bin/env node
// What declared functions add to a local answer, side by side in one run: round after round,
// the same ask is sent to one production server (run `npm run build` first) with no tools and
// with 50 declared functions (agent-style JSON Schema: descriptions, required and optional
// parameters, enums, arrays, a nested object), calling mode NONE so both answer in text, on a
// 2.5 model (declarations in the `python` notation) and a 3.x model (the markup): the same 50
// on every request (an agent's tool list, turn after turn: their counts are remembered), and 50
// never seen before on every request (each description names its round). 3 Flash is also sent
// with a thinking budget of 64 in every variant: it thinks by default, longer for an ask with
// tools (the catalog's median: 200 tokens against 75 for a plain ask, as the service does), so
// its default row measures that longer answer as well; the budgeted row holds the thinking equal
// and measures what the declarations themselves cost. Prints the median and p90 of each, and
// the median differences.
//
//   node bench/declared-functions.mjs [--rounds 60] [--functions 50] [--app-dir DIR]
//
// `--profile` instead takes a V8 CPU profile of the server (`--cpu-prof`, a sample every 0.1
// ms) while it answers `--rounds` requests of each model row with no tools, then with the same
// 50 (after 30 of each untimed), and prints where each window's CPU time went by part of the
// request path (cpu-profile-summary.mjs) beside its median answer time.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";
import { profileTable, summarizeProfile } from "./cpu-profile-summary.mjs";
import { startStudio, stopStudio, temporaryFolder } from "./gateway-support.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "60" },
    functions: { type: "string", default: "50" },
    "app-dir": { type: "string" },
    profile: { type: "boolean", default: false },
  },
});
const KEY = "declared-functions-bench-key-0123456789";
const ROUNDS = Number(values.rounds);
const FUNCTIONS = Number(values.functions);
/** Each row: a model, and how its requests think (as callers send them, or a budget held equal). */
const MODELS = {
  "gemini-2.5-flash": (body) => body,
  "gemini-3-flash-preview": (body) => withoutBudget(body),
  "gemini-3-flash-preview, thinking 64": (body) => withBudget(body, 64),
};

/** One agent-style declaration: the shapes frameworks send (pydantic-ai, crewAI, ADK). */
function declaration(index, round = "") {
  return {
    name: `tool_${index}_lookup`,
    description: `Looks up record ${index}${round} in the catalogue and returns its fields.\n\nArgs:\n    query: what to find.`,
    parametersJsonSchema: {
      type: "object",
      additionalProperties: false,
      properties: {
        query: { type: "string", description: "What to look up." },
        limit: { type: "integer", description: "How many results at most." },
        unit: { type: "string", enum: ["metric", "imperial"] },
        tags: { type: "array", items: { type: "string" } },
        filter: {
          type: "object",
          properties: { field: { type: "string" }, value: { type: ["string", "null"] } },
          required: ["field"],
        },
      },
      required: ["query"],
    },
  };
}

const tools = (round) => [
  { functionDeclarations: Array.from({ length: FUNCTIONS }, (_, i) => declaration(i, round)) },
];
const ASK = {
  contents: [{ role: "user", parts: [{ text: "Tell me about the moon and the stars." }] }],
  generationConfig: { maxOutputTokens: 64, seed: 7, thinkingConfig: { thinkingBudget: 0 } },
};
const NO_CALLS = { functionCallingConfig: { mode: "NONE" } };
/** Each variant's body for a round (the warm-up is round -1). */
const VARIANTS = {
  "no tools": () => ASK,
  [`${FUNCTIONS} functions, the same`]: () => ({ ...ASK, tools: tools(""), toolConfig: NO_CALLS }),
  [`${FUNCTIONS} functions, new`]: (round) => ({
    ...ASK,
    tools: tools(` (round ${round})`),
    toolConfig: NO_CALLS,
  }),
};

async function answerTime(server, row, body) {
  const model = row.split(",")[0];
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/v1beta/models/${model}:generateContent`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": KEY },
    body: JSON.stringify(MODELS[row](body)),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${model}: HTTP ${response.status}`);
  return performance.now() - started;
}

/** Gemini 3 thinks at a level rather than by budget 0: the default, as callers send it. */
function withoutBudget(body) {
  const { thinkingConfig: _thinking, ...config } = body.generationConfig;
  return { ...body, generationConfig: config };
}

function withBudget(body, thinkingBudget) {
  return {
    ...body,
    generationConfig: { ...body.generationConfig, thinkingConfig: { thinkingBudget } },
  };
}

const quantile = (list, share) => {
  const sorted = [...list].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};

/** Monotonic microseconds, the clock a CPU profile's timestamps use. */
const microseconds = () => Number(process.hrtime.bigint() / 1000n);

/** Each model row with no tools and with the same 50, in one profiled server. */
async function profile() {
  const folder = temporaryFolder("declared-functions-profile");
  const server = await startStudio(
    "declared-functions",
    { STUDIO_API_KEYS: `bench:${KEY}`, STUDIO_RATE_LIMIT_PER_MINUTE: "0" },
    {
      folder: path.resolve(values["app-dir"] ?? process.cwd()),
      nodeArgs: ["--cpu-prof", "--cpu-prof-interval", "100", "--cpu-prof-dir", folder],
    },
  );
  const windows = [];
  const same = `${FUNCTIONS} functions, the same`;
  for (const model of Object.keys(MODELS)) {
    for (const variant of ["no tools", same]) {
      const body = VARIANTS[variant](-1);
      for (let index = 0; index < 30; index++) await answerTime(server, model, body);
      const from = microseconds();
      const times = [];
      for (let index = 0; index < ROUNDS; index++)
        times.push(await answerTime(server, model, body));
      windows.push({ label: `${model}, ${variant}`, window: [from, microseconds()], times });
    }
  }
  await stopStudio(server);
  const whole = [windows[0].window[0], windows.at(-1).window[1]];
  // The start script and the workers write profiles too: the server's is the busiest.
  const busiest = fs
    .readdirSync(folder)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => JSON.parse(fs.readFileSync(path.join(folder, name), "utf8")))
    .map((cpuProfile) => ({ cpuProfile, busy: summarizeProfile(cpuProfile, whole).busy }))
    .sort((a, b) => b.busy - a.busy)[0];
  console.log(`CPU profile of the server, load ${os.loadavg()[0].toFixed(1)}:`);
  for (const { label, window, times } of windows) {
    console.log(`\n${label}: ${ROUNDS} requests, median ${quantile(times, 0.5).toFixed(2)} ms`);
    console.log(profileTable(busiest.cpuProfile, ROUNDS, window));
  }
}

if (values.profile) {
  await profile();
  process.exit(0);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-declared-functions-"));
const server = await startOwnServer({
  dataDir,
  cwd: path.resolve(values["app-dir"] ?? process.cwd()),
  env: { STUDIO_API_KEYS: `bench:${KEY}`, STUDIO_RATE_LIMIT_PER_MINUTE: "0" },
});
try {
  const times = {};
  // Warm-up: tokenizers, trained models and the JIT, outside the figures.
  for (const model of Object.keys(MODELS))
    for (const body of Object.values(VARIANTS)) await answerTime(server, model, body(-1));
  for (let round = 0; round < ROUNDS; round++) {
    for (const model of Object.keys(MODELS)) {
      for (const [variant, body] of Object.entries(VARIANTS)) {
        const key = `${model}, ${variant}`;
        (times[key] ??= []).push(await answerTime(server, model, body(round)));
      }
    }
  }
  console.log(
    `generateContent, whole answer (ms), ${ROUNDS} rounds, load ${os.loadavg()[0].toFixed(1)}:`,
  );
  for (const [key, list] of Object.entries(times))
    console.log(
      `  ${key.padEnd(58)} median ${quantile(list, 0.5).toFixed(2).padStart(7)}  p90 ${quantile(list, 0.9).toFixed(2).padStart(7)}`,
    );
  for (const model of Object.keys(MODELS)) {
    const [none, same, fresh] = Object.keys(VARIANTS).map((variant) =>
      quantile(times[`${model}, ${variant}`], 0.5),
    );
    console.log(
      `  ${model}: ${FUNCTIONS} functions add ${(same - none).toFixed(2)} ms the same, ${(fresh - none).toFixed(2)} ms new (median)`,
    );
  }
} finally {
  await server.stop("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
