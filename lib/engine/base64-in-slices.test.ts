import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64InSlices } from "./base64-in-slices";

describe("decodeBase64InSlices", () => {
  it("gives what Buffer.from gives, for plain base64 of megabytes and for any text", async () => {
    const bytes = Buffer.alloc(3_000_001, 0);
    for (let index = 0; index < bytes.length; index++) bytes[index] = (index * 131 + 7) % 256;
    for (const text of [
      bytes.toString("base64"),
      bytes.toString("base64url"),
      bytes.subarray(1).toString("base64"),
      // Not plain: a line break inside, an early padding, a stray character.
      `${bytes.toString("base64").slice(0, 2_000_000)}\n${bytes.toString("base64").slice(2_000_000)}`,
      `${bytes.toString("base64").slice(0, 1_500_000)}==${bytes.toString("base64").slice(1_500_000)}`,
      `${bytes.toString("base64")}*`,
    ])
      expect((await decodeBase64InSlices(text)).equals(Buffer.from(text, "base64"))).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        expect((await decodeBase64InSlices(text)).equals(Buffer.from(text, "base64"))).toBe(true);
      }),
    );
  });
});
