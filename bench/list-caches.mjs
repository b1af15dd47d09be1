#!/usr/bin/env node
// Listing many cachedContents page by page (bench/README.md, "Listing caches").
//
//   node bench/list-caches.mjs [--count 100000] [--page-sizes 1000,100]
//
// Starts the production build (`node scripts/start.mjs`, run `npm run build` first) on a free
// port with a fresh DATA_DIR, inserts `count` live caches for the development key straight
// into its SQLite database (the server's migrations made the table), then walks
// GET /v1beta/cachedContents page by page with each page size and reports the latency of one
// page (p50, p95, max) and of the whole walk. Checks that every cache is seen exactly once.
// Run from the repository root.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { freePort } from "../e2e/support/fuzz/own-server.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index < 0 || args[index + 1] === undefined ? fallback : args[index + 1];
};
const count = Number(option("count", "100000"));
const pageSizes = String(option("page-sizes", "1000,100")).split(",").map(Number);
const KEY = "genstudio-dev-key";
const OWNER = "key:dev";
const Database = createRequire(path.join(process.cwd(), "package.json"))("better-sqlite3");

async function startServer(dataDir) {
  const port = await freePort();
  const {
    GEMINI_API_KEY: _gemini,
    GOOGLE_API_KEY: _google,
    STUDIO_API_KEYS: _keys,
    STUDIO_ACCESS_CODE: _code,
    ...environment
  } = process.env;
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    // The per-key request rate limit is off: this measures listing, not the limiter.
    env: {
      ...environment,
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
    },
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(`${baseUrl}/api/session`)).ok) return { child, baseUrl };
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server did not start");
}

function insertCaches(dataDir) {
  const db = new Database(path.join(dataDir, "genstudio.sqlite"));
  db.pragma("busy_timeout = 5000");
  const insert = db.prepare(
    `INSERT INTO cached_contents (id, owner_id, model, display_name, content_json, total_token_count, token_details_json, create_time, update_time, expire_time)
     VALUES (?, ?, 'models/gemini-2.5-flash', ?, ?, 2048, '[{"modality":"TEXT","tokenCount":2048}]', ?, ?, ?)`,
  );
  const content = JSON.stringify({
    contents: [{ role: "user", parts: [{ text: "A cached book chapter. ".repeat(200) }] }],
  });
  const now = Date.now();
  const began = performance.now();
  db.transaction(() => {
    for (let index = 0; index < count; index++) {
      const created = now - count + index;
      insert.run(
        `bench${String(index).padStart(7, "0")}`,
        OWNER,
        `cache ${index}`,
        content,
        created,
        created,
        now + 24 * 3_600_000,
      );
    }
  })();
  db.close();
  return performance.now() - began;
}

const percentile = (sorted, fraction) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];

async function walk(baseUrl, pageSize) {
  const latencies = [];
  const seen = new Set();
  let token;
  const began = performance.now();
  do {
    const url = `${baseUrl}/v1beta/cachedContents?pageSize=${pageSize}${token ? `&pageToken=${encodeURIComponent(token)}` : ""}`;
    const started = performance.now();
    const response = await fetch(url, { headers: { "x-goog-api-key": KEY } });
    const body = await response.json();
    latencies.push(performance.now() - started);
    if (response.status !== 200)
      throw new Error(`list failed: ${response.status} ${JSON.stringify(body)}`);
    for (const cache of body.cachedContents ?? []) seen.add(cache.name);
    token = body.nextPageToken;
  } while (token);
  const total = performance.now() - began;
  if (seen.size !== count) throw new Error(`saw ${seen.size} caches, expected ${count}`);
  // Keyset pages cost the same deep in the list as at its start.
  const tenth = Math.max(1, Math.floor(latencies.length / 10));
  const early = [...latencies.slice(0, tenth)].sort((a, b) => a - b);
  const late = [...latencies.slice(-tenth)].sort((a, b) => a - b);
  latencies.sort((a, b) => a - b);
  console.log(
    `pageSize ${String(pageSize).padStart(4)}: ${latencies.length} pages, p50 ${percentile(latencies, 0.5).toFixed(1)} ms, ` +
      `p95 ${percentile(latencies, 0.95).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms, whole walk ${(total / 1000).toFixed(2)} s; ` +
      `p50 of the first tenth ${percentile(early, 0.5).toFixed(1)} ms, of the last tenth ${percentile(late, 0.5).toFixed(1)} ms`,
  );
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-caches-"));
const server = await startServer(dataDir);
try {
  const insertMs = insertCaches(dataDir);
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; inserted ${count} caches in ${(insertMs / 1000).toFixed(1)} s`,
  );
  // Warm-up: load the route and the prepared statements before measuring.
  await fetch(`${server.baseUrl}/v1beta/cachedContents?pageSize=1`, {
    headers: { "x-goog-api-key": KEY },
  });
  for (const pageSize of pageSizes) await walk(server.baseUrl, pageSize);
} finally {
  process.kill(-server.child.pid, "SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
