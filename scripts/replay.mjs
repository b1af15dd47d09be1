#!/usr/bin/env node
// The replay conformance figures, by hand: `npm run replay [-- --target local|gateway|both]
// [--details CATEGORY] [--only TEXT] [--app-dir DIR]`. Starts the production build (run
// `npm run build` first) as a local engine, and as a gateway in front of the replay upstream
// (e2e/support/replay/replay-upstream.mjs), sends every recorded request of
// e2e/fixtures/recorded-exchanges to each, and prints the figures per category with the most
// common open differences. `--details shape` lists every open difference of that category;
// `--by-family promptTokens` gives a category's figures per model family of the engine's catalog
// (the family answering for each recorded model, its aliases followed).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";
import { FIXTURE_DIR, loadExchanges, requestedModel } from "../e2e/support/replay/exchanges.mjs";
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
    "by-family": { type: "string" },
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
  if (values["by-family"]) reportByFamily(run, values["by-family"]);
  for (const entry of run.stale)
    console.log(`  stale allow-list entry (${entry.category}): ${entry.id}`);
}

const catalog = JSON.parse(
  fs.readFileSync(path.join(cwd, "lib/engine/catalog/models.json"), "utf8"),
);
const catalogModels = new Map(catalog.models.map((model) => [model.name, model]));

/** The catalog family answering for a recorded model (aliases followed), as the engine reads it. */
function familyOf(exchange) {
  const id = requestedModel(exchange);
  let model = id && catalogModels.get(`models/${id}`);
  for (const seen = new Set(); model?.aliasOf && !seen.has(model.name);) {
    seen.add(model.name);
    model = catalogModels.get(model.aliasOf) ?? model;
  }
  return model?.family ?? "(no model)";
}

function reportByFamily(run, category) {
  const rows = new Map();
  for (const item of run.judged) {
    const verdict = item.verdicts[category];
    if (!verdict?.applies) continue;
    const family = familyOf(item.exchange);
    const row = rows.get(family) ?? { applicable: 0, passed: 0, explained: 0, open: 0 };
    row.applicable += 1;
    if (verdict.problems.length === 0) row.passed += 1;
    else if ((verdict.open ?? verdict.problems).length === 0) row.explained += 1;
    else row.open += 1;
    rows.set(family, row);
  }
  console.log(`  ${category} by model family:`);
  for (const [family, row] of [...rows].sort(([left], [right]) => left.localeCompare(right))) {
    const rest = [
      row.explained ? `${row.explained} allow-listed` : "",
      row.open ? `${row.open} open` : "",
    ]
      .filter(Boolean)
      .join(", ");
    console.log(
      `    ${family.padEnd(26)} ${String(row.passed).padStart(4)} / ${String(row.applicable).padEnd(4)}${rest ? `  (${rest})` : ""}`,
    );
  }
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
