import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import type { LimitStore } from "./limit-store";

describe.each(testDatabaseKinds())("LimitStore ($dialect)", (kind) => {
  let data: TestDatabase;
  let limits: LimitStore;
  beforeEach(async () => {
    data = await kind.open();
    limits = data.stores.limits;
  });
  afterEach(async () => {
    await data.cleanup();
  });

  it("allows a burst, then refuses with the wait until a token refills", async () => {
    const rate = { requestsPerMinute: 60, burst: 3 };
    let now = 1_000_000;
    for (let index = 0; index < 3; index++)
      expect(await limits.take("key:a", rate, now)).toEqual({ taken: true, waitSeconds: 0 });
    const refused = await limits.take("key:a", rate, now);
    expect(refused.taken).toBe(false);
    expect(refused.waitSeconds).toBeCloseTo(1, 5);
    // A refusal spends nothing: the next token is still due one second after the burst.
    now += 500;
    expect((await limits.take("key:a", rate, now)).waitSeconds).toBeCloseTo(0.5, 5);
    // Another caller has its own bucket.
    expect((await limits.take("key:b", rate, now)).taken).toBe(true);
    now += 500;
    expect((await limits.take("key:a", rate, now)).taken).toBe(true);
    expect((await limits.take("key:a", rate, now)).taken).toBe(false);
    // A clock behind the bucket's (another instance's) refills nothing and breaks nothing.
    expect((await limits.take("key:a", rate, now - 5_000)).taken).toBe(false);
  });

  it("takes a batch of at most a tenth of what the bucket holds, one at a time near empty", async () => {
    const rate = { requestsPerMinute: 0.001, burst: 100 };
    expect(await limits.takeBatch("key:batch", rate, 1_000, 50)).toEqual({
      taken: true,
      waitSeconds: 0,
      count: 10,
    });
    expect((await limits.takeBatch("key:batch", rate, 1_000, 50)).count).toBe(9);
    expect((await limits.takeBatch("key:batch", rate, 1_000, 3)).count).toBe(3);
    const counts: number[] = [];
    for (;;) {
      const decision = await limits.takeBatch("key:batch", rate, 1_000, 50);
      if (!decision.taken) {
        expect(decision.count).toBe(0);
        expect(decision.waitSeconds).toBeGreaterThan(0);
        break;
      }
      counts.push(decision.count);
    }
    // Every token of the bucket was taken once, the last ones singly.
    expect(10 + 9 + 3 + counts.reduce((sum, count) => sum + count, 0)).toBe(100);
    expect(counts.slice(-10)).toEqual(Array(10).fill(1));
    expect((await limits.take("key:batch", rate, 1_000)).taken).toBe(false);
  });

  it("spends each token once when many requests race for them", async () => {
    const rate = { requestsPerMinute: 1, burst: 10 };
    const decisions = await Promise.all(
      Array.from({ length: 40 }, () => limits.take("key:race", rate, 5_000)),
    );
    expect(decisions.filter((decision) => decision.taken)).toHaveLength(10);
  });

  it("finds a session's owner and takes its token together; an unknown session takes nothing", async () => {
    const rate = { requestsPerMinute: 60, burst: 2 };
    await data.stores.sessions.create({
      tokenHash: "hash-1",
      ownerId: "studio",
      codeBinding: "code-a",
      createdAt: 0,
      expiresAt: 10_000,
    });
    expect(await limits.findSessionOwnerAndTake("hash-1", "code-a", 1_000, rate)).toEqual({
      session: { ownerId: "studio", personId: null, workspaceOwnerId: null },
      rate: { taken: true, waitSeconds: 0 },
    });
    expect(await limits.findSessionOwnerAndTake("hash-1", "code-a", 1_000, null)).toEqual({
      session: { ownerId: "studio", personId: null, workspaceOwnerId: null },
      rate: null,
    });
    expect(
      (await limits.findSessionOwnerAndTake("hash-1", "code-a", 1_000, rate)).rate?.taken,
    ).toBe(true);
    expect(
      (await limits.findSessionOwnerAndTake("hash-1", "code-a", 1_000, rate)).rate?.taken,
    ).toBe(false);
    // The bucket is the owner's: a key-less take by owner id sees the same budget.
    expect((await limits.take("studio", rate, 1_000)).taken).toBe(false);
    expect(await limits.findSessionOwnerAndTake("nope", "code-a", 1_000, rate)).toEqual({
      session: null,
      rate: null,
    });
    expect(await limits.findSessionOwnerAndTake("hash-1", "code-a", 20_000, rate)).toEqual({
      session: null,
      rate: null,
    });
    // A session opened with another access code is no session now.
    expect(await limits.findSessionOwnerAndTake("hash-1", "code-b", 1_000, rate)).toEqual({
      session: null,
      rate: null,
    });
  });

  it("reads a key's spend of the day and month with its token, each added from anywhere", async () => {
    const rate = { requestsPerMinute: 60, burst: 2 };
    const query = { keyId: "k1", day: "2026-12-02", month: "2026-12" };
    // None yet: zeros, with or without a rate.
    expect(await limits.takeWithSpend("apikey:k1", rate, 1_000, query)).toEqual({
      rate: { taken: true, waitSeconds: 0 },
      spend: { dayTokens: 0, dayNanodollars: 0, monthTokens: 0, monthNanodollars: 0 },
    });
    await limits.addSpend([
      { keyId: "k1", period: "2026-12-02", tokens: 10, nanodollars: 7 },
      { keyId: "k1", period: "2026-12", tokens: 10, nanodollars: 7 },
      { keyId: "k2", period: "2026-12-02", tokens: 99, nanodollars: 99 },
    ]);
    await limits.addSpend([
      { keyId: "k1", period: "2026-12-01", tokens: 5, nanodollars: 5 },
      { keyId: "k1", period: "2026-12", tokens: 5, nanodollars: 5 },
    ]);
    // Read again and again: the statement prepared once on PostgreSQL answers alike.
    for (let index = 0; index < 6; index++) {
      const found = await limits.takeWithSpend("apikey:k1", null, 2_000, query);
      expect(found).toEqual({
        rate: null,
        spend: { dayTokens: 10, dayNanodollars: 7, monthTokens: 15, monthNanodollars: 12 },
      });
    }
    const taken = await limits.takeWithSpend("apikey:k1", rate, 1_000, query);
    expect(taken.rate).toEqual({ taken: true, waitSeconds: 0 });
    expect(taken.spend?.monthTokens).toBe(15);
    expect((await limits.takeWithSpend("apikey:k1", rate, 1_000, query)).rate?.taken).toBe(false);
  });

  it("gives back a refunded token, never beyond the bucket's size", async () => {
    const rate = { requestsPerMinute: 1, burst: 2 };
    expect((await limits.take("sign-in:x", rate, 0)).taken).toBe(true);
    expect((await limits.take("sign-in:x", rate, 0)).taken).toBe(true);
    expect((await limits.take("sign-in:x", rate, 0)).taken).toBe(false);
    await limits.refund("sign-in:x", rate);
    expect((await limits.take("sign-in:x", rate, 0)).taken).toBe(true);
    for (let index = 0; index < 5; index++) await limits.refund("sign-in:x", rate);
    expect((await limits.take("sign-in:x", rate, 0)).taken).toBe(true);
    expect((await limits.take("sign-in:x", rate, 0)).taken).toBe(true);
    expect((await limits.take("sign-in:x", rate, 0)).taken).toBe(false);
  });

  it("caps open streams per owner across instances; a dead instance's slots expire", async () => {
    const a = await limits.acquireStream("key:a", 2, "instance-1", 0, 30_000);
    expect(a).not.toBeNull();
    expect(await limits.acquireStream("key:a", 2, "instance-2", 0, 30_000)).not.toBeNull();
    expect(await limits.acquireStream("key:a", 2, "instance-1", 0, 30_000)).toBeNull();
    expect(await limits.acquireStream("key:b", 2, "instance-1", 0, 30_000)).not.toBeNull();
    await limits.releaseStream(a!);
    expect(await limits.openStreams("key:a", 0)).toBe(1);
    expect(await limits.acquireStream("key:a", 2, "instance-1", 0, 30_000)).not.toBeNull();
    // instance-1 renews; instance-2 died (kill -9) and does not: its slot frees itself.
    await limits.renewStreams("instance-1", 20_000, 50_000);
    expect(await limits.openStreams("key:a", 40_000)).toBe(1);
    expect(await limits.acquireStream("key:a", 2, "instance-1", 40_000, 70_000)).not.toBeNull();
    expect(await limits.acquireStream("key:a", 2, "instance-1", 40_000, 70_000)).toBeNull();
  });

  it("never grants more slots than the cap when acquisitions race", async () => {
    const granted = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        limits.acquireStream("key:race", 3, `instance-${index % 2}`, 0, 30_000),
      ),
    );
    expect(granted.filter((id) => id !== null)).toHaveLength(3);
  });
});
