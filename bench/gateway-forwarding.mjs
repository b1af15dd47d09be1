#!/usr/bin/env node
// What forwarding a field the gateway does not know costs (bench/README.md, "Gateway:
// forwarding what it does not model"): one gateway from the production build in front of a
// stand-in upstream inside this script (it accepts any body and answers at once, as the real
// service would a field it knows), and countTokens sent through it with two bodies of the same
// size alternately, side by side in one run: one of known fields only, one with an unknown
// part field, generation-config knob and top-level field. Small bodies are read on the
// request's thread, large ones (--large-kib) in the body reader worker.
// Usage: node bench/gateway-forwarding.mjs [--samples 400] [--large-samples 60] [--large-kib 2048]
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";
import { percentile } from "./hostile-support.mjs";
import { readOptions } from "./gateway-support.mjs";

const options = readOptions({ samples: 400, "large-samples": 60, "large-kib": 2048 });

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
if (!fs.existsSync(path.join(root, ".next/BUILD_ID"))) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}

const GATEWAY_KEY = "bench-forward-key-0123456789";
let upstreamBodies = 0;
const upstream = http.createServer((incoming, answer) => {
  incoming.on("data", () => {});
  incoming.on("end", () => {
    upstreamBodies++;
    answer.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
    answer.end('{\n  "totalTokens": 7\n}\n');
  });
});
await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-forwarding-"));
const gateway = await startOwnServer({
  dataDir,
  cwd: root,
  env: {
    GEMINI_API_KEY: "bench-forward-upstream-key-0123",
    GEMINI_BASE_URL: upstreamUrl,
    STUDIO_API_KEYS: `bench:${GATEWAY_KEY}`,
    STUDIO_RATE_LIMIT_PER_MINUTE: "0",
  },
});
const dispatcher = new Agent({ keepAliveTimeout: 30_000 });

/** A countTokens body of `textCharacters` of text; with `unknown`, three fields the gateway does not know. */
function body(textCharacters, unknown) {
  const part = unknown ? `, "futurePartField": {"level": 3}` : `, "thought": false`;
  const knob = unknown ? `"futureKnob": "on"` : `"temperature": 1`;
  const top = unknown ? `"futureTopLevel": [1, 2]` : `"model": "models/gemini-2.5-flash"`;
  return `{"generateContentRequest": {${top}, "contents": [{"role": "user", "parts": [{"text": "${"x".repeat(textCharacters)}"${part}}]}], "generationConfig": {${knob}}}}`;
}

async function send(text) {
  const started = performance.now();
  const response = await request(`${gateway.baseUrl}/v1beta/models/bench-model:countTokens`, {
    method: "POST",
    headers: { "x-goog-api-key": GATEWAY_KEY, "content-type": "application/json" },
    body: text,
    dispatcher,
  });
  const answer = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${answer}`);
  return performance.now() - started;
}

/** Alternates the two bodies `samples` times (after a warm-up) and answers both timings. */
async function sideBySide(known, unknown, samples) {
  const times = { known: [], unknown: [] };
  for (let index = 0; index < 20; index++) await send(index % 2 ? known : unknown);
  for (let index = 0; index < samples; index++) {
    const order = index % 2 ? ["known", "unknown"] : ["unknown", "known"];
    for (const name of order) times[name].push(await send(name === "known" ? known : unknown));
  }
  return times;
}

const ms = (value) => `${value.toFixed(2)} ms`;
function row(label, times, bytes) {
  const p50 = (name) =>
    percentile(
      [...times[name]].sort((a, b) => a - b),
      0.5,
    );
  const p99 = (name) =>
    percentile(
      [...times[name]].sort((a, b) => a - b),
      0.99,
    );
  console.log(
    `| ${label}, known fields only (${bytes} B) | ${ms(p50("known"))} | ${ms(p99("known"))} |`,
  );
  console.log(
    `| ${label}, three unknown fields (${bytes} B) | ${ms(p50("unknown"))} | ${ms(p99("unknown"))} |`,
  );
  console.log(
    `| **difference** | **${ms(p50("unknown") - p50("known"))}** | ${ms(p99("unknown") - p99("known"))} |`,
  );
}

try {
  const smallKnown = body(200, false);
  const smallUnknown = body(200 + smallKnown.length - body(200, true).length, true);
  const largeCharacters = options["large-kib"] * 1024;
  const largeKnown = body(largeCharacters, false);
  const largeUnknown = body(
    largeCharacters + largeKnown.length - body(largeCharacters, true).length,
    true,
  );
  if (smallKnown.length !== smallUnknown.length || largeKnown.length !== largeUnknown.length)
    throw new Error("the two bodies differ in size");
  console.log(
    `load average before: ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")}`,
  );
  console.log("| countTokens through the gateway | p50 | p99 |\n|---|---|---|");
  row("small body", await sideBySide(smallKnown, smallUnknown, options.samples), smallKnown.length);
  row(
    "large body",
    await sideBySide(largeKnown, largeUnknown, options["large-samples"]),
    largeKnown.length,
  );
  console.log(`upstream received ${upstreamBodies} bodies`);
  console.log(
    `load average after: ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")}`,
  );
} finally {
  await gateway.stop("SIGTERM");
  upstream.close();
  await dispatcher.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
