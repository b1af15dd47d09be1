#!/usr/bin/env node
// Batch mode beside interactive traffic, for bench/README.md ("Batch mode"). Needs a
// production build (`npm run build`).
//
//   node bench/batch.mjs [--requests 1000] [--rate 10] [--seconds 30] [--max-tokens 64]
//
// One local-engine server of its own (rate limit off). The same open-loop interactive load
// (generateContent at --rate per second, each request sent on schedule whatever the others
// do, so a slow answer cannot hide the ones behind it) runs without a batch for --seconds
// (half before the batch, half after it, so a machine busy with other work weighs on both
// sides alike), and from the creation of a batch of --requests inline requests until the
// batch has ended. It prints the interactive latency percentiles of both, side by side, and
// how long the batch took.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHistogram } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "1000" },
    rate: { type: "string", default: "10" },
    seconds: { type: "string", default: "30" },
    "max-tokens": { type: "string", default: "64" },
  },
});
const BATCH_REQUESTS = Number(values.requests);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const MAX_TOKENS = Number(values["max-tokens"]);
const KEY = "genstudio-dev-key";
const MODEL = "gemini-2.5-flash";
const PROMPTS = [
  "What should I cook tonight with rice and beans?",
  "Explain how tides work in two paragraphs.",
  "Give me three ideas for a rainy weekend.",
  "How does a refrigerator keep food cold?",
  "Write a short note thanking a colleague.",
];

function request(text) {
  return {
    contents: [{ role: "user", parts: [{ text }] }],
    generationConfig: { maxOutputTokens: MAX_TOKENS, thinkingConfig: { thinkingBudget: 0 } },
  };
}

async function call(baseUrl, pathname, body) {
  const response = await fetch(`${baseUrl}/v1beta/${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Open-loop interactive load: one request every 1/RATE s until `until()` says stop; latency of each into `histogram`. */
async function interactive(baseUrl, until, histogram = createHistogram()) {
  const pending = [];
  let failures = 0;
  const start = performance.now();
  let total = 0;
  for (let index = 0; !until(); index++) {
    total += 1;
    const due = start + (index * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    pending.push(
      call(baseUrl, `models/${MODEL}:generateContent`, request(PROMPTS[index % PROMPTS.length]))
        .then(() => histogram.record(Math.max(1, Math.round((performance.now() - sent) * 1000))))
        .catch(() => (failures += 1)),
    );
  }
  await Promise.all(pending);
  const ms = (value) => Math.round(value / 100) / 10;
  return {
    requests: total,
    failures,
    p50: ms(histogram.percentile(50)),
    p90: ms(histogram.percentile(90)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
  };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-batch-"));
const server = await startOwnServer({
  dataDir,
  env: { STUDIO_RATE_LIMIT_PER_MINUTE: "0", STUDIO_MAX_STREAMS_PER_KEY: "0" },
});
try {
  // Warm up: tokenizer and model loaded, code paths compiled.
  for (let index = 0; index < 20; index++)
    await call(server.baseUrl, `models/${MODEL}:generateContent`, request(PROMPTS[index % 5]));

  const withoutBatch = createHistogram();
  const before = performance.now() + (SECONDS * 1000) / 2;
  const aloneBefore = await interactive(
    server.baseUrl,
    () => performance.now() >= before,
    withoutBatch,
  );

  const batchStart = performance.now();
  const created = await call(server.baseUrl, `models/${MODEL}:batchGenerateContent`, {
    batch: {
      displayName: "bench",
      inputConfig: {
        requests: {
          requests: Array.from({ length: BATCH_REQUESTS }, (_, index) => ({
            request: request(`${PROMPTS[index % PROMPTS.length]} (${index})`),
            metadata: { key: `r${index}` },
          })),
        },
      },
    },
  });
  let final = created;
  let batchSeconds = 0;
  const watching = (async () => {
    while (!final.done) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      final = await call(server.baseUrl, created.name);
    }
    batchSeconds = Math.round((performance.now() - batchStart) / 100) / 10;
  })();
  const during = await interactive(server.baseUrl, () => final.done === true);
  await watching;
  const stats = final.metadata.batchStats;
  const after = performance.now() + (SECONDS * 1000) / 2;
  const aloneAfter = await interactive(
    server.baseUrl,
    () => performance.now() >= after,
    withoutBatch,
  );
  const alone = {
    ...aloneAfter,
    requests: aloneBefore.requests + aloneAfter.requests,
    failures: aloneBefore.failures + aloneAfter.failures,
  };

  const result = {
    machine: { cpus: os.cpus().length, load: os.loadavg().map((value) => value.toFixed(1)) },
    settings: {
      batchRequests: BATCH_REQUESTS,
      rate: RATE,
      aloneSeconds: SECONDS,
      maxTokens: MAX_TOKENS,
    },
    interactiveAlone: alone,
    interactiveDuringBatch: during,
    batch: { state: final.metadata.state, stats, seconds: batchSeconds },
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(
    [
      "",
      "| interactive generateContent | requests | p50 ms | p90 ms | p99 ms | max ms | failed |",
      "|---|---|---|---|---|---|---|",
      `| alone | ${alone.requests} | ${alone.p50} | ${alone.p90} | ${alone.p99} | ${alone.max} | ${alone.failures} |`,
      `| while the ${BATCH_REQUESTS}-request batch runs | ${during.requests} | ${during.p50} | ${during.p90} | ${during.p99} | ${during.max} | ${during.failures} |`,
      "",
      `Batch: ${final.metadata.state} (${stats.successfulRequestCount ?? 0} of ${stats.requestCount} succeeded), ended ${batchSeconds} s after its creation.`,
    ].join("\n"),
  );
} finally {
  await server.stop("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
