/**
 * Replay conformance: every recorded request of the real service, set by set
 * (e2e/fixtures/recorded-exchanges: the SDKs' test recordings; recorded-exchanges-agents: agent
 * frameworks' and observability libraries'), sent to a local engine of this spec's own, and to
 * a gateway of its own in front of the replay upstream (which answers with the recorded
 * answers), each recording in its recorded order, each answer compared with the service's per
 * category (status, error status and message, shape, formats, stream framing, prompt and cache
 * tokens). Differences no emulator can remove are explained in the one replay-allow-list.json,
 * each with its reason; an entry that explains nothing fails the run, so the list only
 * shrinks. Differences not yet removed are bounded per set and category by
 * replay-open-budget.json, which only goes down. Operations the engine does not serve yet are
 * replayed and reported apart, outside the budget (compared-operations.mjs). The figures are
 * printed; `npm run replay` prints them with the differences behind them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import {
  ALLOW_LIST_FILE,
  loadSet,
  OPEN_BUDGET_FILE,
  REPLAY_SETS,
} from "./support/replay/exchanges.mjs";
import { ALLOW_RULES } from "./support/replay/allow-rules.mjs";
import { startReplayUpstream, type ReplayUpstream } from "./support/replay/replay-upstream.mjs";
import { CATEGORIES, conformance, formatFigures, type Conformance } from "./support/replay/run.mjs";

test.describe.configure({ mode: "serial", timeout: 600_000 });

const KEY = "replay-studio-key-0123456789";
const UPSTREAM_KEY = "replay-upstream-key-0123456789";
const sets = REPLAY_SETS.map((set) => ({ ...set, exchanges: loadSet(set) }));
const everyExchange = sets.flatMap((set) => set.exchanges);
const allowList = JSON.parse(fs.readFileSync(ALLOW_LIST_FILE, "utf8"));
type Target = "local" | "gateway";
const budget = JSON.parse(fs.readFileSync(OPEN_BUDGET_FILE, "utf8")) as Record<
  string,
  Record<Target, Record<string, number>>
>;

const servers: OwnServer[] = [];
const upstreams: ReplayUpstream[] = [];

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
  for (const upstream of upstreams) await upstream.close();
});

function expectWithinBudget(run: Conformance, set: (typeof sets)[number], target: Target): void {
  console.log(
    formatFigures(
      `replay (${set.title}): ${target}, ${set.exchanges.length} recorded exchanges`,
      run.table,
      run.elapsedMs,
      run.uncompared,
    ),
  );
  expect(run.stale, "allow-list entries that explain nothing (remove them)").toEqual([]);
  for (const rule of run.usedRules) usedRules[target].add(rule);
  for (const [category] of CATEGORIES) {
    const open = run.table[category]?.open ?? 0;
    const allowed = budget[set.name]?.[target]?.[category] ?? 0;
    const examples = run.judged
      .filter((item) => item.verdicts[category]?.open?.length)
      .slice(0, 5)
      .map((item) => `${item.exchange.id}: ${item.verdicts[category]!.open!.join("; ")}`);
    expect(
      open,
      `${set.name} ${target} ${category}: open differences (budget ${allowed})\n${examples.join("\n")}`,
    ).toBeLessThanOrEqual(allowed);
  }
}

type Entry = {
  category: string;
  reason: string;
  ids?: string[];
  rule?: string;
  targets?: string[];
};
const entries = allowList.entries as Entry[];
/** Rule entries (`category:rule`) that explained something, per target, over every set. */
const usedRules: Record<Target, Set<string>> = { local: new Set(), gateway: new Set() };

test("every allow-list entry names recorded exchanges or a known rule, and gives a reason", () => {
  const known = new Set(everyExchange.map((exchange) => exchange.id));
  for (const entry of entries) {
    expect(entry.reason.length, "an entry's reason").toBeGreaterThan(40);
    expect(Boolean(entry.ids) !== Boolean(entry.rule), "ids or a rule, not both").toBe(true);
    if (entry.rule) expect(Object.keys(ALLOW_RULES)).toContain(entry.rule);
    expect(
      (entry.ids ?? []).filter((id) => !known.has(id)),
      "ids no set holds",
    ).toEqual([]);
  }
});

for (const set of sets) {
  test(`the local engine answers the ${set.title} as the service did`, async () => {
    const server = await ownServer({});
    const run = await conformance({
      baseUrl: server.baseUrl,
      key: KEY,
      exchanges: set.exchanges,
      allowList,
      target: "local",
      formatSource: everyExchange,
    });
    expectWithinBudget(run, set, "local");
  });

  test(`the gateway passes every answer of the ${set.title} through unchanged`, async () => {
    const upstream = await startReplayUpstream({ exchanges: set.exchanges });
    upstreams.push(upstream);
    const server = await ownServer({
      GEMINI_API_KEY: UPSTREAM_KEY,
      GEMINI_BASE_URL: upstream.url,
      UPSTREAM_MAX_ATTEMPTS: "1",
    });
    const run = await conformance({
      baseUrl: server.baseUrl,
      key: KEY,
      exchanges: set.exchanges,
      allowList,
      target: "gateway",
      onGroup: (group) => upstream.useGroup(group),
      formatSource: everyExchange,
    });
    expect(upstream.unmatched, "requests the replay upstream has no recording for").toEqual([]);
    expectWithinBudget(run, set, "gateway");
  });
}

test("every allow-list rule explains a difference of some set", () => {
  for (const target of ["local", "gateway"] as const) {
    const idle = entries
      .filter((entry) => entry.rule && (entry.targets ?? ["local"]).includes(target))
      .map((entry) => `${entry.category}:${entry.rule}`)
      .filter((rule) => !usedRules[target].has(rule));
    expect([...new Set(idle)], `${target}: rules that explain nothing (remove them)`).toEqual([]);
  }
});
