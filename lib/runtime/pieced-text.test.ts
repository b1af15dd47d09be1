import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonTextPieces } from "./json-stringify-in-slices";
import { copyWithPieces, piecedText, pieceTexts, setPiecedText } from "./pieced-text";

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

  it("reads bytes as their base64 and writes them so, cut anywhere, beside text pieces", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constantFrom("QUJD", "")), {
          maxLength: 8,
        }),
        fc.integer({ min: 4, max: 24 }),
        async (pieces, pieceCharacters) => {
          // The text: each run of byte pieces as one base64, text pieces as they are.
          let whole = "";
          let run: number[] = [];
          for (const piece of [...pieces, "end"]) {
            if (typeof piece !== "string") {
              run.push(...piece);
              continue;
            }
            whole += Buffer.from(run).toString("base64") + (piece === "end" ? "" : piece);
            run = [];
          }
          const holder = { mimeType: "audio/L16", data: "" };
          setPiecedText(holder, "data", pieces);
          expect([...pieceTexts(pieces)].join("")).toBe(whole);
          expect(holder.data).toBe(whole);
          expect(JSON.stringify(holder)).toBe(
            JSON.stringify({ mimeType: "audio/L16", data: whole }),
          );
          const written = (await jsonTextPieces({ holder }, { pieceCharacters })).join("");
          expect(written).toBe(JSON.stringify({ holder: { mimeType: "audio/L16", data: whole } }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("makes the base64 of long bytes in slices, never the whole at once", () => {
    const bytes = new Uint8Array(1_000_000).map((_, index) => index % 251);
    const texts = [...pieceTexts([bytes.subarray(0, 400_001), bytes.subarray(400_001)])];
    expect(Math.max(...texts.map((text) => text.length))).toBeLessThanOrEqual(65_536);
    expect(texts.join("")).toBe(Buffer.from(bytes).toString("base64"));
  });

  it("is copied as its pieces: nothing encoded, the same pieces in the copy", () => {
    const bytes = new Uint8Array([1, 2, 3, 4]);
    const media = { type: "audio", data: "", mime_type: "audio/L16" };
    setPiecedText(media, "data", [bytes]);
    const copy = copyWithPieces(media);
    expect(piecedText(copy, "data")).toBe(piecedText(media, "data"));
    expect(Object.keys(copy)).toEqual(["type", "data", "mime_type"]);
    expect(copy).toEqual({ type: "audio", data: "AQIDBA==", mime_type: "audio/L16" });
  });

  it("becomes an ordinary member once written", () => {
    const holder = { data: "" };
    setPiecedText(holder, "data", ["ab", "cd"]);
    holder.data = "replaced";
    expect(piecedText(holder, "data")).toBeUndefined();
    expect(holder).toEqual({ data: "replaced" });
  });
});
