import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import { SPAN_LENGTHS, dayNumber, rangePieces } from "./usage-rollup";
import type { UsageFilter, UsageIncrement } from "./usage-store";

/** A small deterministic generator (mulberry32), so a failure is found again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST_DAY = dayNumber("2025-01-01");
const DAYS = 420;
const MODELS = ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-embedding-001"];

function day(number: number): string {
  return new Date(number * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Answers of a few workspaces, people and keys (a browser's '' key in two workspaces, so
 * rollup rows meet increments of several ledger rows), spread over DAYS days.
 */
function increments(next: () => number, count: number): UsageIncrement[] {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  return Array.from({ length: count }, () => {
    const person = pick(["", "a", "b", "c"]);
    const prompt = Math.floor(next() * 5000);
    const output = Math.floor(next() * 800);
    return {
      day: day(FIRST_DAY + Math.floor(next() * DAYS)),
      ownerId: person === "" ? pick(["studio", "team"]) : `person:${person}`,
      personId: person,
      keyId: pick(["", `k-${person}1`, `k-${person}2`, "env:ci"]),
      model: pick(MODELS),
      requests: 1 + Math.floor(next() * 3),
      promptTokens: prompt,
      cachedTokens: Math.floor(prompt * next()),
      outputTokens: output,
      thoughtTokens: Math.floor(next() * 100),
      totalTokens: prompt + output,
      nanodollars: Math.floor(next() * 5_000_000),
    };
  });
}

/** Ranges of every length at every alignment, each with and without a model. */
function filters(next: () => number): UsageFilter[] {
  const found: UsageFilter[] = [
    { from: day(FIRST_DAY - 10), to: day(FIRST_DAY + DAYS + 10) },
    { from: day(FIRST_DAY + 40), to: day(FIRST_DAY + 40) },
    { from: day(FIRST_DAY + 500), to: day(FIRST_DAY + 530) },
  ];
  for (let index = 0; index < 20; index++) {
    const from = FIRST_DAY - 5 + Math.floor(next() * (DAYS + 10));
    const length = 1 + Math.floor(next() * (index % 3 === 0 ? 366 : 40));
    found.push({ from: day(from), to: day(from + length - 1) });
  }
  return found.flatMap((filter, index) => [
    filter,
    { ...filter, model: MODELS[index % MODELS.length]! },
  ]);
}

describe("a range of days as spans of the rollup", () => {
  it("covers every day once, with aligned spans and single days only at its ends", () => {
    const next = random(7);
    for (let index = 0; index < 500; index++) {
      const from = 20_000 + Math.floor(next() * 1000);
      const to = from + Math.floor(next() * 366);
      const { spans, days } = rangePieces(day(from), day(to));
      const covered: number[] = days.map(dayNumber);
      for (const span of spans) {
        const first = dayNumber(span.firstDay);
        expect(SPAN_LENGTHS).toContain(span.length);
        expect(first % span.length).toBe(0);
        for (let at = first; at < first + span.length; at++) covered.push(at);
      }
      covered.sort((a, b) => a - b);
      expect(covered).toEqual(Array.from({ length: to - from + 1 }, (_, at) => from + at));
      expect(days.length).toBeLessThanOrEqual(2);
      expect(spans.length).toBeLessThanOrEqual(2 * SPAN_LENGTHS.length);
    }
  });
});

describe.each(testDatabaseKinds())("usage rollups ($dialect)", (kind) => {
  let data: TestDatabase;
  beforeEach(async () => {
    data = await kind.open();
  });
  afterEach(async () => {
    await data.cleanup();
  });

  async function expectRollupsEqualLedger() {
    for (const filter of filters(random(11))) {
      const fromLedger = await data.stores.usage.summaryFromLedger(filter);
      expect(await data.stores.usage.summaryFromRollups(filter)).toEqual(fromLedger);
      expect(await data.stores.usage.summary(filter)).toEqual(fromLedger);
    }
  }

  it("answers everyone's report as the ledger's own sums, written by racing writers", async () => {
    const next = random(3);
    const batches = Array.from({ length: 8 }, () => increments(next, 150));
    // Batches written at once, as several instances flush, each its own transaction.
    await Promise.all(batches.map((batch) => data.stores.usage.add(batch)));
    const everything = await data.stores.usage.summaryFromLedger({
      from: day(FIRST_DAY),
      to: day(FIRST_DAY + DAYS),
    });
    expect(everything.byKey.length).toBeGreaterThan(10);
    expect(everything.total.requests).toBe(
      batches.flat().reduce((sum, increment) => sum + increment.requests, 0),
    );
    await expectRollupsEqualLedger();
  });

  it("fills the rollups from a ledger written before them (migration 22)", async () => {
    await data.stores.usage.add(increments(random(5), 1500));
    // The ledger as an older version left it: the rollups not there yet.
    await data.database.transaction(async (transaction) => {
      await transaction.exec(
        "DROP TABLE usage_daily_models; DROP TABLE usage_spans; DROP TABLE usage_awaited",
      );
      await transaction.run("DELETE FROM schema_migrations WHERE version = 22");
    });
    await migrate(data.database);
    await expectRollupsEqualLedger();
    // And kept from there on.
    await data.stores.usage.add(increments(random(6), 300));
    await expectRollupsEqualLedger();
  });
});
