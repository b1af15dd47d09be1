#!/usr/bin/env node
// The long fuzz run, by hand: `npm run fuzz -- --runs 100000 [--seed N] [--concurrency 6]
// [--timeout-ms 15000] [--app-dir DIR] [--keep-data] [--endpoints TEXT]`. Starts its own server from the
// production build (run `npm run build` first) on a free port with a fresh DATA_DIR and two
// studio keys, fuzzes every endpoint, then checks the server is still healthy and its log
// holds no failure of ours. Prints requests sent and 5xx seen; exits 1 on any problem.
// `--endpoints openai` fuzzes only the endpoints whose requests' labels hold the text.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";
import { healthProblems, logFailures, sampleFuzz } from "../e2e/support/fuzz/run.mjs";
import { buildWorld } from "../e2e/support/fuzz/world.mjs";
import { endpointArbitraries } from "../e2e/support/fuzz/requests.mjs";
import fc from "fast-check";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "100000" },
    seed: { type: "string" },
    concurrency: { type: "string", default: "6" },
    "timeout-ms": { type: "string", default: "15000" },
    "app-dir": { type: "string" },
    "keep-data": { type: "boolean", default: false },
    endpoints: { type: "string" },
  },
});

const KEYS = { owner: "fuzz-owner-key-0123456789", other: "fuzz-other-key-0123456789" };
const ACCESS_CODE = "fuzz-access-code";
const runs = Number(values.runs);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const concurrency = Number(values.concurrency);
const timeoutMs = Number(values["timeout-ms"]);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-fuzz-"));
const server = await startOwnServer({
  dataDir,
  cwd: values["app-dir"] ? path.resolve(values["app-dir"]) : process.cwd(),
  env: {
    STUDIO_API_KEYS: `owner:${KEYS.owner},other:${KEYS.other}`,
    STUDIO_ACCESS_CODE: ACCESS_CODE,
    // The fuzzer is one caller sending as fast as it can: the rate limit would answer 429 to most of it.
    STUDIO_RATE_LIMIT_PER_MINUTE: "0",
  },
});
console.log(
  `fuzz: server ${server.baseUrl} (pid ${server.serverPid()}), DATA_DIR ${dataDir}, seed ${seed}, ${runs} requests, ${concurrency} at a time`,
);
let exitCode = 0;
try {
  const world = await buildWorld(server.baseUrl, { keys: KEYS, accessCode: ACCESS_CODE });
  // Endpoints by the label of a request each draws (labels name the endpoint: `openai.embeddings`).
  const chosen = values.endpoints
    ? endpointArbitraries(world).filter((arbitrary) =>
        fc.sample(arbitrary, { numRuns: 1, seed: 1 })[0].label.includes(values.endpoints),
      )
    : null;
  if (chosen?.length === 0) throw new Error(`no endpoint's label holds ${values.endpoints}`);
  const report = await sampleFuzz({
    baseUrl: server.baseUrl,
    world,
    ...(chosen ? { arbitrary: fc.oneof(...chosen) } : {}),
    runs,
    seed,
    concurrency,
    timeoutMs,
    progressEvery: 5000,
    onProgress: (progress) =>
      console.log(
        `fuzz: ${progress.sent} sent, ${progress.fiveHundreds} 5xx, ${progress.hangs} hangs, ${progress.dropped} dropped, ${progress.problems.length} problems, ${Math.round(progress.sent / (progress.ms / 1000))} requests/s`,
      ),
  });
  const health = await healthProblems(server.baseUrl, KEYS.owner);
  const logged = logFailures(server.log());
  const summary = {
    seed,
    requestsSent: report.sent,
    answered: report.answered,
    fiveHundreds: report.fiveHundreds,
    hangs: report.hangs,
    droppedConnections: report.dropped,
    staleConnectionRetries: report.staleConnectionRetries,
    refusedByClient: report.clientRefused,
    contractProblems: report.problems.length,
    healthyAfterwards: health.length === 0 && server.alive(),
    serverLogFailures: logged.length,
    seconds: Math.round(report.ms / 1000),
    requestsPerSecond: Math.round(report.sent / (report.ms / 1000)),
    slowestAnswer: report.slowest,
    statuses: report.statuses,
    byEndpoint: report.byEndpoint,
    timing: report.timing,
  };
  console.log(JSON.stringify(summary, null, 2));
  for (const { problem, request } of report.problems.slice(0, 20))
    console.log(`PROBLEM ${problem}\n  ${JSON.stringify(request)}`);
  for (const problem of health) console.log(`UNHEALTHY ${problem}`);
  for (const line of logged.slice(0, 20)) console.log(`LOG ${line}`);
  console.log(
    `fuzz: ${report.sent} requests sent, ${report.fiveHundreds} 5xx seen, ${report.hangs} hangs, ${report.problems.length} contract problems`,
  );
  if (
    report.fiveHundreds ||
    report.hangs ||
    report.dropped ||
    report.problems.length ||
    health.length ||
    logged.length
  )
    exitCode = 1;
} finally {
  await server.stop("SIGTERM");
  if (!values["keep-data"]) fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
