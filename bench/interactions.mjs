#!/usr/bin/env node
// Interactions API benchmark (bench/README.md, "Interactions API"), side by side in one run:
//   1. local engine: time to the first event of an Interactions stream (`POST interactions`,
//      `stream: true`: its `interaction.created`) and of a generateContent stream
//      (`:streamGenerateContent?alt=sse`: its first `data:` event), same model, prompt and
//      length, requests alternated so both see the same machine;
//   2. through a gateway chained to a local engine whose streams are paced (so events are
//      spread in time): when each event of one Interactions stream reaches the client through
//      the gateway, against the same stream read from the upstream directly. A gateway that
//      buffered would deliver them together at the end; event by event, each arrives about when
//      the upstream sent it.
// Starts its own servers from the production build (`npm run build` first).
// Usage: node bench/interactions.mjs [--runs 200] [--paced-runs 5] [--pace 100]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";
import { readOptions } from "./gateway-support.mjs";

const options = readOptions({ runs: 200, "paced-runs": 5, pace: 100 });

const MODEL = "gemini-2.5-flash-lite";
const PROMPT = "Tell me about the moon and the stars.";
const UPSTREAM_KEY = "bench-upstream-key-0123456789";
const GATEWAY_KEY = "bench-gateway-key-0123456789";
const DEVELOPMENT_KEY = "genstudio-dev-key";

const servers = [];
async function start(name, env) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `genstudio-bench-${name}-`));
  const server = await startOwnServer({
    dataDir,
    env: { STUDIO_RATE_LIMIT_PER_MINUTE: "0", ...env },
  });
  servers.push(server);
  return server;
}
async function stopAll() {
  for (const server of servers) {
    await server.stop("SIGTERM");
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

/**
 * One streamed request: the time its first event (a block ending in a blank line) arrived,
 * and the arrival time of every event, from the request's start.
 */
async function streamTimes(url, key, body, separator) {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": key },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const arrivals = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const now = performance.now() - started;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf(separator)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + separator.length);
      if (!block.includes("[DONE]")) arrivals.push(now);
    }
  }
  return arrivals;
}

const interactionBody = {
  model: MODEL,
  input: PROMPT,
  generation_config: { max_output_tokens: 64 },
  stream: true,
};
const generateBody = {
  contents: [{ role: "user", parts: [{ text: PROMPT }] }],
  generationConfig: { maxOutputTokens: 64 },
};

function interactionStream(server, key) {
  return streamTimes(`${server.baseUrl}/v1beta/interactions`, key, interactionBody, "\n\n");
}
function generateStream(server, key) {
  return streamTimes(
    `${server.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    key,
    generateBody,
    "\r\n\r\n",
  );
}

const percentile = (values, share) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};
const ms = (value) => `${value.toFixed(2)} ms`;

try {
  // 1. First event, local engine.
  const local = await start("local", {});
  for (let warm = 0; warm < 5; warm++) {
    await generateStream(local, DEVELOPMENT_KEY);
    await interactionStream(local, DEVELOPMENT_KEY);
  }
  const first = { generate: [], interaction: [] };
  for (let run = 0; run < options.runs; run++) {
    // Alternated, each first half of the time, so neither always follows the other.
    const order = run % 2 ? ["generate", "interaction"] : ["interaction", "generate"];
    for (const kind of order) {
      const times = await (kind === "generate" ? generateStream : interactionStream)(
        local,
        DEVELOPMENT_KEY,
      );
      first[kind].push(times[0]);
    }
  }
  console.log(`Local engine, first event (${options.runs} streams each, alternated):`);
  for (const [label, values] of [
    ["streamGenerateContent?alt=sse", first.generate],
    ["interactions, stream: true", first.interaction],
  ])
    console.log(
      `  ${label.padEnd(32)} p50 ${ms(percentile(values, 0.5))}  p90 ${ms(percentile(values, 0.9))}  p99 ${ms(percentile(values, 0.99))}`,
    );
  console.log(
    `  difference of the p50s: ${ms(percentile(first.interaction, 0.5) - percentile(first.generate, 0.5))}`,
  );

  // 2. Event by event through the gateway.
  const upstream = await start("upstream", {
    STUDIO_API_KEYS: `upstream:${UPSTREAM_KEY}`,
    STUDIO_LOCAL_OUTPUT_TOKENS_PER_SECOND: String(options.pace),
  });
  const gateway = await start("gateway", {
    GEMINI_API_KEY: UPSTREAM_KEY,
    GEMINI_BASE_URL: upstream.baseUrl,
    STUDIO_API_KEYS: `bench:${GATEWAY_KEY}`,
  });
  console.log(
    `\nPaced at ${options.pace} tokens/s upstream, one stream of up to 64 tokens, read directly and through the gateway (${options["paced-runs"]} each):`,
  );
  for (let run = 0; run < options["paced-runs"]; run++) {
    const direct = await interactionStream(upstream, UPSTREAM_KEY);
    const through = await interactionStream(gateway, GATEWAY_KEY);
    const spread = (times) => times.at(-1) - times[0];
    const gaps = (times) => times.slice(1).map((time, index) => time - times[index]);
    console.log(
      `  direct: ${direct.length} events, first ${ms(direct[0])}, last ${ms(direct.at(-1))}, spread ${ms(spread(direct))}, median gap ${ms(percentile(gaps(direct), 0.5))}` +
        `\n  gateway: ${through.length} events, first ${ms(through[0])}, last ${ms(through.at(-1))}, spread ${ms(spread(through))}, median gap ${ms(percentile(gaps(through), 0.5))}`,
    );
  }
} finally {
  await stopAll();
}
