import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/database";
import { OwnershipStore } from "./ownership";

function store(now: () => number) {
  return new OwnershipStore(
    openDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-ownership-"))),
    now,
  );
}

describe("OwnershipStore", () => {
  it("records the first owner only and answers the service's 403 to anyone else", () => {
    const owners = store(Date.now);
    owners.record("file", "files/a", "key:alice");
    owners.record("file", "files/a", "key:bob");
    expect(owners.ownerOf("file", "files/a")).toBe("key:alice");
    expect(owners.owns("cachedContent", "files/a", "key:alice")).toBe(false);
    expect(() => owners.assertOwner("file", "files/a", "key:bob")).toThrow(
      "You do not have permission to access the File a or it may not exist.",
    );
    expect(() => owners.assertOwner("cachedContent", "cachedContents/x", "key:bob")).toThrow(
      "CachedContent not found (or permission denied)",
    );
    owners.forget("file", "files/a");
    expect(owners.ownerOf("file", "files/a")).toBeNull();
  });

  it("forgets files once they have expired upstream, but not caches", () => {
    let now = 0;
    const owners = store(() => now);
    owners.record("file", "files/old", "key:alice");
    owners.record("cachedContent", "cachedContents/old", "key:alice");
    now += 50 * 3_600_000;
    owners.record("file", "files/new", "key:alice");
    expect(owners.ownerOf("file", "files/old")).toBeNull();
    expect(owners.ownerOf("file", "files/new")).toBe("key:alice");
    expect(owners.ownerOf("cachedContent", "cachedContents/old")).toBe("key:alice");
  });
});
