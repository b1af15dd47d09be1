#!/usr/bin/env node
// Streaming generation benchmark (bench/README.md, "Streaming generation").
//
//   node bench/generate-stream.mjs                     # starts its own server from the build
//   node bench/generate-stream.mjs --url http://127.0.0.1:3000 [--key KEY]
//
// Without --url it starts `node scripts/start.mjs` (run `npm run build` first) on a free
// loopback port with a fresh DATA_DIR and the development defaults, so the first request is
// truly cold (tokenizer load and model training). It then measures, over POST
// :streamGenerateContent?alt=sse with a small undici-free fetch reader:
//   - time to the first byte and to the first `data:` event (now the same: no comment comes first), cold and warm;
//   - streamed tokens per second of long answers (maxOutputTokens 4000, frequencyPenalty -1.99
//     keeps the model from ending early), from the first to the last event;
//   - tokens per second over many ordinary short answers back to back (request overhead included).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index < 0 ? fallback : (args[index + 1] ?? fallback);
};
const MODEL = option("model", "gemini-2.5-flash");
const KEY = option("key", process.env.GENSTUDIO_API_KEY ?? "genstudio-dev-key");
const WARM_RUNS = Number(option("runs", "20"));

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-"));
  const environment = {
    ...process.env,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    DATA_DIR: dataDir,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  for (const name of ["GEMINI_API_KEY", "GOOGLE_API_KEY", "STUDIO_API_KEYS", "STUDIO_ACCESS_CODE"])
    delete environment[name];
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: environment,
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const response = await fetch(`${url}/api/session`);
      if (response.status < 500)
        return {
          url,
          stop: () => (child.kill("SIGTERM"), rmSync(dataDir, { recursive: true, force: true })),
        };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGTERM");
  throw new Error("the server did not start (is there a build? run `npm run build`)");
}

/** One streamed request, timed: first byte, first data event, last event, and the final usage. */
async function stream(url, generationConfig, text = "Tell me about the moon and the stars.") {
  const started = performance.now();
  const response = await fetch(`${url}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": KEY },
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text }] }], generationConfig }),
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let firstByte;
  let firstEvent;
  let lastEvent;
  let events = 0;
  let buffer = "";
  let last;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const now = performance.now() - started;
    firstByte ??= now;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\r\n\r\n")) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 4);
      if (!event.startsWith("data: ")) continue;
      firstEvent ??= now;
      lastEvent = now;
      events += 1;
      last = JSON.parse(event.slice(6));
    }
  }
  const tokens = last?.usageMetadata?.candidatesTokenCount ?? 0;
  return { firstByte, firstEvent, lastEvent, events, tokens, total: performance.now() - started };
}

const percentile = (values, share) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};
const ms = (value) => `${value.toFixed(1)} ms`;

const given = option("url", undefined);
const server = given ? { url: given, stop: () => undefined } : await startServer();
try {
  const quiet = { thinkingConfig: { thinkingBudget: 0 } };
  const cold = await stream(server.url, { ...quiet, seed: 1 });
  // Baseline: the same server's countTokens round trip (routing, auth, tokenizer worker).
  const countStarted = performance.now();
  for (let run = 0; run < 10; run++) {
    await fetch(`${server.url}/v1beta/models/${MODEL}:countTokens`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": KEY },
      body: JSON.stringify({
        contents: [{ parts: [{ text: "Tell me about the moon and the stars." }] }],
      }),
    }).then((response) => response.text());
  }
  const countLatency = (performance.now() - countStarted) / 10;
  console.log(
    `cold first request: first byte ${ms(cold.firstByte)}, first event ${ms(cold.firstEvent)}, whole answer ${ms(cold.total)} (${cold.tokens} tokens)`,
  );

  const warm = [];
  for (let run = 0; run < WARM_RUNS; run++)
    warm.push(await stream(server.url, { ...quiet, seed: run + 2 }));
  const firstEvents = warm.map((result) => result.firstEvent);
  console.log(
    `warm first event over ${WARM_RUNS} requests: median ${ms(percentile(firstEvents, 0.5))}, p90 ${ms(percentile(firstEvents, 0.9))}, max ${ms(Math.max(...firstEvents))}`,
  );
  console.log(`baseline countTokens round trip: ${ms(countLatency)}`);
  const shortTokens = warm.reduce((sum, result) => sum + result.tokens, 0);
  const shortTime = warm.reduce((sum, result) => sum + result.total, 0) / 1000;
  console.log(
    `short answers back to back: ${shortTokens} tokens in ${shortTime.toFixed(2)} s = ${(shortTokens / shortTime).toFixed(0)} tokens/s (request overhead included)`,
  );

  // The model may still end on its own; keep the first three answers that ran long.
  const long = [];
  for (let seed = 0; seed < 12 && long.length < 3; seed++) {
    const result = await stream(
      server.url,
      { ...quiet, seed, maxOutputTokens: 4000, frequencyPenalty: -1.99 },
      "Write a very long story about a lighthouse keeper.",
    );
    if (result.tokens >= 1000) long.push(result);
  }
  for (const result of long) {
    const rate = result.tokens / ((result.lastEvent - result.firstEvent) / 1000);
    console.log(
      `long answer: ${result.tokens} tokens in ${result.events} events, first event ${ms(result.firstEvent)}, streamed at ${rate.toFixed(0)} tokens/s`,
    );
  }
  const thinking = await stream(server.url, { seed: 3 }, "Why is the sky blue?");
  console.log(
    `with thinking (dynamic budget): first event ${ms(thinking.firstEvent)}, whole answer ${ms(thinking.total)}`,
  );
} finally {
  server.stop();
}
