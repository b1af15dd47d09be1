import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { assertOwner } from "./ownership";

let data: TempData;
beforeEach(async () => {
  data = await tempData();
});
afterEach(async () => {
  await data.cleanup();
});

describe("ownership checks", () => {
  it("answer the service's 403 to anyone but the recorded owner", async () => {
    const owners = data.stores.ownership;
    await owners.record("file", "files/a", "key:alice");
    await assertOwner(owners, "file", "files/a", "key:alice");
    await expect(assertOwner(owners, "file", "files/a", "key:bob")).rejects.toThrow(
      "You do not have permission to access the File a or it may not exist.",
    );
    await expect(
      assertOwner(owners, "cachedContent", "cachedContents/x", "key:bob"),
    ).rejects.toThrow("CachedContent not found (or permission denied)");
  });
});
