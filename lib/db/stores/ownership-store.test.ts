import { afterEach, describe, expect, it } from "vitest";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";

describe.each(testDatabaseKinds())("OwnershipStore ($dialect)", (kind) => {
  let data: TestDatabase;
  afterEach(async () => {
    await data.cleanup();
  });

  it("records the first owner only, reads several owners in one query, and forgets", async () => {
    data = await kind.open();
    const owners = data.stores.ownership;
    await owners.record("file", "files/a", "key:alice");
    await owners.record("file", "files/a", "key:bob");
    await owners.record("cachedContent", "cachedContents/c", "key:bob");
    expect(await owners.ownerOf("file", "files/a")).toBe("key:alice");
    expect(await owners.owns("cachedContent", "files/a", "key:alice")).toBe(false);
    const found = await owners.ownersOf([
      { kind: "file", name: "files/a" },
      { kind: "cachedContent", name: "cachedContents/c" },
      { kind: "file", name: "files/nobody" },
      { kind: "file", name: "files/a" },
    ]);
    expect([...found].sort()).toEqual([
      ["cachedContent:cachedContents/c", "key:bob"],
      ["file:files/a", "key:alice"],
    ]);
    expect(await owners.ownersOf([])).toEqual(new Map());
    await owners.forget("file", "files/a");
    expect(await owners.ownerOf("file", "files/a")).toBeNull();
  });

  it("forgets files once they have expired upstream, but not caches", async () => {
    let now = 0;
    data = await kind.open({ now: () => now });
    const owners = data.stores.ownership;
    await owners.record("file", "files/old", "key:alice");
    await owners.record("cachedContent", "cachedContents/old", "key:alice");
    now += 50 * 3_600_000;
    await owners.record("file", "files/new", "key:alice");
    expect(await owners.ownerOf("file", "files/old")).toBeNull();
    expect(await owners.ownerOf("file", "files/new")).toBe("key:alice");
    expect(await owners.ownerOf("cachedContent", "cachedContents/old")).toBe("key:alice");
  });
});
