#!/usr/bin/env node
// The Usage page's report at scale (see bench/README.md, "Usage, logs and metrics"): a
// people-mode server from the production build (`npm run build` first) over a SQLite ledger
// seeded with 100 people, 1,000 keys and a million rows (a year of days per key, three models),
// then the time of `GET /api/usage` as the page asks for it: an admin's default (last 30 days,
// everyone), a year, one person, one key, one model (30 days and a year); and the CSV export of 30
// days. p50 / p95 / max of --samples requests each, after one warm-up.
// Usage: node bench/usage-report.mjs [--samples 20] [--rows 1000000] [--keys 1000]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";
import { readOptions } from "./gateway-support.mjs";

const options = readOptions({ samples: 20, rows: 1_000_000, keys: 1000 });

const ADMIN = { email: "admin@bench.test", password: "bench-admin-password" };
const MODELS = ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.5-flash-lite"];
const PEOPLE = 100;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-usage-bench-"));
const env = {
  STUDIO_ADMIN_EMAIL: ADMIN.email,
  STUDIO_ADMIN_PASSWORD: ADMIN.password,
  STUDIO_RATE_LIMIT_PER_MINUTE: "0",
};

function day(offset) {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - offset))
    .toISOString()
    .slice(0, 10);
}

async function signIn(baseUrl, email, password) {
  const response = await fetch(`${baseUrl}/api/session`, {
    method: "POST",
    headers: {
      origin: baseUrl,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
    },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in: ${response.status}`);
  return response.headers.get("set-cookie").split(";")[0];
}

/** The schema and the first admin: one start of the server. */
let server = await startOwnServer({ dataDir, env });
await server.stop("SIGTERM");

const seedStarted = performance.now();
const database = new Database(path.join(dataDir, "genstudio.sqlite"));
// The ledger is seeded as a version before its rollups left it: the next start's migration 22
// fills them from the million rows (its time is the second start's, printed below).
database.exec(`DROP TABLE usage_daily_models; DROP TABLE usage_spans; DROP TABLE usage_awaited;
  DELETE FROM schema_migrations WHERE version = 22`);
const insertPerson = database.prepare(
  "INSERT INTO people (id, email, name, role, password_hash, oidc_subject, allowance_json, disabled_at, created_at, updated_at) VALUES (?, ?, ?, 'member', NULL, NULL, NULL, NULL, 0, 0)",
);
const insertKey = database.prepare(
  "INSERT INTO api_keys (id, owner_id, person_id, name, secret_hash, prefix, limits_json, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, 'gsk_bench', '{}', 0, NULL, NULL)",
);
const insertRow = database.prepare(
  "INSERT INTO usage_daily VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
);
const daysPerKey = Math.ceil(options.rows / options.keys / MODELS.length);
let rows = 0;
database.transaction(() => {
  for (let person = 0; person < PEOPLE; person++)
    insertPerson.run(`p${person}`, `person${person}@bench.test`, `Person ${person}`);
  for (let key = 0; key < options.keys; key++) {
    const person = `p${key % PEOPLE}`;
    insertKey.run(`k${key}`, `person:${person}`, person, `key ${key}`, `hash-${key}`);
    for (let offset = 0; offset < daysPerKey && rows < options.rows; offset++)
      for (const model of MODELS) {
        if (rows >= options.rows) break;
        const prompt = 100 + ((key * 7 + offset) % 900);
        insertRow.run(
          day(offset),
          `person:${person}`,
          person,
          `k${key}`,
          model,
          3,
          prompt,
          10,
          50,
          5,
          prompt + 55,
          prompt * 300,
        );
        rows++;
      }
  }
})();
database.close();
console.log(
  `seeded ${rows.toLocaleString("en")} ledger rows for ${options.keys} keys of ${PEOPLE} people (${daysPerKey} days each) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
);

const restarted = performance.now();
server = await startOwnServer({ dataDir, env, readyTimeoutMs: 600_000 });
console.log(
  `started, migration 22 filling the rollups from the ledger, in ${((performance.now() - restarted) / 1000).toFixed(1)} s`,
);
try {
  const admin = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
  const cases = [
    ["admin, default (30 days, everyone)", "/api/usage", admin],
    ["admin, a year", `/api/usage?from=${day(365)}&to=${day(0)}`, admin],
    ["admin, one person (30 days)", "/api/usage?personId=p7", admin],
    ["admin, one key, a year", `/api/usage?keyId=k42&from=${day(365)}&to=${day(0)}`, admin],
    ["admin, one model (30 days)", "/api/usage?model=gemini-2.5-pro", admin],
    [
      "admin, one model, a year",
      `/api/usage?model=gemini-2.5-pro&from=${day(365)}&to=${day(0)}`,
      admin,
    ],
    ["CSV export, 30 days (90,000 rows)", "/api/usage/export", admin],
  ];
  const results = [];
  for (const [name, route, cookie] of cases) {
    const times = [];
    let bytes = 0;
    for (let sample = 0; sample <= options.samples; sample++) {
      const started = performance.now();
      const response = await fetch(`${server.baseUrl}${route}`, { headers: { cookie } });
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`${route}: ${response.status} ${text.slice(0, 300)}`);
      if (sample > 0) times.push(performance.now() - started);
      bytes = text.length;
    }
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    results.push({ name, p50: at(0.5), p95: at(0.95), max: times[times.length - 1], bytes });
  }
  console.log("\n| report | p50 | p95 | max | answer |\n|---|---|---|---|---|");
  for (const result of results)
    console.log(
      `| ${result.name} | ${result.p50.toFixed(1)} ms | ${result.p95.toFixed(1)} ms | ${result.max.toFixed(1)} ms | ${(result.bytes / 1024).toFixed(0)} KiB |`,
    );
  console.log(
    `\nload average: ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")}`,
  );
} finally {
  await server.stop("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
