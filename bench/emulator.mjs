#!/usr/bin/env node
// What the emulator costs (README, "Testing your client against Genstudio"):
//  1. over HTTP, one production server, side by side round after round: a countTokens and a
//     generateContent answered by the engine, by the engine with 10,000 scenarios of the caller
//     registered that do not match, and by a scenario (the same request, another key each);
//  2. in-process (lib/engine/emulator/scenario-registry.ts through jiti): the time to find the
//     scenario of a request among 10,000 registered, for the last one matching and for none;
//  3. a replayed stream (a cassette whose 21 pieces were recorded 50 ms apart): how far each
//     piece's arrival is from its recorded offset.
// Run `npm run build` first.   node bench/emulator.mjs [--rounds 200] [--only matching|replay]
// (`--only` runs one part alone; part 2 needs no server.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createJiti } from "jiti";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "200" }, only: { type: "string" } },
});
const ROUNDS = Number(values.rounds);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const KEYS = {
  engine: "emulator-bench-engine-0123456789",
  crowded: "emulator-bench-crowded-012345678",
  scripted: "emulator-bench-scripted-01234567",
};
const MODEL = "gemini-2.5-flash";
const ASK = {
  contents: [{ role: "user", parts: [{ text: "Tell me about the moon and the stars." }] }],
};
const CONFIG = { maxOutputTokens: 64, seed: 7, thinkingConfig: { thinkingBudget: 0 } };

const quantile = (list, share) => {
  const sorted = [...list].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};

async function call(server, key, urlPath, body, headers = {}) {
  const response = await fetch(`${server.baseUrl}${urlPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": key, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${urlPath}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return text;
}

async function timed(server, key, operation, body) {
  const started = performance.now();
  await call(server, key, `/v1beta/models/${MODEL}:${operation}`, body);
  return performance.now() - started;
}

/** Part 1: the HTTP cost of a scripted answer beside the engine's. */
async function httpSideBySide(server) {
  // 10,000 scenarios of the crowded caller, none of which matches the bench's requests.
  const crowd = Array.from({ length: 10_000 }, (_, index) => ({
    match: { textContains: `order #${index} is late` },
    respond: { text: `Order ${index} ships today.` },
  }));
  await call(server, KEYS.crowded, "/emulator/scenarios", crowd);
  await call(server, KEYS.scripted, "/emulator/scenarios", [
    { match: { operation: "countTokens" }, respond: { body: { totalTokens: 11 } } },
    { match: { operation: "generateContent" }, respond: { text: "The moon is bright tonight." } },
  ]);
  const measures = {
    countTokens: (key) => timed(server, key, "countTokens", ASK),
    "generateContent (64 tokens at most)": (key) =>
      timed(server, key, "generateContent", { ...ASK, generationConfig: CONFIG }),
  };
  const callers = {
    engine: KEYS.engine,
    "engine, 10,000 scenarios not matching": KEYS.crowded,
    scripted: KEYS.scripted,
  };
  for (let index = 0; index < 10; index++)
    for (const measure of Object.values(measures))
      for (const key of Object.values(callers)) await measure(key);
  const times = {};
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, measure] of Object.entries(measures)) {
      const order = Object.entries(callers);
      for (const [label, key] of round % 2 ? order.reverse() : order)
        ((times[name] ??= {})[label] ??= []).push(await measure(key));
    }
  console.log(
    `\n| request | ${Object.keys(callers)
      .map((label) => `${label}: p50 / p90 ms`)
      .join(" | ")} |`,
  );
  console.log(
    `|---|${Object.keys(callers)
      .map(() => "---|")
      .join("")}`,
  );
  for (const [name, byCaller] of Object.entries(times))
    console.log(
      `| ${name} | ${Object.keys(callers)
        .map(
          (label) =>
            `${quantile(byCaller[label], 0.5).toFixed(2)} / ${quantile(byCaller[label], 0.9).toFixed(2)}`,
        )
        .join(" | ")} |`,
    );
}

/** Part 2: finding the scenario among 10,000, in-process. */
async function matchingInProcess() {
  const jiti = createJiti(import.meta.url, {
    alias: { "@": root, "server-only": path.join(root, "lib/testing/server-only-stub.ts") },
  });
  const { ScenarioRegistry } = await jiti.import(
    path.join(root, "lib/engine/emulator/scenario-registry.ts"),
  );
  const { readRequestFacts } = await jiti.import(
    path.join(root, "lib/engine/emulator/request-facts.ts"),
  );
  const kinds = {
    textContains: (index) => ({ textContains: `order #${index} is late` }),
    "operation + model + textContains": (index) => ({
      operation: "generateContent",
      model: MODEL,
      textContains: `order #${index} is late`,
    }),
    "textMatches (linear-time patterns)": (index) => ({
      textMatches: `order #${index} is (late|lost)`,
    }),
  };
  console.log(
    "\n| 10,000 scenarios, each matching with | last one matches: p50 / p99 ms | none matches: p50 / p99 ms |",
  );
  console.log("|---|---|---|");
  for (const [label, match] of Object.entries(kinds)) {
    const registry = new ScenarioRegistry();
    registry.register(
      "key:bench",
      Array.from({ length: 10_000 }, (_, index) => ({
        match: match(index),
        respond: { text: "ok" },
      })),
    );
    const facts = (text) =>
      readRequestFacts({
        operation: "generateContent",
        model: `models/${MODEL}`,
        request: { contents: [{ role: "user", parts: [{ text }] }] },
      });
    const sample = (text) => {
      const list = [];
      for (let index = 0; index < 300; index++) {
        const started = performance.now();
        registry.take("key:bench", facts(text));
        list.push(performance.now() - started);
      }
      return `${quantile(list, 0.5).toFixed(3)} / ${quantile(list, 0.99).toFixed(3)}`;
    };
    console.log(
      `| ${label} | ${sample("Where is my order #9999 is late?")} | ${sample("Where is my parcel?")} |`,
    );
  }
}

/** Part 3: a replayed stream's pieces against their recorded offsets. */
async function replayPace(server) {
  const events = Array.from(
    { length: 21 },
    (_, index) =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: `piece ${index} ` }] } }] })}\r\n\r\n`,
  );
  const exchange = {
    method: "POST",
    path: `/v1beta/models/${MODEL}:streamGenerateContent`,
    query: { alt: "sse" },
    requestBodyEncoding: "json",
    requestBody: ASK,
    status: 200,
    responseHeaders: { "content-type": "text/event-stream" },
    responseBody: events.join(""),
    cassetteVersion: 1,
    responseTiming: {
      headersMs: 20,
      chunks: events.map((event, index) => [20 + index * 50, Buffer.byteLength(event)]),
    },
  };
  await call(
    server,
    KEYS.scripted,
    "/emulator/cassettes?name=pace&match=exact&pace=recorded",
    JSON.stringify(exchange),
    {
      "content-type": "application/x-ndjson",
    },
  );
  const deltas = [];
  const firstDelays = [];
  for (let round = 0; round < 10; round++) {
    const sent = performance.now();
    const response = await fetch(
      `${server.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
      {
        method: "POST",
        headers: { "content-type": "application/json", "x-goog-api-key": KEYS.scripted },
        body: JSON.stringify(ASK),
      },
    );
    // The pace is each event's offset from the first, against the recording's: how long the
    // request took to reach the studio and be matched is the first event's delay, shown apart.
    let first;
    let seen = 0;
    let text = "";
    const decoder = new TextDecoder();
    const offsets = exchange.responseTiming.chunks.map(([at]) => at);
    for await (const bytes of response.body) {
      const at = performance.now() - sent;
      text += decoder.decode(bytes, { stream: true });
      const complete = text.split("\r\n\r\n").length - 1;
      for (; seen < complete; seen++) {
        if (seen === 0) {
          first = at;
          firstDelays.push(at - offsets[0]);
        } else deltas.push(Math.abs(at - first - (offsets[seen] - offsets[0])));
      }
    }
    if (seen !== events.length) throw new Error(`replay sent ${seen} of ${events.length} events`);
  }
  console.log(
    `\nreplayed stream, 21 events 50 ms apart, 10 runs: |offset from the first event − recorded one| p50 ${quantile(deltas, 0.5).toFixed(2)} ms, p99 ${quantile(deltas, 0.99).toFixed(2)} ms, max ${Math.max(...deltas).toFixed(2)} ms; the first event ${quantile(firstDelays, 0.5).toFixed(2)} ms (p50) after its recorded ${exchange.responseTiming.chunks[0][0]} ms from the request`,
  );
}

if (values.only === "matching") {
  await matchingInProcess();
  process.exit(0);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-emulator-bench-"));
const server = await startOwnServer({
  dataDir,
  cwd: root,
  env: {
    STUDIO_API_KEYS: Object.entries(KEYS)
      .map(([name, key]) => `${name}:${key}`)
      .join(","),
    STUDIO_RATE_LIMIT_PER_MINUTE: "0",
  },
});
try {
  if (values.only !== "replay") {
    await httpSideBySide(server);
    await matchingInProcess();
  }
  await replayPace(server);
  console.log(
    `\n${ROUNDS} rounds; machine: ${os.cpus().length} cpus, load ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")}`,
  );
} finally {
  await server.stop();
}
