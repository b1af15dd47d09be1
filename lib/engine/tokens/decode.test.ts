import { describe, expect, it } from "vitest";
import { bytePieceValue, decodeTokenIds } from "./decode";
import { PieceTable } from "./piece-table";

// A toy piece table in the Gemma layout: control pieces, byte pieces, "▁"-prefixed words.
const pieces = PieceTable.from([
  "<pad>",
  "<eos>",
  "<bos>",
  "<unk>",
  "▁Hello",
  ",",
  "▁world",
  "<0xE2>",
  "<0x82>",
  "<0xAC>",
  "<0xF0>",
  "!",
  "\n",
  "▁▁",
]);

describe("decodeTokenIds", () => {
  it("turns ▁ into spaces and joins pieces", () => {
    expect(decodeTokenIds(pieces, [4, 5, 6, 11])).toBe(" Hello, world!");
    expect(decodeTokenIds(pieces, [13, 4, 12])).toBe("   Hello\n");
  });

  it("reassembles byte pieces in a row as one UTF-8 character", () => {
    expect(decodeTokenIds(pieces, [7, 8, 9])).toBe("€");
    expect(decodeTokenIds(pieces, [4, 7, 8, 9, 11])).toBe(" Hello€!");
  });

  it("decodes an incomplete byte sequence to U+FFFD instead of failing", () => {
    expect(decodeTokenIds(pieces, [10, 11])).toBe("\uFFFD!");
  });

  it("keeps control pieces literally and refuses ids outside the table", () => {
    expect(decodeTokenIds(pieces, [2, 4])).toBe("<bos> Hello");
    expect(() => decodeTokenIds(pieces, [99])).toThrow(RangeError);
    expect(() => decodeTokenIds(pieces, [-1])).toThrow(RangeError);
  });

  it("reads the value of byte pieces only", () => {
    expect(bytePieceValue("<0x0A>")).toBe(10);
    expect(bytePieceValue("<0xZZ>")).toBeUndefined();
    expect(bytePieceValue("▁the")).toBeUndefined();
  });
});
