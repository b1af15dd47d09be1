import { describe, expect, it } from "vitest";
import {
  decodeKeysetToken,
  decodePageToken,
  encodeKeysetToken,
  encodePageToken,
  pageByOffset,
} from "./page-token";

describe("page tokens", () => {
  it("carry any position back to a call with the same scope", () => {
    expect(
      decodePageToken(
        encodePageToken(["upstream-token", 3], "owned:files:key:a"),
        "owned:files:key:a",
      ),
    ).toEqual(["upstream-token", 3]);
    const keyset = encodeKeysetToken({ createTime: 1_700_000_000_123, id: "abc-1" }, "files:a:10");
    expect(decodeKeysetToken(keyset, "files:a:10")).toEqual({
      createTime: 1_700_000_000_123,
      id: "abc-1",
    });
  });

  it("refuse another scope (caller, list or page size), garbage and tampered positions with a 400", () => {
    const token = encodePageToken(["x", 0], "owned:files:key:alice");
    expect(() => decodePageToken(token, "owned:files:key:bob")).toThrow(/other list parameters/);
    for (const bad of ["garbage", "", Buffer.from("[1,2]").toString("base64url")])
      expect(() => decodePageToken(bad, "s")).toThrow(expect.objectContaining({ httpStatus: 400 }));
    expect(() => decodeKeysetToken(encodePageToken("1.ID WITH SPACES", "s"), "s")).toThrow(
      expect.objectContaining({ httpStatus: 400 }),
    );
  });

  it("page an in-memory list by offset, with no token on the last page", () => {
    const first = pageByOffset([1, 2, 3, 4, 5], 2, undefined, "models:2");
    expect(first.items).toEqual([1, 2]);
    const last = pageByOffset(
      [1, 2, 3, 4, 5],
      2,
      pageByOffset([1, 2, 3, 4, 5], 2, first.nextPageToken, "models:2").nextPageToken,
      "models:2",
    );
    expect(last).toEqual({ items: [5] });
    expect(() => pageByOffset([1], 2, encodePageToken(9, "models:2"), "models:2")).toThrow();
  });
});
