#!/usr/bin/env node
// Load figures for bench/README.md ("Hardening"). Needs a production build (`npm run build`).
//
//   node bench/load.mjs [--seconds 10] [--connections 32] [--streams 500,1000,2000,4000]
//                       [--hold-seconds 20] [--only unary|streams] [--app-dir DIR]
//
// 1. Unary rate: a local-engine server (rate limit off) under a closed loop of N connections
//    per endpoint: requests per second and latency percentiles; then streamGenerateContent
//    (alt=sse) the same way, with time to first event.
// 2. Concurrent SSE streams held: a gateway-mode server whose upstream is a paced stub in this
//    process (one event per second per stream, for --hold-seconds), so each stream really stays
//    open on the server, as behind the real service. Steps up the number of streams; at each
//    step reports how many were open at once and completed, the gateway's resident memory per
//    stream, and the latency of other requests meanwhile. Stops at the first step where streams
//    fail or could not all be open at once.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createHistogram } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Agent, Pool, request } from "undici";
import { residentBytes, startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    streams: { type: "string", default: "500,1000,2000,4000,6000" },
    "hold-seconds": { type: "string", default: "20" },
    only: { type: "string" },
    "app-dir": { type: "string" },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const HOLD_SECONDS = Number(values["hold-seconds"]);
const STEPS = values.streams.split(",").map(Number);
const cwd = values["app-dir"] ? path.resolve(values["app-dir"]) : process.cwd();
const KEY = "load-bench-key-0123456789";
const results = {
  machine: {
    cpus: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    load: os.loadavg().map((value) => value.toFixed(1)),
  },
};

function percentiles(histogram) {
  const ms = (value) => Math.round((value / 1000) * 10) / 10;
  return {
    p50: ms(histogram.percentile(50)),
    p90: ms(histogram.percentile(90)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
  };
}

function dataDir(name) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `genstudio-load-${name}-`));
}

/** A closed loop: `connections` workers send `make()` back to back for `seconds`. */
async function closedLoop(baseUrl, make, { connections, seconds, read = (body) => body.text() }) {
  const pool = new Pool(baseUrl, { connections, pipelining: 1 });
  const latency = createHistogram();
  const firstEvent = createHistogram();
  let done = 0;
  let failed = 0;
  const statuses = {};
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const answer = await pool.request(make());
        const first = await read(answer.body, started);
        if (typeof first === "number") firstEvent.record(Math.max(1, Math.round(first * 1000)));
        statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
        if (answer.statusCode >= 400) failed++;
        done++;
        latency.record(Math.max(1, Math.round((performance.now() - started) * 1000)));
      } catch {
        failed++;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return {
    requests: done,
    failed,
    statuses,
    perSecond: Math.round(done / elapsed),
    latencyMs: percentiles(latency),
    ...(firstEvent.count ? { firstEventMs: percentiles(firstEvent) } : {}),
  };
}

async function unaryRates() {
  const server = await startOwnServer({
    dataDir: dataDir("unary"),
    cwd,
    env: {
      STUDIO_API_KEYS: `bench:${KEY}`,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      STUDIO_MAX_STREAMS_PER_KEY: "0",
    },
  });
  const json = { "x-goog-api-key": KEY, "content-type": "application/json" };
  const prompt = {
    contents: [
      {
        role: "user",
        parts: [{ text: "Tell me about the lighthouse keeper and the ships he counted." }],
      },
    ],
  };
  const cases = {
    "GET /v1beta/models/gemini-2.5-flash": () => ({
      method: "GET",
      path: "/v1beta/models/gemini-2.5-flash",
      headers: { "x-goog-api-key": KEY },
    }),
    "POST countTokens (one sentence)": () => ({
      method: "POST",
      path: "/v1beta/models/gemini-2.5-flash:countTokens",
      headers: json,
      body: JSON.stringify(prompt),
    }),
    "POST generateContent (maxOutputTokens 64)": () => ({
      method: "POST",
      path: "/v1beta/models/gemini-2.0-flash:generateContent",
      headers: json,
      body: JSON.stringify({ ...prompt, generationConfig: { maxOutputTokens: 64 } }),
    }),
    "GET /api/conversations (session-free, key)": () => ({
      method: "GET",
      path: "/api/conversations",
      headers: { "x-goog-api-key": KEY },
    }),
  };
  const unary = {};
  try {
    // Warm the tokenizer and the model before timing.
    for (const make of Object.values(cases))
      for (let index = 0; index < 3; index++)
        await (
          await fetch(`${server.baseUrl}${make().path}`, {
            ...make(),
            signal: AbortSignal.timeout(60_000),
          })
        ).text();
    for (const [label, make] of Object.entries(cases)) {
      unary[label] = await closedLoop(server.baseUrl, make, {
        connections: CONNECTIONS,
        seconds: SECONDS,
      });
      console.log(`unary ${label}: ${JSON.stringify(unary[label])}`);
    }
    const streamLabel = "POST streamGenerateContent?alt=sse (maxOutputTokens 64)";
    unary[streamLabel] = await closedLoop(
      server.baseUrl,
      () => ({
        method: "POST",
        path: "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse",
        headers: json,
        body: JSON.stringify({ ...prompt, generationConfig: { maxOutputTokens: 64 } }),
      }),
      {
        connections: CONNECTIONS,
        seconds: SECONDS,
        read: async (body, started) => {
          let first;
          for await (const chunk of body)
            if (first === undefined && chunk.toString().includes("data:"))
              first = performance.now() - started;
          return first;
        },
      },
    );
    console.log(`unary ${streamLabel}: ${JSON.stringify(unary[streamLabel])}`);
    unary.serverResidentMiB = Math.round(residentBytes(server.serverPid()) / 2 ** 20);
  } finally {
    await server.stop("SIGTERM");
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  results.unary = unary;
}

/** The paced upstream: every stream gets one event per second for HOLD_SECONDS, then STOP. */
function startPacedUpstream() {
  let open = 0;
  const server = http.createServer((incoming, outgoing) => {
    incoming.resume();
    const url = new URL(incoming.url, "http://stub");
    if (incoming.method === "POST" && url.pathname.endsWith(":streamGenerateContent")) {
      open++;
      const hold = Number(/hold-(\d+)/.exec(url.pathname)?.[1] ?? HOLD_SECONDS);
      outgoing.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      let sent = 0;
      const event = (last) =>
        `data: ${JSON.stringify({
          candidates: [
            {
              content: { role: "model", parts: [{ text: `word${sent} ` }] },
              ...(last ? { finishReason: "STOP" } : {}),
              index: 0,
            },
          ],
          ...(last
            ? {
                usageMetadata: {
                  promptTokenCount: 5,
                  candidatesTokenCount: sent + 1,
                  totalTokenCount: sent + 6,
                },
              }
            : {}),
          modelVersion: "paced-stub",
          responseId: "paced",
        })}\r\n\r\n`;
      outgoing.write(event(false));
      const timer = setInterval(() => {
        sent++;
        const last = sent >= hold;
        outgoing.write(event(last));
        if (last) {
          clearInterval(timer);
          outgoing.end();
        }
      }, 1000);
      outgoing.on("close", () => {
        clearInterval(timer);
        open--;
      });
      return;
    }
    if (incoming.method === "GET" && /\/models\/[^/]+$/.test(url.pathname)) {
      outgoing.writeHead(200, { "content-type": "application/json" });
      outgoing.end(
        JSON.stringify({
          name: url.pathname.replace(/^.*\/(models\/[^/]+)$/, "$1"),
          displayName: "stub",
          inputTokenLimit: 1_000_000,
          outputTokenLimit: 8192,
          supportedGenerationMethods: ["generateContent"],
        }),
      );
      return;
    }
    outgoing.writeHead(404, { "content-type": "application/json" });
    outgoing.end(
      JSON.stringify({ error: { code: 404, message: "not in the stub", status: "NOT_FOUND" } }),
    );
  });
  server.maxConnections = 20_000;
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, port: server.address().port, open: () => open }),
    ),
  );
}

async function startGateway(upstream) {
  return startOwnServer({
    dataDir: dataDir("streams"),
    cwd,
    env: {
      STUDIO_API_KEYS: `bench:${KEY}`,
      GEMINI_API_KEY: "paced-stub-upstream-key-0123",
      GEMINI_BASE_URL: `http://127.0.0.1:${upstream.port}`,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      STUDIO_MAX_STREAMS_PER_KEY: "0",
    },
  });
}

/** Opens `count` streams to `model` and reads each to its end; progress is visible through `state`. */
function openStreams(gateway, agent, count, model, state) {
  const body = JSON.stringify({
    contents: [{ role: "user", parts: [{ text: "Hold this stream open." }] }],
  });
  const openLatency = createHistogram();
  const streams = [];
  const launch = async () => {
    for (let index = 0; index < count; index++) {
      streams.push(
        (async () => {
          const begun = performance.now();
          try {
            const answer = await request(
              `${gateway.baseUrl}/v1beta/models/${model}:streamGenerateContent?alt=sse`,
              {
                method: "POST",
                headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
                body,
                dispatcher: agent,
                headersTimeout: 120_000,
                bodyTimeout: 60_000,
              },
            );
            if (answer.statusCode !== 200) throw new Error(`status ${answer.statusCode}`);
            let text = "";
            let counted = false;
            for await (const chunk of answer.body) {
              text += chunk.toString();
              if (!counted && text.includes("data:")) {
                counted = true;
                state.opened++;
                openLatency.record(Math.max(1, Math.round((performance.now() - begun) * 1000)));
              }
            }
            if (text.includes('"finishReason":"STOP"')) state.completed++;
            else throw new Error("ended without finishReason");
          } catch (error) {
            state.failed++;
            const reason = String(error.code ?? error.message).slice(0, 60);
            state.failures[reason] = (state.failures[reason] ?? 0) + 1;
          }
        })(),
      );
      // At most 200 streams waiting for their first event at a time, so the listen backlog
      // (and the opening rate of two cores) is not the limit being measured.
      while (index + 1 - state.opened - state.failed > 200)
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { launched: launch(), all: async () => Promise.all(streams), openLatency };
}

async function heldStreams() {
  const upstream = await startPacedUpstream();
  const steps = [];
  const agent = new Agent({ connections: null, pipelining: 0, keepAliveTimeout: 1000 });
  try {
    for (const count of STEPS) {
      // A fresh gateway per step, warmed by a few short streams, so each figure starts from the same memory.
      const gateway = await startGateway(upstream);
      try {
        const warm = openStreams(gateway, agent, 50, "hold-1", {
          opened: 0,
          completed: 0,
          failed: 0,
          failures: {},
        });
        await warm.launched;
        await warm.all();
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const pid = gateway.serverPid();
        const baseline = residentBytes(pid);
        const state = { opened: 0, completed: 0, failed: 0, failures: {} };
        const started = performance.now();
        const run = openStreams(gateway, agent, count, "stub", state);
        await run.launched;
        // Wait until every stream has its first event (or failed), then measure while all are held.
        while (
          state.opened + state.failed < count &&
          performance.now() - started < HOLD_SECONDS * 1000
        )
          await new Promise((resolve) => setTimeout(resolve, 100));
        const allOpenSeconds = Math.round((performance.now() - started) / 100) / 10;
        const samples = [];
        const probe = createHistogram();
        for (let index = 0; index < 20; index++) {
          samples.push(residentBytes(pid));
          const begun = performance.now();
          await (await fetch(`${gateway.baseUrl}/api/session`)).text();
          probe.record(Math.max(1, Math.round((performance.now() - begun) * 1000)));
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        samples.sort((left, right) => left - right);
        const held = samples[Math.floor(samples.length / 2)];
        const heldAtOnce = upstream.open();
        await run.all();
        const step = {
          streams: count,
          heldAtOnce,
          completed: state.completed,
          failed: state.failed,
          ...(state.failed ? { failures: state.failures } : {}),
          secondsToOpenAll: allOpenSeconds,
          firstEventMs: percentiles(run.openLatency),
          gatewayResidentMiB: {
            before: Math.round(baseline / 2 ** 20),
            held: Math.round(held / 2 ** 20),
          },
          residentKiBPerStream: Math.round((held - baseline) / 1024 / Math.max(1, heldAtOnce)),
          otherRequestsWhileHeldMs: percentiles(probe),
        };
        steps.push(step);
        console.log(`streams ${JSON.stringify(step)}`);
        // Stop once streams fail, or once they could not all be open at the same time.
        if (state.failed > count * 0.01 || heldAtOnce < count) break;
      } finally {
        await gateway.stop("SIGTERM");
        fs.rmSync(gateway.dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await agent.close();
    upstream.server.close();
  }
  results.heldStreams = { holdSeconds: HOLD_SECONDS, eventEverySeconds: 1, steps };
}

if (values.only !== "streams") await unaryRates();
if (values.only !== "unary") await heldStreams();
console.log(JSON.stringify(results, null, 2));
process.exit(0);
