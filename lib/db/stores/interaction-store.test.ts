import { afterEach, describe, expect, it } from "vitest";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import { wholeJson, type InteractionRecord } from "./interaction-store";

/** Events as stored, each a text of its own (the store does not read them). */
const texts = (...events: string[]) => events.map(wholeJson);

function record(id: string, extra: Partial<InteractionRecord> = {}): InteractionRecord {
  return {
    id,
    ownerId: "key:alice",
    previousId: null,
    model: "gemini-2.5-flash",
    agent: null,
    status: "in_progress",
    background: false,
    requestJson: "{}",
    inputContentsJson: JSON.stringify([{ role: "user", parts: [{ text: id }] }]),
    outputContents: null,
    result: null,
    seed: 7,
    attempts: 0,
    eventCount: 0,
    createTime: 1_000,
    updateTime: 1_000,
    ...extra,
  };
}

const ending = (status: "completed" | "cancelled" | "failed" = "completed") => ({
  status,
  result: wholeJson(JSON.stringify({ steps: [] })),
  outputContents: wholeJson(JSON.stringify([{ role: "model", parts: [{ text: "answer" }] }])),
});

describe.each(testDatabaseKinds())("InteractionStore ($dialect)", (kind) => {
  let data: TestDatabase;
  afterEach(async () => {
    await data.cleanup();
  });

  it("stores an interaction with its first events, appends in order only, and finishes once", async () => {
    data = await kind.open();
    const store = data.stores.interactions;
    await store.create(record("a"), texts("e0", "e1"));
    expect((await store.get("a"))?.eventCount).toBe(2);
    expect(await store.appendEvents("a", { from: 2, events: texts("e2", "e3") }, 2_000)).toBe(true);
    // A writer that lost its place (another instance ran on, or a stop wrote first) writes nothing.
    expect(await store.appendEvents("a", { from: 2, events: texts("stale") }, 2_000)).toBe(false);
    expect(await store.startRun("a", 2_000)).toBe(1);
    expect(await store.finish("a", ending(), { from: 4, events: texts("e4") }, 3_000)).toBe(true);
    expect(
      await store.finish("a", ending("failed"), { from: 5, events: texts("again") }, 3_000),
    ).toBe(false);
    expect(await store.startRun("a", 4_000)).toBeNull();
    const events = await store.eventsFrom("a", 1, 10);
    expect(events.map((event) => event.event.json)).toEqual(["e1", "e2", "e3", "e4"]);
    expect(events.map((event) => event.position)).toEqual([1, 2, 3, 4]);
    const stored = await store.get("a");
    expect(stored).toMatchObject({
      status: "completed",
      eventCount: 5,
      attempts: 1,
      updateTime: 3_000,
    });
    expect(JSON.parse(stored!.outputContents!.json)).toEqual([
      { role: "model", parts: [{ text: "answer" }] },
    ]);
    expect(await store.isActive("a")).toBe(false);
  });

  it("stops a running interaction after whatever its run stored, and the run's next write fails", async () => {
    data = await kind.open();
    const store = data.stores.interactions;
    await store.create(record("b", { background: true }), texts("e0"));
    await store.appendEvents("b", { from: 1, events: texts("e1") }, 1_500);
    const stopped = await store.stop(
      "b",
      { status: "cancelled", resultJson: "{}" },
      { count: 2, events: (position) => texts(`cancelled at ${position}`, "completed") },
      2_000,
    );
    expect(stopped).toBe(true);
    expect(await store.appendEvents("b", { from: 2, events: texts("late") }, 2_500)).toBe(false);
    expect(await store.finish("b", ending(), { from: 2, events: texts("late") }, 2_500)).toBe(
      false,
    );
    expect(
      await store.stop(
        "b",
        { status: "cancelled", resultJson: "{}" },
        { count: 1, events: () => texts("twice") },
        3_000,
      ),
    ).toBe(false);
    expect((await store.eventsFrom("b", 0, 10)).map((event) => event.event.json)).toEqual([
      "e0",
      "e1",
      "cancelled at 2",
      "completed",
    ]);
    expect(await store.get("b")).toMatchObject({ status: "cancelled", eventCount: 4 });
    expect(await store.progress("b")).toEqual({ status: "cancelled", eventCount: 4 });
    expect(await store.progress("nobody")).toBeUndefined();
  });

  it("reads a conversation oldest first, and a deleted link ends it", async () => {
    data = await kind.open();
    const store = data.stores.interactions;
    await store.create(record("one"));
    await store.finish("one", ending(), { from: 0, events: texts() }, 1_100);
    await store.create(record("two", { previousId: "one" }));
    await store.create(record("three", { previousId: "two" }));
    const chain = await store.conversation("three");
    expect(chain.map((turn) => JSON.parse(turn.input)[0].parts[0].text)).toEqual([
      "one",
      "two",
      "three",
    ]);
    expect(chain[0]!.output).not.toBeNull();
    expect(chain[2]!.output).toBeNull();
    expect(await store.delete("two")).toBe(true);
    expect(await store.delete("two")).toBe(false);
    expect((await store.conversation("three")).length).toBe(1);
    expect(await store.conversation("nobody")).toEqual([]);
  });

  it("lists what has not ended, claims one run at a time, and sweeps old ended ones", async () => {
    data = await kind.open();
    const store = data.stores.interactions;
    await store.create(record("old", { createTime: 10, updateTime: 10 }), texts("x"));
    await store.finish("old", ending(), { from: 1, events: texts() }, 20);
    await store.create(record("running", { createTime: 30, updateTime: 30 }));
    await store.create(record("queued", { status: "queued", createTime: 40, updateTime: 40 }));
    expect((await store.active(10)).map((item) => item.id)).toEqual(["running", "queued"]);
    const release = await store.claim("running");
    expect(release).not.toBeNull();
    expect(await store.claim("running")).toBeNull();
    // Another instance on the same PostgreSQL sees the claim too (SQLite serves one instance).
    const other = kind.dialect === "postgres" ? (await data.reopen()).stores.interactions : store;
    expect(await other.claim("running")).toBeNull();
    await release!();
    const again = await other.claim("running");
    expect(again).not.toBeNull();
    await again!();
    expect(await store.sweep(25)).toBe(1);
    expect(await store.get("old")).toBeUndefined();
    expect(await store.eventsFrom("old", 0, 10)).toEqual([]);
    expect(await store.sweep(25)).toBe(0);
  });
});
