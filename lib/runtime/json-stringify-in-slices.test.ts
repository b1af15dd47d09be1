import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  jsonBytePieces,
  jsonTextPieces,
  jsonTextWithSize,
  stringifyJsonInSlices,
} from "./json-stringify-in-slices";
import { DeferredEmbeddingValues, EmbeddingValues } from "@/lib/gemini/embedding-values";
import { jsonValue } from "@/lib/testing/json-arbitraries";
import { TimeSlices } from "./time-slices";

describe("jsonTextPieces and stringifyJsonInSlices", () => {
  it("write what JSON.stringify writes", async () => {
    const anything = fc.anything({
      withNullPrototype: true,
      withDate: true,
      withMap: true,
      withBoxedValues: true,
      withSparseArray: true,
      maxDepth: 4,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(jsonValue, anything),
        fc.integer({ min: 4, max: 48 }),
        async (value, pieceCharacters) => {
          const expected = JSON.stringify(value) as string | undefined;
          const pieces = await jsonTextPieces(value, { pieceCharacters });
          expect(pieces.join("")).toBe(expected ?? "");
          expect(await stringifyJsonInSlices(value, { pieceCharacters })).toBe(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("write long arrays of numbers (a vector's values) as JSON.stringify does", async () => {
    const vectorValue = fc.integer({ min: -1e9, max: 1e9 }).map((units) => units / 1e9);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(vectorValue, fc.double(), fc.constant(null)), {
          minLength: 65,
          maxLength: 5_000,
        }),
        fc.integer({ min: 4, max: 4_096 }),
        async (values, pieceCharacters) => {
          const value = { embeddings: [{ values }, { values: values.slice(3) }] };
          const expected = JSON.stringify(value);
          const pieces = await jsonTextPieces(value, { pieceCharacters });
          expect(pieces.join("")).toBe(expected);
          // The byte writer sends runs of numbers as their digits' bytes, between text pieces.
          const encoded = await jsonBytePieces(value, { pieceCharacters });
          expect(Buffer.concat(encoded.pieces).toString("utf8")).toBe(expected);
          expect(encoded.characters).toBe(expected.length);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("write an embedding's Float64Array as the array of its numbers, across byte pieces", async () => {
    const vectorValue = fc.integer({ min: -1e9, max: 1e9 }).map((units) => units / 1e9);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(vectorValue, fc.double({ noNaN: true })), {
          minLength: 0,
          maxLength: 12_000,
        }),
        fc.integer({ min: 1, max: 5 }),
        async (numbers, count) => {
          const value = {
            embeddings: Array.from({ length: count }, (_, index) => ({
              values: EmbeddingValues.from(numbers.slice(index)),
            })),
            usageMetadata: { promptTokenCount: numbers.length },
          };
          const expected = JSON.stringify(value);
          expect((await jsonTextPieces(value)).join("")).toBe(expected);
          const encoded = await jsonBytePieces(value);
          expect(Buffer.concat(encoded.pieces).toString("utf8")).toBe(expected);
          expect(encoded.characters).toBe(expected.length);
          // Few large writes: every piece but the last is nearly full.
          for (const piece of encoded.pieces.slice(0, -1))
            expect(piece.length).toBeGreaterThan(60_000);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("write deferred vectors of several lengths through one reused buffer as JSON.stringify does", async () => {
    const billionths = fc.oneof(
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      fc.integer({ min: -1e9, max: 1e9 }),
      fc.integer({ min: -999, max: 999 }),
      fc.constantFrom(0, 1000, -1000, 1e9, -1e9, 100_000_000, 10),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(billionths, { maxLength: 5_000 }), { minLength: 1, maxLength: 6 }),
        async (vectors) => {
          let computed = 0;
          const value = {
            embeddings: vectors.map((units) => ({
              values: new DeferredEmbeddingValues(units.length, (target) => {
                computed += 1;
                target.set(units);
              }),
            })),
          };
          const expected = JSON.stringify({
            embeddings: vectors.map((units) => ({ values: units.map((unit) => unit / 1e9) })),
          });
          // toJSON (JSON.stringify's way) gives the same values.
          expect(JSON.stringify(value)).toBe(expected);
          computed = 0;
          expect((await jsonTextPieces(value)).join("")).toBe(expected);
          const encoded = await jsonBytePieces(value);
          expect(Buffer.concat(encoded.pieces).toString("utf8")).toBe(expected);
          expect(encoded.characters).toBe(expected.length);
          // Each vector computed once per writing, when it is reached.
          expect(computed).toBe(2 * vectors.length);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("write a deferred vector whichever copy of its module made it, one digit off is seen", async () => {
    vi.resetModules();
    const copy = await import("@/lib/gemini/embedding-values");
    expect(copy.DeferredEmbeddingValues).not.toBe(DeferredEmbeddingValues);
    const units = [12_345_678, -125, 1e9, -500_000_000, 0, 7];
    const values = new copy.DeferredEmbeddingValues(units.length, (target) => target.set(units));
    // Written from the writer's buffer: its toJSON (the path of anything else with one) is not called.
    values.toJSON = () => {
      throw new Error("toJSON called");
    };
    const text = Buffer.concat((await jsonBytePieces({ embedding: { values } })).pieces).toString();
    expect(text).toBe('{"embedding":{"values":[0.012345678,-1.25e-7,1,-0.5,0,7e-9]}}');
    expect(text).not.toBe('{"embedding":{"values":[0.012345679,-1.25e-7,1,-0.5,0,7e-9]}}');
  });

  it("write an embedding's values from the typed array whichever copy of its module made them", async () => {
    vi.resetModules();
    const copy = await import("@/lib/gemini/embedding-values");
    expect(copy.EmbeddingValues).not.toBe(EmbeddingValues);
    const values = new copy.EmbeddingValues([0.25, -0.000000125, 1]);
    // Written from the typed array: its toJSON (the path of anything else with one) is not called.
    values.toJSON = () => {
      throw new Error("toJSON called");
    };
    const value = { embedding: { values } };
    expect((await jsonTextPieces(value)).join("")).toBe(
      '{"embedding":{"values":[0.25,-1.25e-7,1]}}',
    );
    const encoded = await jsonBytePieces(value);
    expect(Buffer.concat(encoded.pieces).toString()).toBe(
      '{"embedding":{"values":[0.25,-1.25e-7,1]}}',
    );
  });

  it("encode text longer than a byte piece without parting a character", async () => {
    const value = { text: "aé😀€".repeat(40_000), list: ["ü".repeat(70_000), "😀".repeat(30_000)] };
    const expected = JSON.stringify(value);
    const encoded = await jsonBytePieces(value);
    expect(encoded.pieces.length).toBeGreaterThan(4);
    for (const piece of encoded.pieces)
      expect(() => new TextDecoder("utf-8", { fatal: true }).decode(piece)).not.toThrow();
    expect(Buffer.concat(encoded.pieces).toString("utf8")).toBe(expected);
    expect(encoded.characters).toBe(expected.length);
  });

  it("encode the same text as UTF-8 pieces, counting its characters", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(jsonValue, fc.array(fc.string({ unit: "grapheme" }), { minLength: 65 })),
        fc.integer({ min: 4, max: 48 }),
        async (value, pieceCharacters) => {
          const expected = JSON.stringify(value) as string | undefined;
          const { pieces, characters } = await jsonBytePieces(value, { pieceCharacters });
          expect(Buffer.concat(pieces).toString("utf8")).toBe(expected ?? "");
          expect(characters).toBe(expected?.length ?? 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("measures the text in UTF-8 bytes as Buffer does, however it was cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), jsonValue, { maxKeys: 8 }),
        fc.integer({ min: 4, max: 48 }),
        async (value, pieceCharacters) => {
          const expected = JSON.stringify(value);
          const measured = await jsonTextWithSize(value, { pieceCharacters });
          expect(measured.text).toBe(expected);
          expect(measured.bytes).toBe(Buffer.byteLength(expected, "utf8"));
        },
      ),
      { numRuns: 300 },
    );
    // A long string of astral characters, cut into pieces that would split their pairs.
    const emoji = { text: "a😀".repeat(5_000) };
    const measured = await jsonTextWithSize(emoji, { pieceCharacters: 7 });
    expect(measured.bytes).toBe(Buffer.byteLength(JSON.stringify(emoji), "utf8"));
  });

  it("writes undefined, functions and non-finite numbers as JSON.stringify does", async () => {
    const value = {
      gone: undefined,
      call: () => 1,
      list: [undefined, () => 1, NaN, -0, Infinity, Symbol("s")],
      date: new Date(0),
      nested: { toJSON: () => undefined },
      long: "x".repeat(100),
    };
    expect(await stringifyJsonInSlices(value, { pieceCharacters: 8 })).toBe(JSON.stringify(value));
  });

  it("refuses circular structures", async () => {
    const list: unknown[] = [1, 2, 3];
    list.push({ list, more: Array.from({ length: 100 }, () => ({ a: 1, b: [1] })) });
    await expect(jsonTextPieces(list, { pieceCharacters: 8 })).rejects.toThrow(TypeError);
  });

  it("lets other work run while it writes megabytes", async () => {
    const value = {
      parts: Array.from({ length: 200_000 }, (_, index) => ({
        text: `word ${index} `,
        n: [index],
      })),
    };
    const turns = countTurns();
    const pieces = await jsonTextPieces(value, { slices: new TimeSlices() });
    expect(turns.stop()).toBeGreaterThanOrEqual(3);
    expect(pieces.join("")).toBe(JSON.stringify(value));
  });
});

/** Counts event-loop turns (a timer every millisecond) until stopped. */
function countTurns(): { stop(): number } {
  let turns = 0;
  const timer = setInterval(() => (turns += 1), 1);
  return {
    stop() {
      clearInterval(timer);
      return turns;
    },
  };
}
