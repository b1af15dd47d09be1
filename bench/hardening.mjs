#!/usr/bin/env node
// Hardening figures for bench/README.md: what bad clients cost the server. Needs a
// production build (`npm run build`).
//
//   node bench/hardening.mjs [--slow 1000] [--stalled 20] [--stall-ms 10000] [--app-dir DIR]
//
// 1. Oversized bodies: 500 MB offered to JSON endpoints (declared and chunked); the answer,
//    how much was sent before it, and the server's resident memory growth.
// 2. Slowloris: --slow connections trickling header lines (one per second), then as many
//    trickling a body at 1 byte per second, with the default limits (headers 20 s; body
//    grace 20 s at 500 B/s): when they are cut, the server's memory per held connection, and
//    the latency of ordinary requests meanwhile.
// 3. Stalled readers: --stalled clients ask for a 32 MB conversation and never read, with
//    STUDIO_WRITE_STALL_TIMEOUT_MS=--stall-ms (default here 10 s; 60 s in production): the
//    memory they pin, when they are cut (seen with `ss`, without reading), and that the
//    memory comes back.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createHistogram } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { sendHugeBody } from "../e2e/support/fuzz/huge-body.mjs";
import { residentBytes, startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

const { values } = parseArgs({
  options: {
    slow: { type: "string", default: "1000" },
    stalled: { type: "string", default: "20" },
    "stall-ms": { type: "string", default: "10000" },
    "app-dir": { type: "string" },
  },
});
const SLOW = Number(values.slow);
const STALLED = Number(values.stalled);
const STALL_MS = Number(values["stall-ms"]);
const KEY = "hardening-bench-key-0123456789";
const cwd = values["app-dir"] ? path.resolve(values["app-dir"]) : process.cwd();
const results = {
  machine: { cpus: os.cpus().length, load: os.loadavg().map((value) => value.toFixed(1)) },
};
const MiB = 2 ** 20;

const server = await startOwnServer({
  dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-hardening-bench-")),
  cwd,
  env: {
    STUDIO_API_KEYS: `bench:${KEY}`,
    STUDIO_ACCESS_CODE: "bench-access-code",
    STUDIO_RATE_LIMIT_PER_MINUTE: "0",
    STUDIO_WRITE_STALL_TIMEOUT_MS: String(STALL_MS),
  },
});
const pid = server.serverPid();
const json = { "x-goog-api-key": KEY, "content-type": "application/json" };

function ms(histogram) {
  const value = (number) => Math.round(number / 100) / 10;
  return {
    p50: value(histogram.percentile(50)),
    p99: value(histogram.percentile(99)),
    max: value(histogram.max),
  };
}

/** Ordinary requests, one after another, until `stop()` says so: their latency. */
function probe() {
  const histogram = createHistogram();
  let running = true;
  const done = (async () => {
    while (running) {
      const begun = performance.now();
      const response = await fetch(`${server.baseUrl}/v1beta/models/gemini-2.5-flash:countTokens`, {
        method: "POST",
        headers: json,
        body: '{"contents":[{"parts":[{"text":"Still here?"}]}]}',
      });
      await response.text();
      if (response.status !== 200) throw new Error(`probe answered ${response.status}`);
      histogram.record(Math.max(1, Math.round((performance.now() - begun) * 1000)));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    running = false;
    await done;
    return ms(histogram);
  };
}

/** `count` raw connections, each writing `head` then `drip()` every second until the server closes it. */
async function trickleMany(count, head, drip) {
  const baseline = residentBytes(pid);
  const stopProbe = probe();
  const closedAfter = [];
  let answered408 = 0;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 200);
  const started = performance.now();
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve) => {
          const socket = net.connect(server.port, "127.0.0.1");
          let text = "";
          socket.on("data", (chunk) => (text += chunk.toString()));
          socket.on("error", () => undefined);
          socket.write(head);
          const timer = setInterval(() => socket.writable && socket.write(drip()), 1000);
          socket.on("close", () => {
            clearInterval(timer);
            closedAfter.push(performance.now() - started);
            if (text.startsWith("HTTP/1.1 408")) answered408++;
            resolve();
          });
        }),
    ),
  );
  clearInterval(sampler);
  closedAfter.sort((left, right) => left - right);
  return {
    connections: count,
    answered408,
    cutAfterSeconds: {
      first: Math.round(closedAfter[0] / 100) / 10,
      last: Math.round(closedAfter.at(-1) / 100) / 10,
    },
    serverResidentGrowthMiB: Math.round((peak - baseline) / MiB),
    residentKiBPerConnection: Math.round((peak - baseline) / 1024 / count),
    otherRequestsMeanwhileMs: await stopProbe(),
  };
}

try {
  // Warm the tokenizer before anything is timed.
  await (
    await fetch(`${server.baseUrl}/v1beta/models/gemini-2.5-flash:countTokens`, {
      method: "POST",
      headers: json,
      body: '{"contents":[{"parts":[{"text":"warm"}]}]}',
    })
  ).text();

  const oversized = {};
  const total = 500 * MiB;
  for (const [label, route, headers, declared] of [
    [
      "countTokens, Content-Length 500 MB (cap 100 MB)",
      "/v1beta/models/gemini-2.5-flash:countTokens",
      json,
      true,
    ],
    [
      "countTokens, chunked 500 MB (cap 100 MB)",
      "/v1beta/models/gemini-2.5-flash:countTokens",
      json,
      false,
    ],
    [
      "generateContent, chunked 500 MB (cap 100 MB)",
      "/v1beta/models/gemini-2.5-flash:generateContent",
      json,
      false,
    ],
    ["conversations, chunked 500 MB (cap 32 MB)", "/api/conversations", json, false],
    [
      "upload start, chunked 500 MB (cap 64 KB)",
      "/upload/v1beta/files",
      { ...json, "x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start" },
      false,
    ],
    [
      "session, chunked 500 MB (cap 4 KB)",
      "/api/session",
      { "content-type": "application/json", origin: server.baseUrl },
      false,
    ],
  ]) {
    const result = await sendHugeBody(server, route, headers, total, declared);
    oversized[label] = {
      answer: "status" in result.outcome ? result.outcome.status : result.outcome.error,
      sentMiBBeforeAnswer: Math.round(result.sentBytes / MiB),
      ms: result.ms,
      serverResidentGrowthMiB: Math.round(result.growthBytes / MiB),
    };
    console.log(`oversized ${label}: ${JSON.stringify(oversized[label])}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  results.oversized = oversized;

  results.slowHeaders = await trickleMany(
    SLOW,
    `GET /v1beta/models HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`,
    () => `X-Slow: ${Date.now()}\r\n`,
  );
  console.log(`slow headers: ${JSON.stringify(results.slowHeaders)}`);
  results.slowBodies = await trickleMany(
    SLOW,
    `POST /v1beta/models/gemini-2.5-flash:countTokens HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nx-goog-api-key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"contents":"`,
    () => "a",
  );
  console.log(`slow bodies: ${JSON.stringify(results.slowBodies)}`);

  // Stalled readers of a 32 MB answer.
  const created = await (
    await fetch(`${server.baseUrl}/api/conversations`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ title: "big", settings: { model: "models/gemini-2.5-flash" } }),
    })
  ).json();
  for (let index = 0; index < 4; index++) {
    const text = `${index} ${"a long answer ".repeat(600_000)}`;
    await (
      await fetch(`${server.baseUrl}/api/conversations/${created.id}/messages`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          messages: [{ id: `m${index}`, role: "user", content: { parts: [{ text }] } }],
        }),
      })
    ).text();
  }
  const whole = (
    await (
      await fetch(`${server.baseUrl}/api/conversations/${created.id}`, { headers: json })
    ).text()
  ).length;
  const baseline = residentBytes(pid);
  const stopProbe = probe();
  const sockets = Array.from({ length: STALLED }, () => {
    const socket = net.connect(server.port, "127.0.0.1");
    socket.on("error", () => undefined);
    socket.write(
      `GET /api/conversations/${created.id} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nx-goog-api-key: ${KEY}\r\n\r\n`,
    );
    socket.pause();
    return socket;
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const ports = new Set(sockets.map((socket) => String(socket.localPort)));
  // When the server cuts a paused reader, the server's side of the connection leaves
  // ESTABLISHED (the reader's side cannot tell until it reads); `ss` sees that.
  const established = () => {
    const lines = execFileSync(
      "ss",
      ["-Htn", "state", "established", `( sport = :${server.port} )`],
      { encoding: "utf8" },
    ).split("\n");
    return new Set(
      lines
        .map((line) => line.trim().split(/\s+/)[3]?.split(":").pop())
        .filter((port) => port && ports.has(port)),
    );
  };
  let peak = baseline;
  const cutAt = new Map();
  const started = performance.now();
  while (performance.now() - started < STALL_MS * 3 + 30_000 && cutAt.size < STALLED) {
    peak = Math.max(peak, residentBytes(pid));
    const open = established();
    for (const port of ports)
      if (!open.has(port) && !cutAt.has(port)) cutAt.set(port, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const afterCut = residentBytes(pid);
  const received = await Promise.all(
    sockets.map(
      (socket) =>
        new Promise((resolve) => {
          let bytes = 0;
          socket.on("data", (chunk) => (bytes += chunk.length));
          socket.on("close", () => resolve(bytes));
          socket.resume();
          setTimeout(() => {
            socket.destroy();
            resolve(bytes);
          }, 20_000);
        }),
    ),
  );
  const cutTimes = [...cutAt.values()].sort((left, right) => left - right);
  results.stalledReaders = {
    readers: STALLED,
    answerMiB: Math.round(whole / MiB),
    stallTimeoutMs: STALL_MS,
    cut: received.filter((bytes) => bytes < whole).length,
    cutAfterSeconds: cutTimes.length
      ? { first: Math.round(cutTimes[0] / 100) / 10, last: Math.round(cutTimes.at(-1) / 100) / 10 }
      : null,
    mostReceivedMiB: Math.round(Math.max(...received) / MiB),
    serverResidentGrowthMiB: Math.round((peak - baseline) / MiB),
    serverResidentAfterCutMiB: Math.round((afterCut - baseline) / MiB),
    residentMiBPerStalledReader: Math.round(((peak - baseline) / MiB / STALLED) * 10) / 10,
    otherRequestsMeanwhileMs: await stopProbe(),
  };
  console.log(`stalled readers: ${JSON.stringify(results.stalledReaders)}`);
  results.serverAliveAfterwards = server.alive();
} finally {
  await server.stop("SIGTERM");
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));
process.exit(0);
