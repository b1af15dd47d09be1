#!/usr/bin/env node
/**
 * The first answer after a start against warm ones, over the API (no browser): the built studio
 * is started (local engine, fresh DATA_DIR, free port), left `--settle` seconds (its warm-up
 * runs then), and asked `--runs` + 1 streamed answers of gemini-2.5-flash one after another;
 * each is timed from the request to its first SSE chunk. Then, after the same `--settle` seconds
 * of quiet, one more: a warm server's answer after the idle time the first one had.
 *
 *   npm run build && node bench/first-answer.mjs [--runs 9] [--settle 10] [--app-dir ../other]
 */
import { startServer } from "./chat-bench-support.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const runs = Number(option("runs", "9"));
const settleSeconds = Number(option("settle", "10"));
const server = await startServer({ appDir: option("app-dir") });

/** Milliseconds from the request to the first chunk of a streamed answer to `text`. */
async function firstChunk(text) {
  const start = performance.now();
  const response = await fetch(
    `${server.baseUrl}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
    {
      method: "POST",
      // The key a server without configured credentials accepts (development defaults).
      headers: { "content-type": "application/json", "x-goog-api-key": "genstudio-dev-key" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text }] }] }),
    },
  );
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const reader = response.body.getReader();
  await reader.read();
  const elapsed = performance.now() - start;
  while (!(await reader.read()).done);
  return elapsed;
}

try {
  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  const first = await firstChunk("Hello! What can you tell me about harbours?");
  const warm = [];
  for (let run = 0; run < runs; run++)
    warm.push(await firstChunk(`And about lighthouses, number ${run}?`));
  const median = [...warm].sort((left, right) => left - right)[Math.floor(warm.length / 2)];
  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  const afterIdle = await firstChunk("Hello again! What about canals?");
  console.log(
    `first chunk of the first answer ${settleSeconds} s after start: ${first.toFixed(0)} ms; warm median ${median.toFixed(0)} ms (${warm.map((value) => value.toFixed(0)).join(", ")}); ratio ${(first / median).toFixed(2)} (goal ≤ 1.5); a warm answer after ${settleSeconds} s of quiet: ${afterIdle.toFixed(0)} ms`,
  );
} finally {
  server.stop();
}
