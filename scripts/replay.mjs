#!/usr/bin/env node
// The replay conformance figures, by hand: `npm run replay [-- --target local|gateway|both]
// [--set sdk|agents|all] [--details CATEGORY] [--only TEXT] [--app-dir DIR]`. Starts the
// production build (run `npm run build` first) as a local engine, and as a gateway in front of
// the replay upstream (e2e/support/replay/replay-upstream.mjs), sends every recorded request of
// each set (e2e/support/replay/exchanges.mjs: the SDKs' recordings, the agent frameworks') to
// each, recording by recording in recorded order, and prints the figures per set and category
// with the most common open differences, then the operations not compared yet.
// `--details shape` lists every open difference of that category; `--by-family promptTokens`
// gives a category's figures per model family of the engine's catalog (the family answering
// for each recorded model, its aliases followed); `--by-source promptTokens` per repository
// the recordings come from (to check rules fitted on some sources on the others).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";
import {
  ALLOW_LIST_FILE,
  loadSet,
  REPLAY_SETS,
  requestedModel,
} from "../e2e/support/replay/exchanges.mjs";
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
    set: { type: "string", default: "all" },
    details: { type: "string" },
    "by-family": { type: "string" },
    "by-source": { type: "string" },
    only: { type: "string" },
    "app-dir": { type: "string" },
  },
});

const KEY = "replay-studio-key-0123456789";
const UPSTREAM_KEY = "replay-upstream-key-0123456789";
const cwd = values["app-dir"] ? path.resolve(values["app-dir"]) : process.cwd();
const allowList = JSON.parse(fs.readFileSync(ALLOW_LIST_FILE, "utf8"));
const sets = REPLAY_SETS.map((set) => ({ ...set, exchanges: loadSet(set) }));
const everyExchange = sets.flatMap((set) => set.exchanges);
const chosenSets = sets
  .filter((set) => values.set === "all" || set.name === values.set)
  .map((set) => ({
    ...set,
    exchanges: values.only
      ? set.exchanges.filter((exchange) => exchange.id.includes(values.only))
      : set.exchanges,
  }));

function report(title, run) {
  console.log(formatFigures(title, run.table, run.elapsedMs, run.uncompared));
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
  if (values["by-family"]) reportBy(run, values["by-family"], "model family", familyOf);
  if (values["by-source"])
    reportBy(run, values["by-source"], "source", (exchange) => exchange.source.repo);
  for (const entry of run.stale)
    console.log(`  stale allow-list entry (${entry.category}): ${entry.id}`);
  for (const rule of run.usedRules) usedRules.add(rule);
}

/** Rule entries (`category:rule`) that explained something in a run of this invocation. */
const usedRules = new Set();

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

/** A category's figures per key of its exchanges (model family, source repository). */
function reportBy(run, category, label, keyOf) {
  const rows = new Map();
  for (const item of run.judged) {
    const verdict = item.verdicts[category];
    if (!verdict?.applies) continue;
    const key = keyOf(item.exchange);
    const row = rows.get(key) ?? { applicable: 0, passed: 0, explained: 0, open: 0 };
    row.applicable += 1;
    if (verdict.problems.length === 0) row.passed += 1;
    else if ((verdict.open ?? verdict.problems).length === 0) row.explained += 1;
    else row.open += 1;
    rows.set(key, row);
  }
  console.log(`  ${category} by ${label}:`);
  for (const [key, row] of [...rows].sort(([left], [right]) => left.localeCompare(right))) {
    const rest = [
      row.explained ? `${row.explained} allow-listed` : "",
      row.open ? `${row.open} open` : "",
    ]
      .filter(Boolean)
      .join(", ");
    console.log(
      `    ${key.padEnd(36)} ${String(row.passed).padStart(4)} / ${String(row.applicable).padEnd(4)}${rest ? `  (${rest})` : ""}`,
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

for (const set of chosenSets) {
  const { exchanges } = set;
  if (values.target === "local" || values.target === "both") {
    const run = await withServer({}, (server) =>
      conformance({
        baseUrl: server.baseUrl,
        key: KEY,
        exchanges,
        allowList,
        target: "local",
        formatSource: everyExchange,
      }),
    );
    report(`replay (${set.title}): local engine, ${exchanges.length} recorded exchanges`, run);
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
            formatSource: everyExchange,
          }),
      );
      report(
        `replay (${set.title}): gateway in front of the replay upstream, ${exchanges.length} recorded exchanges`,
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
}

for (const entry of allowList.entries ?? []) {
  const key = `${entry.category}:${entry.rule}`;
  if (
    entry.rule &&
    values.set === "all" &&
    values.target === "both" &&
    !values.only &&
    !usedRules.has(key)
  )
    console.log(`  allow-list rule that explained nothing in this run: ${key}`);
}
