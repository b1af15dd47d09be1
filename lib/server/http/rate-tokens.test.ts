import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LimitStore } from "@/lib/db/stores/limit-store";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import { takeHeldRateToken, takeNewBatch, takeRateToken } from "./rate-tokens";

/** The store, with its batch takes counted (each is one statement). */
function counted(limits: LimitStore): { store: LimitStore; takes: () => number } {
  let takes = 0;
  const store = Object.create(limits) as LimitStore;
  store.takeBatch = (...args) => {
    takes++;
    return limits.takeBatch(...args);
  };
  return { store, takes: () => takes };
}

const freshBucket = () => `key:${randomBytes(6).toString("hex")}`;

describe.each(testDatabaseKinds())("takeRateToken ($dialect)", (kind) => {
  let data: TestDatabase;
  beforeEach(async () => {
    data = await kind.open();
  });
  afterEach(async () => {
    await data.cleanup();
  });

  it("serves a fast caller from batches: far fewer statements than requests, no more tokens than the bucket's", async () => {
    const { store, takes } = counted(data.stores.limits);
    const rate = { requestsPerMinute: 0.001, burst: 10_000 };
    const bucket = freshBucket();
    for (let index = 0; index < 400; index++)
      expect(await takeRateToken(store, bucket, rate)).toEqual({ taken: true, waitSeconds: 0 });
    expect(takes()).toBeLessThan(400 / 4);
    // What is left in the shared bucket: the 400 served and at most one batch held here.
    const left = await data.database.get<{ tokens: number }>(
      "SELECT tokens FROM rate_buckets WHERE bucket = ?",
      [bucket],
    );
    expect(10_000 - Number(left!.tokens)).toBeGreaterThanOrEqual(400);
    expect(10_000 - Number(left!.tokens)).toBeLessThanOrEqual(400 + 100);
  });

  it("hands out held tokens without a promise, then a new batch; nothing is held past half a second", async () => {
    const { store, takes } = counted(data.stores.limits);
    const rate = { requestsPerMinute: 0.001, burst: 10_000 };
    const bucket = freshBucket();
    let fromHeld = 0;
    for (let index = 0; index < 200; index++) {
      const held = takeHeldRateToken(bucket);
      expect(typeof held).toBe("boolean");
      if (held) fromHeld++;
      else expect((await takeNewBatch(store, bucket, rate)).taken).toBe(true);
    }
    expect(fromHeld + takes()).toBe(200);
    expect(fromHeld).toBeGreaterThan(200 / 2);
    const left = await data.database.get<{ tokens: number }>(
      "SELECT tokens FROM rate_buckets WHERE bucket = ?",
      [bucket],
    );
    // Every token handed out came from the shared bucket: the 200, and at most one batch held.
    expect(10_000 - Number(left!.tokens)).toBeGreaterThanOrEqual(200);
    expect(10_000 - Number(left!.tokens)).toBeLessThanOrEqual(200 + 100);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(takeHeldRateToken(bucket)).toBe(false);
  });

  it("takes one token per request at a slow pace", async () => {
    const { store, takes } = counted(data.stores.limits);
    const rate = { requestsPerMinute: 60, burst: 100 };
    const bucket = freshBucket();
    for (let index = 0; index < 3; index++) {
      expect((await takeRateToken(store, bucket, rate)).taken).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(takes()).toBe(3);
  });

  it("shares one bucket with another instance: together they get the burst, then the wait", async () => {
    const other = await data.reopen();
    const rate = { requestsPerMinute: 0.001, burst: 30 };
    const bucket = freshBucket();
    let granted = 0;
    let refusal = null;
    for (let index = 0; index < 60; index++) {
      const decision =
        index % 2 === 0
          ? await takeRateToken(data.stores.limits, bucket, rate)
          : await other.stores.limits.take(bucket, rate, Date.now());
      if (decision.taken) granted++;
      else refusal = decision;
    }
    expect(granted).toBe(30);
    expect(refusal!.waitSeconds).toBeGreaterThan(60);
    await other.database.close();
  });
});
