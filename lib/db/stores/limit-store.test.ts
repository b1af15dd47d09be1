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
