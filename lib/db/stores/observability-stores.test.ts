import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import type { UsageIncrement } from "./usage-store";
import type { StoredRequestLog } from "./request-log-store";

function increment(overrides: Partial<UsageIncrement>): UsageIncrement {
  return {
    day: "2025-06-01",
    ownerId: "person:a",
    personId: "a",
    keyId: "k1",
    model: "models/gemini-2.5-flash",
    requests: 1,
    promptTokens: 10,
    cachedTokens: 2,
    outputTokens: 5,
    thoughtTokens: 1,
    totalTokens: 16,
    nanodollars: 1000,
    ...overrides,
  };
}

function logEntry(overrides: Partial<StoredRequestLog>): StoredRequestLog {
  return {
    id: "log-1",
    ownerId: "person:a",
    personId: "a",
    keyId: "k1",
    at: 1_000,
    operation: "generateContent",
    model: "gemini-2.5-flash",
    status: 200,
    durationMs: 12,
    totalTokens: 16,
    nanodollars: 1000,
    expiresAt: 10_000,
    exchangeJson: '{"method":"POST"}',
    ...overrides,
  };
}

describe.each(testDatabaseKinds())("usage, request logs and audit stores ($dialect)", (kind) => {
  let data: TestDatabase;
  beforeEach(async () => {
    data = await kind.open();
  });
  afterEach(async () => {
    await data.cleanup();
  });

  it("adds increments into one row per day, workspace, person, key and model, from racing writers", async () => {
    const usage = data.stores.usage;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        usage.add([increment({}), increment({ model: "models/gemini-2.5-pro" })]),
      ),
    );
    await usage.add([increment({ day: "2025-06-02", keyId: "", totalTokens: 4, requests: 2 })]);
    await usage.add([increment({ personId: "b", ownerId: "person:b", keyId: "k2" })]);
    const all = await usage.summary({ from: "2025-06-01", to: "2025-06-30" });
    expect(all.total.requests).toBe(20 + 20 + 2 + 1);
    expect(all.total.totalTokens).toBe(40 * 16 + 4 + 16);
    expect(all.byDay.map((row) => [row.day, row.requests])).toEqual([
      ["2025-06-01", 41],
      ["2025-06-02", 2],
    ]);
    expect(all.byModel.map((row) => [row.model, row.totalTokens])).toEqual([
      ["models/gemini-2.5-flash", 21 * 16 + 4],
      ["models/gemini-2.5-pro", 20 * 16],
    ]);
    expect(all.byKey.find((row) => row.keyId === "k1")).toMatchObject({
      personId: "a",
      requests: 40,
      promptTokens: 400,
      cachedTokens: 80,
      outputTokens: 200,
      thoughtTokens: 40,
      nanodollars: 40_000,
    });
    expect(all.byPerson.map((row) => row.personId).sort()).toEqual(["a", "b"]);

    const own = await usage.summary({ from: "2025-06-01", to: "2025-06-30", personId: "b" });
    expect(own.total.requests).toBe(1);
    expect(own.byKey.map((row) => row.keyId)).toEqual(["k2"]);
    const oneDay = await usage.summary({
      from: "2025-06-02",
      to: "2025-06-02",
      model: "models/gemini-2.5-flash",
    });
    expect(oneDay.total).toMatchObject({ requests: 2, totalTokens: 4 });
    const none = await usage.summary({ from: "2024-01-01", to: "2024-01-31" });
    expect(none.total.requests).toBe(0);
    expect(none.byDay).toEqual([]);
  });

  it("claims an answer's recording once, however many readers race for it", async () => {
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => data.stores.usage.claimRecording("batch:batches/b1")),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await data.stores.usage.claimRecording("batch:batches/b2")).toBe(true);
  });

  it("pages ledger rows in order for exports", async () => {
    const usage = data.stores.usage;
    await usage.add(
      Array.from({ length: 30 }, (_, index) =>
        increment({
          day: `2025-06-${String((index % 3) + 1).padStart(2, "0")}`,
          keyId: `k${index}`,
        }),
      ),
    );
    const first = await usage.rows({ from: "2025-06-01", to: "2025-06-30" });
    expect(first).toHaveLength(30);
    expect(first.map((row) => row.day)).toEqual([...first.map((row) => row.day)].sort());
    const after = await usage.rows({ from: "2025-06-01", to: "2025-06-30" }, first[14]!);
    expect(after).toEqual(first.slice(15));
  });

  it("lists logs newest first with filters and pages, and sweeps what expired", async () => {
    const logs = data.stores.requestLogs;
    await logs.add([
      logEntry({ id: "a1", at: 100 }),
      logEntry({ id: "a2", at: 200, status: 429, model: "gemini-2.5-pro" }),
      logEntry({ id: "a3", at: 300, keyId: "", expiresAt: 500 }),
      logEntry({ id: "b1", at: 250, personId: "b", ownerId: "person:b", keyId: "k2" }),
    ]);
    const ids = async (filter: Parameters<typeof logs.list>[0]) =>
      (await logs.list(filter)).map((entry) => entry.id);
    expect(await ids({ limit: 10 })).toEqual(["a3", "b1", "a2", "a1"]);
    expect(await ids({ personId: "a", limit: 10 })).toEqual(["a3", "a2", "a1"]);
    expect(await ids({ personId: "a", keyId: "k1", limit: 10 })).toEqual(["a2", "a1"]);
    expect(await ids({ status: 400, statusClass: true, limit: 10 })).toEqual(["a2"]);
    expect(await ids({ status: 200, limit: 10 })).toEqual(["a3", "b1", "a1"]);
    expect(await ids({ model: "gemini-2.5-pro", limit: 10 })).toEqual(["a2"]);
    expect(await ids({ from: 150, to: 260, limit: 10 })).toEqual(["b1", "a2"]);
    expect(await ids({ before: { at: 250, id: "b1" }, limit: 1 })).toEqual(["a2"]);
    expect((await logs.get("a2"))?.exchangeJson).toBe('{"method":"POST"}');
    expect(await logs.get("missing")).toBeNull();
    expect(await logs.sweep(600)).toBe(1);
    expect(await ids({ limit: 10 })).toEqual(["b1", "a2", "a1"]);
  });

  it("keeps log settings per subject and moves the auth version with each change", async () => {
    const logs = data.stores.requestLogs;
    const before = await data.stores.authState.version();
    await logs.setSettings("key:k1", { retentionDays: 7, includeMedia: false });
    expect(await logs.settings("key:k1")).toEqual({
      subject: "key:k1",
      retentionDays: 7,
      includeMedia: false,
    });
    await logs.setSettings("key:k1", { retentionDays: 30, includeMedia: true });
    expect((await logs.settings("key:k1"))?.retentionDays).toBe(30);
    await logs.setSettings("key:k1", null);
    expect(await logs.settings("key:k1")).toBeNull();
    expect(await data.stores.authState.version()).toBe(before + 3);
  });

  it("adds audit events and lists them newest first with filters", async () => {
    const audit = data.stores.audit;
    await audit.add(
      { actorId: "a", actor: "a@x.test", action: "key.create", target: "key:1", details: {} },
      100,
    );
    await audit.add(
      {
        actorId: "b",
        actor: "b@x.test",
        action: "person.update",
        target: "person:a",
        details: { role: "admin" },
      },
      200,
    );
    const all = await audit.list({ limit: 10 });
    expect(all.map((event) => event.action)).toEqual(["person.update", "key.create"]);
    expect(all[0]!.details).toEqual({ role: "admin" });
    expect((await audit.list({ actorId: "a", limit: 10 })).map((event) => event.target)).toEqual([
      "key:1",
    ]);
    expect(
      (await audit.list({ before: { at: all[0]!.at, id: all[0]!.id }, limit: 10 })).length,
    ).toBe(1);
  });
});
