import { describe, expect, it } from "vitest";
import { byteOffsetsToIndices, sliceBytes } from "./byte-offsets";

describe("byte offsets of the UTF-8 answer", () => {
  it("are string indices on ASCII text", () => {
    expect(byteOffsetsToIndices("hello world", [0, 6, 11, 40])).toEqual([0, 6, 11, 11]);
  });

  it("skip multi-byte characters and surrogate pairs", () => {
    const text = "é😀 café — fin";
    const start = new TextEncoder().encode("é😀 ").length;
    const end = start + new TextEncoder().encode("café").length;
    expect(start).toBe(7);
    expect(sliceBytes(text, start, end)).toBe("café");
    expect(byteOffsetsToIndices(text, [1])).toEqual([0]);
  });
});
