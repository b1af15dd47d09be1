/**
 * Replay conformance: every recorded request of the real service
 * (e2e/fixtures/recorded-exchanges) sent to a local engine of this spec's own, and to a
 * gateway of its own in front of the replay upstream (which answers with the recorded
 * answers), each answer compared with the service's per category (status, error status and
 * message, shape, formats, stream framing, prompt and cache tokens). Differences no
 * emulator can remove are explained in allow-list.json, each with its reason; an entry that
 * explains nothing fails the run, so the list only shrinks. Differences not yet removed are
 * bounded per category by open-budget.json, which only goes down. The figures are printed;
 * `npm run replay` prints them with the differences behind them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { FIXTURE_DIR, loadExchanges } from "./support/replay/exchanges.mjs";
import { startReplayUpstream, type ReplayUpstream } from "./support/replay/replay-upstream.mjs";
import { CATEGORIES, conformance, formatFigures, type Conformance } from "./support/replay/run.mjs";

test.describe.configure({ mode: "serial", timeout: 300_000 });

const KEY = "replay-studio-key-0123456789";
const UPSTREAM_KEY = "replay-upstream-key-0123456789";
const exchanges = loadExchanges();
const allowList = JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, "allow-list.json"), "utf8"));
const budget = JSON.parse(
  fs.readFileSync(path.join(FIXTURE_DIR, "open-budget.json"), "utf8"),
) as Record<"local" | "gateway", Record<string, number>>;

const servers: OwnServer[] = [];
let upstream: ReplayUpstream | undefined;

async function ownServer(env: Record<string, string>): Promise<OwnServer> {
  const server = await startOwnServer({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-replay-spec-")),
    env: {
      STUDIO_API_KEYS: `replay:${KEY}`,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      STUDIO_MAX_STREAMS_PER_KEY: "0",
      ...env,
    },
  });
  servers.push(server);
  return server;
}

test.afterAll(async () => {
  for (const server of servers) {
    await server.stop("SIGTERM");
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  await upstream?.close();
});

function expectWithinBudget(run: Conformance, target: "local" | "gateway"): void {
  console.log(
    formatFigures(
      `replay: ${target}, ${exchanges.length} recorded exchanges`,
      run.table,
      run.elapsedMs,
    ),
  );
  expect(run.stale, "allow-list entries that explain nothing (remove them)").toEqual([]);
  for (const [category] of CATEGORIES) {
    const open = run.table[category]?.open ?? 0;
    const allowed = budget[target][category] ?? 0;
    const examples = run.judged
      .filter((item) => item.verdicts[category]?.open?.length)
      .slice(0, 5)
      .map((item) => `${item.exchange.id}: ${item.verdicts[category]!.open!.join("; ")}`);
    expect(
      open,
      `${target} ${category}: open differences (budget ${allowed})\n${examples.join("\n")}`,
    ).toBeLessThanOrEqual(allowed);
  }
}

test("the local engine answers every recorded request as the service did", async () => {
  const server = await ownServer({});
  const run = await conformance({
    baseUrl: server.baseUrl,
    key: KEY,
    exchanges,
    allowList,
    target: "local",
  });
  expectWithinBudget(run, "local");
});

test("the gateway passes every recorded answer of the service through unchanged", async () => {
  upstream = await startReplayUpstream({ exchanges });
  const replay = upstream;
  const server = await ownServer({
    GEMINI_API_KEY: UPSTREAM_KEY,
    GEMINI_BASE_URL: replay.url,
    UPSTREAM_MAX_ATTEMPTS: "1",
  });
  const run = await conformance({
    baseUrl: server.baseUrl,
    key: KEY,
    exchanges,
    allowList,
    target: "gateway",
    onGroup: (group) => replay.useGroup(group),
  });
  expect(replay.unmatched, "requests the replay upstream has no recording for").toEqual([]);
  expectWithinBudget(run, "gateway");
});
