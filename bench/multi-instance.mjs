#!/usr/bin/env node
// PostgreSQL mode against SQLite mode, and two instances against one (bench/README.md,
// "Several instances").
//
//   node bench/multi-instance.mjs [--requests 2000] [--seconds 10] [--concurrency 16]
//
// Starts its own production servers (run `npm run build` first) from e2e/support/fuzz/own-server.mjs:
// one on SQLite, one on PostgreSQL, one on PostgreSQL with the rate limit off, and a second
// PostgreSQL instance on the same database and DATA_DIR. PostgreSQL is TEST_DATABASE_URL's
// server when set, else a throwaway one from scripts/test-postgres.sh. Latencies are measured
// one request at a time, alternating between the servers compared, so both see the same machine.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index < 0 ? fallback : Number(args[index + 1]);
};
const REQUESTS = option("requests", 2000);
const SECONDS = option("seconds", 10);
const CONCURRENCY = option("concurrency", 16);
const KEY = "bench-multi-instance-key-0001";
const ENV = { STUDIO_API_KEYS: `bench:${KEY}` };
const HEADERS = { "x-goog-api-key": KEY, "content-type": "application/json" };

let serverUrl = process.env.TEST_DATABASE_URL;
let ownPostgres = null;
if (!serverUrl) {
  const exports = execFileSync("bash", ["scripts/test-postgres.sh", "start"], { encoding: "utf8" });
  serverUrl = /TEST_DATABASE_URL=(\S+)/.exec(exports)[1];
  ownPostgres = /TEST_POSTGRES_DIR=(\S+)/.exec(exports)[1];
}

async function createDatabase() {
  const name = `genstudio_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const temp = (name) => fs.mkdtempSync(path.join(os.tmpdir(), `genstudio-bench-${name}-`));

function percentile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p99 ${percentile(sorted, 0.99).toFixed(2)} ms`;
}

async function timed(request) {
  const started = performance.now();
  const response = await request();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`answered ${response.status}`);
  return performance.now() - started;
}

/** Each operation, one request at a time, alternating between `servers`; samples per server. */
async function compare(label, servers, operation) {
  const samples = servers.map(() => []);
  const contexts = await Promise.all(servers.map((server) => operation.prepare?.(server)));
  for (let round = 0; round < REQUESTS + 50; round++) {
    for (let index = 0; index < servers.length; index++) {
      const elapsed = await timed(() => operation.send(servers[index], contexts[index], round));
      if (round >= 50) samples[index].push(elapsed);
    }
  }
  console.log(`\n${label}`);
  servers.forEach((server, index) =>
    console.log(`  ${server.label.padEnd(28)} ${summary(samples[index])}`),
  );
}

const countTokens = {
  send: (server) =>
    fetch(`${server.baseUrl}/v1beta/models/gemini-2.5-flash:countTokens`, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({
        contents: [{ parts: [{ text: "The quick brown fox jumps over the lazy dog." }] }],
      }),
    }),
};
const authenticatedGet = {
  send: (server) => fetch(`${server.baseUrl}/v1beta/models/gemini-2.5-flash`, { headers: HEADERS }),
};
const conversationWrite = {
  async prepare(server) {
    const response = await fetch(`${server.baseUrl}/api/conversations`, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ title: "bench", settings: { model: "models/gemini-2.5-flash" } }),
    });
    return (await response.json()).id;
  },
  send: (server, id, round) =>
    fetch(`${server.baseUrl}/api/conversations/${id}/messages`, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({
        messages: [
          {
            id: `m${round}`,
            role: "user",
            content: { role: "user", parts: [{ text: `turn ${round}` }] },
          },
        ],
      }),
    }),
};

/** Unary countTokens from `concurrency` clients for `seconds`, spread over `servers` in turn. */
async function throughput(servers) {
  const deadline = performance.now() + SECONDS * 1000;
  let done = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const server = servers[next++ % servers.length];
        await timed(() => countTokens.send(server));
        done++;
      }
    }),
  );
  return done / SECONDS;
}

const started = [];
try {
  const limitsOff = { STUDIO_RATE_LIMIT_PER_MINUTE: "0", STUDIO_MAX_STREAMS_PER_KEY: "0" };
  const sqlite = await startOwnServer({ dataDir: temp("sqlite"), env: { ...ENV, ...limitsOff } });
  started.push(sqlite);
  sqlite.label = "SQLite";
  const postgresUrl = await createDatabase();
  const sharedDir = temp("postgres");
  const postgres = await startOwnServer({
    dataDir: sharedDir,
    env: { ...ENV, ...limitsOff, DATABASE_URL: postgresUrl },
  });
  started.push(postgres);
  postgres.label = "PostgreSQL";
  console.log(
    `${os.cpus().length} cores; ${REQUESTS} requests per server and operation, one at a time`,
  );
  console.log("(rate limit and stream cap off in this part, so only the mode differs)");
  await compare(
    "countTokens (key auth; counting in the tokenizer worker)",
    [sqlite, postgres],
    countTokens,
  );
  await compare(
    "conversation write (POST /api/conversations/{id}/messages)",
    [sqlite, postgres],
    conversationWrite,
  );
  await compare(
    "authenticated GET (GET /v1beta/models/{model})",
    [sqlite, postgres],
    authenticatedGet,
  );

  const limitedSqlite = await startOwnServer({
    dataDir: temp("sqlite-limited"),
    env: { ...ENV, STUDIO_RATE_LIMIT_PER_MINUTE: "100000000" },
  });
  started.push(limitedSqlite);
  limitedSqlite.label = "SQLite, rate limited";
  const limitedPostgres = await startOwnServer({
    dataDir: sharedDir,
    env: { ...ENV, STUDIO_RATE_LIMIT_PER_MINUTE: "100000000", DATABASE_URL: postgresUrl },
  });
  started.push(limitedPostgres);
  limitedPostgres.label = "PostgreSQL, rate limited";
  await compare(
    "the shared rate limiter's cost: authenticated GET with the limit off and on (a limit never reached)",
    [sqlite, limitedSqlite, postgres, limitedPostgres],
    authenticatedGet,
  );

  const secondInstance = await startOwnServer({
    dataDir: sharedDir,
    env: { ...ENV, ...limitsOff, DATABASE_URL: postgresUrl },
  });
  started.push(secondInstance);
  await throughput([postgres, secondInstance]); // warm both
  const one = await throughput([postgres]);
  const two = await throughput([postgres, secondInstance]);
  console.log(
    `\nunary countTokens throughput, ${CONCURRENCY} clients for ${SECONDS} s (PostgreSQL mode)`,
  );
  console.log(`  one instance                 ${one.toFixed(0)} requests/s`);
  console.log(`  two instances, one database  ${two.toFixed(0)} requests/s`);
} finally {
  for (const server of started) await server.stop("SIGKILL");
  if (ownPostgres) execFileSync("bash", ["scripts/test-postgres.sh", "stop", ownPostgres]);
}
