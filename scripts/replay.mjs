#!/usr/bin/env node
// The replay conformance figures, by hand: `npm run replay [-- --target local|gateway|both]
// [--details CATEGORY] [--only TEXT] [--app-dir DIR]`. Starts the production build (run
// `npm run build` first) as a local engine, and as a gateway in front of the replay upstream
// (e2e/support/replay/replay-upstream.mjs), sends every recorded request of
// e2e/fixtures/recorded-exchanges to each, and prints the figures per category with the most
// common open differences. `--details shape` lists every open difference of that category.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";
import { FIXTURE_DIR, loadExchanges } from "../e2e/support/replay/exchanges.mjs";
import { startReplayUpstream } from "../e2e/support/replay/replay-upstream.mjs";
import {
  CATEGORIES,
  commonProblems,
  conformance,
  formatFigures,
} from "../e2e/support/replay/run.mjs";

const { values } = parseArgs({
  options: {
    target: { type: "string", default: "both" },
    details: { type: "string" },
    only: { type: "string" },
    "app-dir": { type: "string" },
  },
});

const KEY = "replay-studio-key-0123456789";
const UPSTREAM_KEY = "replay-upstream-key-0123456789";
const cwd = values["app-dir"] ? path.resolve(values["app-dir"]) : process.cwd();
const allowList = JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, "allow-list.json"), "utf8"));
let exchanges = loadExchanges();
if (values.only) exchanges = exchanges.filter((exchange) => exchange.id.includes(values.only));

function report(title, run) {
  console.log(formatFigures(title, run.table, run.elapsedMs));
  for (const [category] of CATEGORIES) {
    const common = commonProblems(run.judged, category, 8);
    if (!common.length) continue;
    console.log(`    ${category}:`);
    for (const [problem, count] of common)
      console.log(`      ${String(count).padStart(4)}  ${problem}`);
  }
  if (values.details) {
    for (const item of run.judged) {
      const verdict = item.verdicts[values.details];
      if (!verdict?.open?.length) continue;
      console.log(`  ${item.exchange.id}`);
      for (const problem of verdict.open) console.log(`      ${problem}`);
    }
  }
  for (const entry of run.stale)
    console.log(`  stale allow-list entry (${entry.category}): ${entry.id}`);
}

async function withServer(env, work) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-replay-"));
  const server = await startOwnServer({
    dataDir,
    cwd,
    env: {
      STUDIO_API_KEYS: `replay:${KEY}`,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      STUDIO_MAX_STREAMS_PER_KEY: "0",
      ...env,
    },
  });
  try {
    return await work(server);
  } finally {
    await server.stop("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (values.target === "local" || values.target === "both") {
  const run = await withServer({}, (server) =>
    conformance({ baseUrl: server.baseUrl, key: KEY, exchanges, allowList, target: "local" }),
  );
  report(`replay: local engine, ${exchanges.length} recorded exchanges`, run);
}

if (values.target === "gateway" || values.target === "both") {
  const upstream = await startReplayUpstream({ exchanges });
  try {
    const run = await withServer(
      { GEMINI_API_KEY: UPSTREAM_KEY, GEMINI_BASE_URL: upstream.url, UPSTREAM_MAX_ATTEMPTS: "1" },
      (server) =>
        conformance({
          baseUrl: server.baseUrl,
          key: KEY,
          exchanges,
          allowList,
          target: "gateway",
          onGroup: (group) => upstream.useGroup(group),
        }),
    );
    report(
      `replay: gateway in front of the replay upstream, ${exchanges.length} recorded exchanges`,
      run,
    );
    for (const request of upstream.unmatched)
      console.log(
        `  the replay upstream matched nothing for ${request.method} ${request.path} (${request.group})`,
      );
  } finally {
    await upstream.close();
  }
}
