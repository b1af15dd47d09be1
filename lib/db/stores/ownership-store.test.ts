import { afterEach, describe, expect, it } from "vitest";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";

describe.each(testDatabaseKinds())("OwnershipStore ($dialect)", (kind) => {
  let data: TestDatabase;
  afterEach(async () => {
    await data.cleanup();
  });

  it("gives a name to its newest creator, reads several owners in one query, and forgets", async () => {
    data = await kind.open();
    const owners = data.stores.ownership;
    await owners.record("file", "files/a", "key:alice");
    // The upstream hands the name out again (the old file is gone): it is bob's now.
    await owners.record("file", "files/a", "key:bob");
    await owners.record("cachedContent", "cachedContents/c", "key:bob");
    expect(await owners.ownerOf("file", "files/a")).toBe("key:bob");
    expect(await owners.owns("file", "files/a", "key:alice")).toBe(false);
    expect(await owners.owns("cachedContent", "files/a", "key:bob")).toBe(false);
    const found = await owners.ownersOf([
      { kind: "file", name: "files/a" },
      { kind: "cachedContent", name: "cachedContents/c" },
      { kind: "file", name: "files/nobody" },
      { kind: "file", name: "files/a" },
    ]);
    expect([...found].sort()).toEqual([
      ["cachedContent:cachedContents/c", "key:bob"],
      ["file:files/a", "key:bob"],
    ]);
    expect(await owners.ownersOf([])).toEqual(new Map());
    await owners.forget("file", "files/a");
    expect(await owners.ownerOf("file", "files/a")).toBeNull();
  });

  it("ends a record at its resource's expiry, moved by setExpiry, and sweeps it", async () => {
    let now = 1_000_000;
    data = await kind.open({ now: () => now });
    const owners = data.stores.ownership;
    await owners.record("file", "files/f", "key:alice", { expiresAt: now + 48 * 3_600_000 });
    await owners.record("cachedContent", "cachedContents/c", "key:alice", {
      expiresAt: now + 60_000,
    });
    await owners.record("cachedContent", "cachedContents/moved", "key:alice", {
      expiresAt: now + 60_000,
    });
    await owners.setExpiry("cachedContent", "cachedContents/moved", now + 3_600_000);
    await owners.record("batch", "batches/b", "key:alice");
    now += 60_000;
    expect(await owners.ownerOf("cachedContent", "cachedContents/c")).toBeNull();
    expect(await owners.ownersOf([{ kind: "cachedContent", name: "cachedContents/c" }])).toEqual(
      new Map(),
    );
    expect(await owners.ownerOf("cachedContent", "cachedContents/moved")).toBe("key:alice");
    expect(await owners.ownerOf("file", "files/f")).toBe("key:alice");
    now += 48 * 3_600_000;
    expect(await owners.ownerOf("file", "files/f")).toBeNull();
    // Without an expiry (batches) a record lasts until forgotten.
    expect(await owners.ownerOf("batch", "batches/b")).toBe("key:alice");
    expect(await owners.sweep()).toBe(3);
    const rows = await data.database.all<{ name: string }>("SELECT name FROM resource_owners");
    expect(rows.map((row) => row.name)).toEqual(["batches/b"]);
  });

  it("keeps what a file names for its owner only, and forgets it when the name is handed out again", async () => {
    data = await kind.open();
    const owners = data.stores.ownership;
    await owners.record("file", "files/read", "key:alice", {
      expiresAt: null,
      mentions: ["file:files/a", "cachedContent:cachedContents/c"],
    });
    await owners.record("file", "files/unread", "key:alice");
    expect(await owners.mentionsOf("file", "files/read", "key:alice")).toEqual([
      "file:files/a",
      "cachedContent:cachedContents/c",
    ]);
    expect(await owners.mentionsOf("file", "files/read", "key:bob")).toBeNull();
    expect(await owners.mentionsOf("file", "files/unread", "key:alice")).toBeNull();
    await owners.record("file", "files/read", "key:bob");
    expect(await owners.mentionsOf("file", "files/read", "key:bob")).toBeNull();
  });
});
