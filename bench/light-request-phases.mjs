#!/usr/bin/env node
// Where another caller's light request waits while one hostile operation runs: for each light
// countTokens (one every 50 ms, as bench/hostile-input.mjs sends them), the time from sending
// it to the server's emitting it ("before"), in the server ("server"), and from the server's
// handing its answer to the socket to this process having read it ("after"), beside the
// longest gap of the server's event loop and of this process's own. A light request that waits
// "after" waited for the client, not the service.
//
//   node bench/light-request-phases.mjs [--app-dir DIR] [--operation "speech: 3"] [--runs 3]
//                                       [--same-thread] (the operation sent from this thread,
//                                       as hostile-input.mjs did before it used a worker)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { Agent, request } from "undici";
import { longestGaps, startProbedServer } from "./hostile-support.mjs";
import { OPERATIONS } from "./hostile-operations.mjs";

const { values } = parseArgs({
  options: {
    "app-dir": { type: "string", default: "." },
    operation: { type: "string", default: "speech: 3" },
    runs: { type: "string", default: "3" },
    "same-thread": { type: "boolean", default: false },
  },
});
const KEY = "hostile-input-bench-key-0123456789";
const operation = Object.keys(OPERATIONS).find((name) => name.startsWith(values.operation));
const phasesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "light-phases-")), "phases");
process.env.GENSTUDIO_REQUEST_PHASES = phasesFile;
const probe = fileURLToPath(new URL("./request-phases-probe.cjs", import.meta.url));
process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --require ${probe}`.trim();

const target = await startProbedServer(path.resolve(values["app-dir"]), {
  STUDIO_API_KEYS: `bench:${KEY}`,
});
const agent = new Agent({ connections: 64, headersTimeout: 0, bodyTimeout: 0 });
const headers = { "x-goog-api-key": KEY, "content-type": "application/json" };
const now = () => performance.timeOrigin + performance.now();
const LIGHT = JSON.stringify({ contents: [{ parts: [{ text: "Still here?" }] }] });
let lastId = 0;

async function light() {
  const id = String(++lastId);
  const sent = now();
  const response = await request(
    `${target.server.baseUrl}/v1beta/models/gemini-2.5-flash:countTokens`,
    {
      method: "POST",
      headers: { ...headers, "x-bench-request-id": id },
      body: LIGHT,
      dispatcher: agent,
    },
  );
  await response.body.text();
  return { id, sent, read: now() };
}

/** This process's own event-loop gaps (epoch ms, gap ms). */
const ownGaps = [];
let lastTick = performance.now();
const ticker = setInterval(() => {
  const tick = performance.now();
  ownGaps.push([now(), tick - lastTick - 1]);
  lastTick = tick;
}, 1);

async function hostileHere() {
  const call = async (method, route, body, extraHeaders = {}) => {
    const response = await request(`${target.server.baseUrl}${route}`, {
      method,
      headers: { ...headers, ...extraHeaders },
      body,
      dispatcher: agent,
    });
    let size = 0;
    const kept = [];
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size <= 1 << 20) kept.push(chunk);
    }
    const text = size <= 1 << 20 ? Buffer.concat(kept).toString("utf8") : "";
    return { status: response.statusCode, headers: response.headers, text };
  };
  return OPERATIONS[operation](call);
}

const worker = values["same-thread"]
  ? undefined
  : new Worker(new URL("./hostile-operation-worker.mjs", import.meta.url), {
      workerData: { key: KEY },
    });
function hostileInWorker() {
  return new Promise((resolve, reject) => {
    worker.once("message", ({ status, error }) =>
      error ? reject(new Error(error.message)) : resolve(status),
    );
    worker.postMessage({ id: 1, operation, baseUrl: target.server.baseUrl, timeoutMs: 120_000 });
  });
}

try {
  for (let index = 0; index < 20; index++) await light();
  console.log(`${operation}, sent from ${worker ? "a worker thread" : "the timing thread"}`);
  for (let run = 1; run <= Number(values.runs); run++) {
    const pending = [];
    const timer = setInterval(() => pending.push(light()), 50);
    const begun = now();
    const status = await (worker ? hostileInWorker() : hostileHere());
    clearInterval(timer);
    const lights = await Promise.all(pending);
    const ended = now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const server = new Map(
      fs
        .readFileSync(phasesFile, "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split(" "))
        .map(([id, received, answered]) => [id, { received: +received, answered: +answered }]),
    );
    const rows = lights
      .map(({ id, sent, read }) => {
        const seen = server.get(id);
        return {
          total: read - sent,
          before: seen.received - sent,
          inServer: seen.answered - seen.received,
          after: read - seen.answered,
        };
      })
      .sort((left, right) => right.total - left.total);
    const serverGap = longestGaps(target.probeFile, begun, ended);
    const ownGap = Math.max(
      0,
      ...ownGaps.filter(([at]) => at >= begun && at <= ended).map(([, gap]) => gap),
    );
    console.log(
      `run ${run}: status ${status}, ${Math.round(ended - begun)} ms, ${rows.length} light requests; longest loop gap: server ${serverGap.wall} ms (${serverGap.cpu} ms CPU), this process ${ownGap.toFixed(1)} ms; load ${os.loadavg()[0].toFixed(1)}`,
    );
    for (const row of rows.slice(0, 3))
      console.log(
        `  ${row.total.toFixed(1)} ms = before ${row.before.toFixed(1)} + server ${row.inServer.toFixed(1)} + after ${row.after.toFixed(1)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
} finally {
  clearInterval(ticker);
  await worker?.terminate();
  await agent.close();
  await target.server.stop();
}
