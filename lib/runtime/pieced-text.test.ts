import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonTextPieces } from "./json-stringify-in-slices";
import { piecedText, setPiecedText } from "./pieced-text";

/** Pieces that throw if anything joins them. */
function unjoinable(pieces: string[]): string[] {
  return new Proxy(pieces, {
    get(target, property, receiver) {
      if (property === "join") throw new Error("the pieces were joined");
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

describe("pieced text", () => {
  it("reads as the joined pieces, and is written as JSON.stringify writes it without a join", async () => {
    await fc.assert(
      fc.asyncProperty(
        // Full Unicode, cut anywhere: surrogate pairs split between two pieces included.
        fc.string({ unit: "binary", maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 4, max: 24 }),
        async (whole, cuts, pieceCharacters) => {
          const at = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort(
            (left, right) => left - right,
          );
          const pieces = [0, ...at].map((from, index) => whole.slice(from, at[index] ?? undefined));
          const written = { kind: "audio", data: "" };
          setPiecedText(written, "data", unjoinable([...pieces]));
          const expected = JSON.stringify({ answer: { kind: "audio", data: whole } });
          const text = (await jsonTextPieces({ answer: written }, { pieceCharacters })).join("");
          expect(text).toBe(expected);
          expect(JSON.parse(text)).toEqual({ answer: { kind: "audio", data: whole } });

          const read = { kind: "audio", data: "" };
          setPiecedText(read, "data", pieces);
          expect(read.data).toBe(whole);
          expect(JSON.stringify(read)).toBe(JSON.stringify({ kind: "audio", data: whole }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("becomes an ordinary member once written", () => {
    const holder = { data: "" };
    setPiecedText(holder, "data", ["ab", "cd"]);
    holder.data = "replaced";
    expect(piecedText(holder, "data")).toBeUndefined();
    expect(holder).toEqual({ data: "replaced" });
  });
});
