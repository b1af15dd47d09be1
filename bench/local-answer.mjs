#!/usr/bin/env node
// What a local answer costs, two builds side by side (the engine that answers like
// the service must add no measurable time). Starts each build's production server (run `npm
// run build` in each first) and, round after round, sends each the same requests in turn: a
// countTokens, a short generateContent and a streamGenerateContent (gemini-2.5-flash, thinking
// off, 64 tokens at most, a fixed seed), timing the answer and the stream's first event.
//
//   node bench/local-answer.mjs --app-dir DIR --compare-app-dir DIR [--rounds 60]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

const { values } = parseArgs({
  options: {
    "app-dir": { type: "string" },
    "compare-app-dir": { type: "string" },
    rounds: { type: "string", default: "60" },
  },
});
const KEY = "local-answer-bench-key-0123456789";
const ROUNDS = Number(values.rounds);
const appDirs = [values["app-dir"] ?? process.cwd(), values["compare-app-dir"]]
  .filter(Boolean)
  .map((dir) => path.resolve(dir));

const ASK = {
  contents: [{ role: "user", parts: [{ text: "Tell me about the moon and the stars." }] }],
};
const CONFIG = { maxOutputTokens: 64, seed: 7, thinkingConfig: { thinkingBudget: 0 } };

async function post(server, operation, body, query = "") {
  const started = performance.now();
  const response = await fetch(
    `${server.baseUrl}/v1beta/models/gemini-2.5-flash:${operation}${query}`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": KEY },
      body: JSON.stringify(body),
    },
  );
  if (response.status !== 200) throw new Error(`${operation}: HTTP ${response.status}`);
  let firstEvent;
  const decoder = new TextDecoder();
  for await (const bytes of response.body) {
    if (firstEvent === undefined && decoder.decode(bytes, { stream: true }).includes("data: "))
      firstEvent = performance.now() - started;
  }
  return { total: performance.now() - started, firstEvent };
}

const MEASURES = {
  countTokens: (server) => post(server, "countTokens", ASK).then(({ total }) => total),
  "generateContent, whole answer": (server) =>
    post(server, "generateContent", { ...ASK, generationConfig: CONFIG }).then(
      ({ total }) => total,
    ),
  "streamGenerateContent, first event": (server) =>
    post(server, "streamGenerateContent", { ...ASK, generationConfig: CONFIG }, "?alt=sse").then(
      ({ firstEvent }) => firstEvent,
    ),
};

const quantile = (values, share) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};

const targets = [];
try {
  for (const cwd of appDirs) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-local-answer-"));
    const server = await startOwnServer({
      dataDir,
      cwd,
      env: { STUDIO_API_KEYS: `bench:${KEY}`, STUDIO_RATE_LIMIT_PER_MINUTE: "0" },
    });
    targets.push({ build: path.basename(cwd), server, times: {} });
  }
  // Warm up: vocabulary loaded, the model trained, connections open.
  for (const target of targets)
    for (let index = 0; index < 5; index++)
      for (const measure of Object.values(MEASURES)) await measure(target.server);
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, measure] of Object.entries(MEASURES))
      // Which build goes first alternates, so neither always follows the other's work.
      for (const target of round % 2 ? [...targets].reverse() : targets)
        (target.times[name] ??= []).push(await measure(target.server));
  console.log(
    `\n| request | ${targets.map((target) => `${target.build} p50 / p90 ms`).join(" | ")} |`,
  );
  console.log(`|---|${targets.map(() => "---|").join("")}`);
  for (const name of Object.keys(MEASURES))
    console.log(
      `| ${name} | ${targets
        .map((target) => {
          const times = target.times[name];
          return `${quantile(times, 0.5).toFixed(1)} / ${quantile(times, 0.9).toFixed(1)}`;
        })
        .join(" | ")} |`,
    );
  console.log(
    `\n${ROUNDS} rounds; machine: ${os.cpus().length} cpus, load ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")}`,
  );
} finally {
  for (const target of targets) await target.server.stop();
}
