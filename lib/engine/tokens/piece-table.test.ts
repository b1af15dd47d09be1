import { describe, expect, it } from "vitest";
import { PieceTable } from "./piece-table";

describe("PieceTable", () => {
  const table = PieceTable.from(["<pad>", "", "▁the", "the", "日本", "the"]);

  it("gives each id its piece, empty ones included, and nothing outside the table", () => {
    expect(table.size).toBe(6);
    expect([0, 1, 2, 3, 4, 5].map((id) => table.get(id))).toEqual([
      "<pad>",
      "",
      "▁the",
      "the",
      "日本",
      "the",
    ]);
    for (const id of [-1, 6, 1.5, Number.NaN]) expect(table.get(id)).toBeUndefined();
  });

  it("finds the first id of a piece", () => {
    expect(table.indexOf("the")).toBe(3);
    expect(table.indexOf("")).toBe(1);
    expect(table.indexOf("th")).toBe(-1);
  });
});
