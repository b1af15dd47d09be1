import { describe, expect, it } from "vitest";
import { ownKeys } from "@/lib/gemini/own-keys";
import { JsonPieceKind, readJsonPieces, writeJsonPieces, type JsonPieces } from "./json-pieces";
import { PIECE_CHARACTERS } from "./piece-writer";

/** Each piece's text. */
function texts(pieces: JsonPieces): string[] {
  const decoder = new TextDecoder();
  return [...pieces.ends].map((end, index) =>
    decoder.decode(pieces.bytes.subarray(index === 0 ? 0 : pieces.ends[index - 1], end)),
  );
}

const wide = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    type: "object",
    properties: { [`k${index}`]: { type: "string", description: 'naïve \u{1F600} "q" \\' } },
  }));

describe("JSON pieces", () => {
  it("read back as JSON.parse reads JSON.stringify's text, cut anywhere", async () => {
    const tricky = {
      text: 'a\u2028b\u{1F600}"quoted"\\',
      numbers: [0, -1.5e-7, 1e21, Number.MAX_SAFE_INTEGER],
      literals: [true, false, null],
      empty: { array: [], object: {} },
      left: undefined,
      holes: [undefined, () => 1, Symbol("x")],
      "10": "an index key",
      ["__proto__"]: { polluted: true },
      nested: { deeper: { deepest: Array.from({ length: 300 }, (_, index) => `item ${index}`) } },
      long: "x".repeat(5_000),
      map: Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`key ${index}`, index])),
    };
    Object.defineProperty(tricky, "__proto__", {
      value: { polluted: true },
      enumerable: true,
      configurable: true,
      writable: true,
    });
    for (const pieceCharacters of [8, 64, 1_000, PIECE_CHARACTERS]) {
      const pieces = writeJsonPieces(tricky, pieceCharacters);
      const read = await readJsonPieces(pieces);
      expect(read).toStrictEqual(JSON.parse(JSON.stringify(tricky)));
      expect(Object.keys(read as object)).toEqual(Object.keys(JSON.parse(JSON.stringify(tricky))));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    for (const value of ["plain", 3, null, [], {}, [[[]]]]) {
      expect(await readJsonPieces(writeJsonPieces(value, 8))).toStrictEqual(value);
    }
  });

  it("never makes a piece longer than its limit, but for one string or number alone", () => {
    const value = { branches: wide(20_000), prompt: "y".repeat(200_000) };
    const all = texts(writeJsonPieces(value));
    for (const text of all)
      if (text.length > PIECE_CHARACTERS) expect(text).toBe(JSON.stringify(value.prompt));
    expect(all.join("").length).toBeGreaterThan(JSON.stringify(value).length - 100);
    expect(all.length).toBeGreaterThan(JSON.stringify(value).length / PIECE_CHARACTERS);
  });

  it("hold a wide request's 6 MB as pieces of whole members, no text of the whole", () => {
    const value = { anyOf: wide(100_000) };
    const pieces = writeJsonPieces(value);
    expect(pieces.bytes.length).toBeGreaterThan(6_000_000);
    expect([...pieces.kinds]).toEqual(
      expect.arrayContaining([JsonPieceKind.openObject, JsonPieceKind.key, JsonPieceKind.members]),
    );
    expect(Math.max(...texts(pieces).map((text) => text.length))).toBeLessThanOrEqual(
      PIECE_CHARACTERS,
    );
  });

  it("record a large object's keys, as the sliced JSON reader does", async () => {
    const map = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, index) => [`name ${index}`, { index }]),
    );
    const read = (await readJsonPieces(writeJsonPieces({ map }))) as { map: object };
    expect(read.map).toStrictEqual(map);
    expect(ownKeys(read.map)).toEqual(Object.keys(map));
  });
});
