import { describe, expect, it } from "vitest";
import {
  decodeKeysetToken,
  decodePageToken,
  encodeKeysetToken,
  encodePageToken,
  keysetPage,
  pageByOffset,
  type KeysetPosition,
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

  it("page a keyset list within its limits: one row more read, the token bound to the list and size", async () => {
    const rows = Array.from({ length: 25 }, (_, index) => ({
      createTime: 1000 - index,
      id: `r${index}`,
    }));
    const limits = { defaultSize: 10, maxSize: 20 };
    const asked: number[] = [];
    const fetchRows = async (limit: number, after: KeysetPosition | null) => {
      asked.push(limit);
      const start = after ? rows.findIndex((row) => row.id === after.id) + 1 : 0;
      return rows.slice(start, start + limit);
    };
    const first = await keysetPage({}, limits, "files:alice", fetchRows);
    expect(first.rows.map((row) => row.id)).toEqual(rows.slice(0, 10).map((row) => row.id));
    const second = await keysetPage(
      { pageToken: first.nextPageToken },
      limits,
      "files:alice",
      fetchRows,
    );
    expect(second.rows[0]!.id).toBe("r10");
    const whole = await keysetPage({ pageSize: 500 }, limits, "files:alice", fetchRows);
    expect(whole.rows).toHaveLength(20);
    const last = await keysetPage(
      { pageSize: 500, pageToken: whole.nextPageToken },
      limits,
      "files:alice",
      fetchRows,
    );
    expect(last).toEqual({ rows: rows.slice(20) });
    expect(asked).toEqual([11, 11, 21, 21]);
    await expect(
      keysetPage({ pageToken: first.nextPageToken }, limits, "files:bob", fetchRows),
    ).rejects.toMatchObject({ httpStatus: 400 });
    await expect(
      keysetPage({ pageSize: 5, pageToken: first.nextPageToken }, limits, "files:alice", fetchRows),
    ).rejects.toMatchObject({ httpStatus: 400 });
  });
});
