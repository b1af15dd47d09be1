#!/usr/bin/env node
// Gateway benchmark, measured side by side in one run (see bench/README.md, "Gateway"):
//   1. added latency of the gateway over calling its upstream directly: unary countTokens
//      and time to the first SSE event of streamGenerateContent (p50/p99);
//   2. concurrent streams held open through the gateway, and its memory per stream;
//   3. a 1 GiB upload through the gateway, and the gateway's resident memory growth.
// Starts its own servers from the production build (`npm run build` first):
//   upstream  local engine, the gateway's only upstream for 1 and 3;
//   gateway   upstream mode -> upstream;
//   hold      upstream mode -> a slow SSE server inside this script (one event every 2 s).
// With --compare <folder>, a second gateway is started from another checkout's production build
// (e.g. a worktree of the previous commit) and the countTokens latency of both gateways is
// measured alternately against the same upstream, side by side in one run.
// Usage: node bench/gateway.mjs [--samples 300] [--stream-samples 100] [--streams 1000] [--upload-mib 1024]
//                               [--sections latency,streams,upload] [--compare ../other-checkout]
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";

const options = {
  samples: 300,
  "stream-samples": 100,
  streams: 1000,
  "upload-mib": 1024,
  sections: "latency,streams,upload",
  compare: "",
};
for (let index = 2; index < process.argv.length; index += 2) {
  const name = process.argv[index].replace(/^--/, "");
  if (!(name in options)) throw new Error(`unknown option --${name}`);
  options[name] =
    name === "sections" || name === "compare"
      ? process.argv[index + 1]
      : Number(process.argv[index + 1]);
}
const sections = new Set(options.sections.split(","));

const UPSTREAM_KEY = "bench-upstream-key-0123456789";
const GATEWAY_KEY = "bench-gateway-key-0123456789";
const MODEL = "gemini-2.5-flash";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
if (!existsSync(path.join(root, ".next/BUILD_ID"))) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}

const children = [];
const temporary = [];
function cleanup() {
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
}
process.on("exit", cleanup);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(1));

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startStudio(name, environment, folder = root) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `genstudio-bench-${name}-`));
  temporary.push(dataDir);
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: folder,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...Object.fromEntries(
        Object.entries(process.env).filter(
          ([key]) => !/^(GEMINI_|GOOGLE_API_KEY|STUDIO_)/.test(key),
        ),
      ),
      NEXT_TELEMETRY_DISABLED: "1",
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      STUDIO_MAX_STREAMS_PER_KEY: "0",
      ...environment,
    },
  });
  children.push(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      const response = await request(`${baseUrl}/api/session`);
      await response.body.dump();
      if (response.statusCode === 200) return { name, baseUrl, pid: child.pid };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not start`);
}

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
function treeRss(pid) {
  let total = 0;
  const visit = (id) => {
    try {
      const status = readFileSync(`/proc/${id}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const list = readFileSync(`/proc/${id}/task/${task}/children`, "utf8").trim();
        for (const child of list ? list.split(/\s+/) : []) visit(Number(child));
      }
    } catch {
      // exited meanwhile
    }
  };
  visit(pid);
  return total;
}

const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
const ms = (value) => `${value.toFixed(2)} ms`;

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(values) {
  return {
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    mean: values.reduce((a, b) => a + b, 0) / values.length,
  };
}

const client = new Agent({ connections: null, pipelining: 1, keepAliveTimeout: 30_000 });

function headersFor(server) {
  return {
    "content-type": "application/json",
    "x-goog-api-key": server.name === "upstream" ? UPSTREAM_KEY : GATEWAY_KEY,
  };
}

/** countTokens through this build's gateway and another build's, alternately, against one upstream. */
async function compareBuilds(upstream, gateway, other, count) {
  for (let index = 0; index < 50; index++) {
    await countOnce(other);
    await countOnce(gateway);
  }
  const theirs = [];
  const ours = [];
  for (let index = 0; index < count; index++) {
    theirs.push(await countOnce(other));
    ours.push(await countOnce(gateway));
  }
  const a = summary(theirs);
  const b = summary(ours);
  console.log(`\nUnary countTokens through two gateway builds (${count} each, alternating)`);
  console.log(`| | p50 | p99 | mean |`);
  console.log(`|---|---|---|---|`);
  console.log(`| other build (${options.compare}) | ${ms(a.p50)} | ${ms(a.p99)} | ${ms(a.mean)} |`);
  console.log(`| this build | ${ms(b.p50)} | ${ms(b.p99)} | ${ms(b.mean)} |`);
  console.log(
    `| difference | ${ms(b.p50 - a.p50)} | ${ms(b.p99 - a.p99)} | ${ms(b.mean - a.mean)} |`,
  );
}

async function countOnce(server) {
  const started = performance.now();
  const response = await request(`${server.baseUrl}/v1beta/models/${MODEL}:countTokens`, {
    method: "POST",
    headers: headersFor(server),
    body: JSON.stringify({
      contents: [{ parts: [{ text: "The quick brown fox jumps over the lazy dog." }] }],
    }),
    dispatcher: client,
  });
  const text = await response.body.text();
  if (response.statusCode !== 200)
    throw new Error(`${server.name} countTokens ${response.statusCode}: ${text}`);
  return performance.now() - started;
}

async function firstEventOnce(server, seed) {
  const started = performance.now();
  const response = await request(
    `${server.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    {
      method: "POST",
      headers: headersFor(server),
      body: JSON.stringify({
        contents: [{ parts: [{ text: "Tell me about rivers." }] }],
        generationConfig: { seed, maxOutputTokens: 24 },
      }),
      dispatcher: client,
    },
  );
  if (response.statusCode !== 200)
    throw new Error(`${server.name} stream ${response.statusCode}: ${await response.body.text()}`);
  let first = null;
  let text = "";
  for await (const piece of response.body) {
    text += piece.toString("utf8");
    if (first === null && text.includes("data:")) first = performance.now() - started;
  }
  if (first === null) throw new Error(`${server.name} stream had no event`);
  return first;
}

/** The cost of any request to a Next server here: a trivial route of the gateway, for scale. */
async function floor(server, count) {
  const times = [];
  for (let index = 0; index < count + 30; index++) {
    const started = performance.now();
    const response = await request(`${server.baseUrl}/api/session`, { dispatcher: client });
    await response.body.text();
    if (index >= 30) times.push(performance.now() - started);
  }
  const result = summary(times);
  console.log(
    `\nFloor: GET /api/session on the gateway (no upstream call), ${count} requests: p50 ${ms(result.p50)}, p99 ${ms(result.p99)}`,
  );
}

/** Alternates direct and gateway calls so both see the same machine load. */
async function sideBySide(label, count, warmup, once, upstream, gateway) {
  for (let index = 0; index < warmup; index++) {
    await once(upstream, index);
    await once(gateway, index);
  }
  const direct = [];
  const through = [];
  for (let index = 0; index < count; index++) {
    direct.push(await once(upstream, index));
    through.push(await once(gateway, index));
  }
  const d = summary(direct);
  const g = summary(through);
  console.log(`\n${label} (${count} each, alternating)`);
  console.log(`| | p50 | p99 | mean |`);
  console.log(`|---|---|---|---|`);
  console.log(`| direct to upstream | ${ms(d.p50)} | ${ms(d.p99)} | ${ms(d.mean)} |`);
  console.log(`| through gateway | ${ms(g.p50)} | ${ms(g.p99)} | ${ms(g.mean)} |`);
  console.log(
    `| added by gateway | ${ms(g.p50 - d.p50)} | ${ms(g.p99 - d.p99)} | ${ms(g.mean - d.mean)} |`,
  );
}

/** An upstream that answers every stream with one event every 2 s for as long as the client stays. */
async function startHoldingUpstream() {
  const sockets = new Set();
  const server = http.createServer((incoming, response) => {
    incoming.resume();
    incoming.on("end", () => {
      if (!incoming.url.includes(":streamGenerateContent")) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ error: { code: 404, message: "not here", status: "NOT_FOUND" } }),
        );
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      // `fast` models: 100 events 50 ms apart, then the end; others: one event every 2 s, forever.
      const fast = incoming.url.includes("fast");
      let index = 0;
      const send = () => {
        const last = fast && index === 99;
        const chunk = {
          candidates: [
            {
              content: {
                role: "model",
                parts: [{ text: `tick ${index++} @${performance.timeOrigin + performance.now()}` }],
              },
              index: 0,
              ...(last ? { finishReason: "STOP" } : {}),
            },
          ],
          modelVersion: "hold",
        };
        response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
        if (last) {
          clearInterval(timer);
          response.end();
        }
      };
      const timer = setInterval(send, fast ? 50 : 2_000);
      send();
      response.on("close", () => clearInterval(timer));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, open: () => sockets.size };
}

/** Delay from the upstream writing each event to the client reading it, through the gateway. */
async function eventDelays(hold, warmup = true) {
  if (warmup) await eventDelays(hold, false);
  const delays = [];
  const response = await request(
    `${hold.baseUrl}/v1beta/models/hold-fast:streamGenerateContent?alt=sse`,
    {
      method: "POST",
      headers: headersFor(hold),
      body: JSON.stringify({ contents: [{ parts: [{ text: "hold" }] }] }),
      dispatcher: client,
    },
  );
  let buffer = "";
  for await (const piece of response.body) {
    const now = performance.timeOrigin + performance.now();
    buffer += piece.toString("utf8");
    const blocks = buffer.split("\r\n\r\n");
    buffer = blocks.pop();
    for (const block of blocks) {
      const sentAt = /@([\d.]+)/.exec(block)?.[1];
      if (block.startsWith("data:") && sentAt) delays.push(now - Number(sentAt));
    }
  }
  if (!warmup) return;
  const summaryOf = summary(delays);
  console.log(
    `\nEvent pass-through: ${delays.length} events sent 50 ms apart by the upstream, delay from upstream write to client read through the gateway`,
  );
  console.log(`p50 ${ms(summaryOf.p50)}, p99 ${ms(summaryOf.p99)}, max ${ms(Math.max(...delays))}`);
}

async function holdStreams(hold, total) {
  const streamAgent = new Agent({ connections: null, pipelining: 1 });
  const held = [];
  const openStream = async () => {
    const response = await request(
      `${hold.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
      {
        method: "POST",
        headers: headersFor(hold),
        body: JSON.stringify({ contents: [{ parts: [{ text: "hold" }] }] }),
        dispatcher: streamAgent,
      },
    );
    if (response.statusCode !== 200)
      throw new Error(`hold stream ${response.statusCode}: ${await response.body.text()}`);
    const stream = { events: 0, response };
    let buffer = "";
    let firstResolve;
    const first = new Promise((resolve) => (firstResolve = resolve));
    response.body.on("data", (piece) => {
      buffer += piece.toString("utf8");
      const blocks = buffer.split("\r\n\r\n");
      buffer = blocks.pop();
      const events = blocks.filter((block) => block.startsWith("data:")).length;
      if (events > 0) {
        stream.events += events;
        firstResolve();
      }
    });
    response.body.on("error", () => undefined);
    await first;
    held.push(stream);
  };
  const baseline = treeRss(hold.pid);
  const checkpoints = [Math.round(total / 4), total];
  const results = [];
  let opened = 0;
  for (const target of checkpoints) {
    while (opened < target) {
      const batch = Math.min(50, target - opened);
      await Promise.all(Array.from({ length: batch }, openStream));
      opened += batch;
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    results.push({ streams: opened, rss: treeRss(hold.pid) });
  }
  // Every held stream must still be alive and receiving.
  const before = held.map((stream) => stream.events);
  await new Promise((resolve) => setTimeout(resolve, 4_500));
  const alive = held.filter((stream, index) => stream.events > before[index]).length;
  for (const stream of held) stream.response.body.destroy();
  await streamAgent.close().catch(() => undefined);
  console.log(`\nConcurrent streams held through the gateway (upstream sends one event every 2 s)`);
  console.log(`| open streams | gateway RSS | growth over idle | per stream |`);
  console.log(`|---|---|---|---|`);
  console.log(`| 0 | ${mib(baseline)} | | |`);
  for (const result of results) {
    console.log(
      `| ${result.streams} | ${mib(result.rss)} | ${mib(result.rss - baseline)} | ${((result.rss - baseline) / result.streams / 1024).toFixed(1)} KiB |`,
    );
  }
  const [quarter, all] = results;
  console.log(
    `marginal memory per stream (${quarter.streams} -> ${all.streams}): ${((all.rss - quarter.rss) / (all.streams - quarter.streams) / 1024).toFixed(1)} KiB; still receiving after ${all.streams} opened: ${alive}/${held.length}`,
  );
}

async function upload(server, totalBytes, sampler) {
  const start = await request(`${server.baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      ...headersFor(server),
      "x-goog-upload-protocol": "resumable",
      "x-goog-upload-command": "start",
      "x-goog-upload-header-content-length": String(totalBytes),
      "x-goog-upload-header-content-type": "application/octet-stream",
    },
    body: JSON.stringify({ file: { displayName: "bench-1gib" } }),
    dispatcher: client,
  });
  await start.body.dump();
  const sessionUrl = start.headers["x-goog-upload-url"];
  if (start.statusCode !== 200 || !sessionUrl)
    throw new Error(`${server.name} upload start ${start.statusCode}`);
  const piece = Buffer.alloc(1024 * 1024, 0x61);
  async function* bytes() {
    for (let sent = 0; sent < totalBytes; sent += piece.length)
      yield piece.subarray(0, Math.min(piece.length, totalBytes - sent));
  }
  const started = performance.now();
  const response = await request(sessionUrl, {
    method: "POST",
    headers: {
      "x-goog-api-key": headersFor(server)["x-goog-api-key"],
      "x-goog-upload-command": "upload, finalize",
      "x-goog-upload-offset": "0",
      "content-length": String(totalBytes),
    },
    body: bytes(),
    dispatcher: client,
    headersTimeout: 600_000,
    bodyTimeout: 600_000,
  });
  const text = await response.body.text();
  const seconds = (performance.now() - started) / 1000;
  sampler?.stop();
  if (response.statusCode !== 200)
    throw new Error(`${server.name} upload ${response.statusCode}: ${text}`);
  const file = JSON.parse(text).file;
  if (file.sizeBytes !== String(totalBytes))
    throw new Error(`${server.name} stored ${file.sizeBytes} bytes`);
  return { seconds, throughput: totalBytes / 1048576 / seconds };
}

function rssSampler(pid) {
  const samples = [treeRss(pid)];
  const timer = setInterval(() => samples.push(treeRss(pid)), 50);
  return { samples, stop: () => clearInterval(timer) };
}

async function main() {
  console.log(
    `gateway bench: ${os.cpus().length} cores, ${mib(os.totalmem())} RAM, Node ${process.version}, ${new Date().toISOString()}`,
  );
  const upstream = await startStudio("upstream", { STUDIO_API_KEYS: `upstream:${UPSTREAM_KEY}` });
  const gateway = await startStudio("gateway", {
    GEMINI_API_KEY: UPSTREAM_KEY,
    GEMINI_BASE_URL: upstream.baseUrl,
    STUDIO_API_KEYS: `bench:${GATEWAY_KEY}`,
  });
  const holding = await startHoldingUpstream();
  const hold = await startStudio("hold", {
    GEMINI_API_KEY: UPSTREAM_KEY,
    GEMINI_BASE_URL: holding.url,
    STUDIO_API_KEYS: `bench:${GATEWAY_KEY}`,
  });

  if (options.compare) {
    const other = await startStudio(
      "gateway",
      {
        GEMINI_API_KEY: UPSTREAM_KEY,
        GEMINI_BASE_URL: upstream.baseUrl,
        STUDIO_API_KEYS: `bench:${GATEWAY_KEY}`,
      },
      path.resolve(options.compare),
    );
    await compareBuilds(upstream, gateway, other, options.samples);
  }
  if (sections.has("latency")) {
    await floor(gateway, options.samples);
    await sideBySide(
      "Unary countTokens latency",
      options.samples,
      30,
      countOnce,
      upstream,
      gateway,
    );
    await sideBySide(
      "Time to first SSE event (streamGenerateContent)",
      options["stream-samples"],
      10,
      firstEventOnce,
      upstream,
      gateway,
    );
  }
  if (sections.has("streams")) {
    await eventDelays(hold);
    await holdStreams(hold, options.streams);
  }
  if (sections.has("upload")) await uploadSection(upstream, gateway);
  await client.close();
}

async function uploadSection(upstream, gateway) {
  const totalBytes = options["upload-mib"] * 1048576;
  const direct = await upload(upstream, totalBytes);
  // Warm-up: the first upload loads the route's code and opens the database; that one-time
  // cost is not what the goal is about.
  await upload(gateway, 8 * 1048576);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idle = treeRss(gateway.pid);
  const sampler = rssSampler(gateway.pid);
  const through = await upload(gateway, totalBytes, sampler);
  const peak = Math.max(...sampler.samples);
  console.log(
    `\n${mib(totalBytes)} upload in one \`upload, finalize\` request (streamed, Content-Length set)`,
  );
  console.log(`| | time | throughput |`);
  console.log(`|---|---|---|`);
  console.log(
    `| direct to upstream | ${direct.seconds.toFixed(1)} s | ${direct.throughput.toFixed(0)} MiB/s |`,
  );
  console.log(
    `| through gateway | ${through.seconds.toFixed(1)} s | ${through.throughput.toFixed(0)} MiB/s |`,
  );
  console.log(
    `gateway RSS: before ${mib(idle)}, peak ${mib(peak)}, growth ${mib(peak - idle)} (goal < 64 MiB; ${sampler.samples.length} samples every 50 ms)`,
  );
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
