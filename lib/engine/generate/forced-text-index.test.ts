import { describe, expect, it } from "vitest";
import { ForcedTextIndex } from "./forced-text-index";
import { SeededRandom } from "./random";

describe("ForcedTextIndex", () => {
  it("finds a stretch of a longer text, keeping the first id of a text listed twice", () => {
    const index = new ForcedTextIndex([
      [" the", 7],
      ["the", 8],
      [" the", 9],
      ["{", 3],
    ]);
    const text = 'x the{"';
    expect(index.get(text, 1, 5)).toBe(7);
    expect(index.get(text, 2, 5)).toBe(8);
    expect(index.get(text, 5, 6)).toBe(3);
    expect(index.get(text, 5, 7)).toBe(-1);
    expect(index.get(text, 0, 0)).toBe(-1);
  });

  it("answers as a Map of the same entries over many texts that collide in their slots", () => {
    const random = new SeededRandom(5);
    const entries: [string, number][] = Array.from({ length: 5000 }, (_, id) => [
      Array.from({ length: 1 + Math.floor(random.next() * 4) }, () =>
        String.fromCharCode(97 + Math.floor(random.next() * 6)),
      ).join(""),
      id,
    ]);
    const map = new Map<string, number>();
    for (const [text, id] of entries) if (!map.has(text)) map.set(text, id);
    const index = new ForcedTextIndex(entries);
    const probe = "abcdefabcfedcbaaffe";
    for (let start = 0; start < probe.length; start++)
      for (let end = start + 1; end <= Math.min(probe.length, start + 5); end++)
        expect(index.get(probe, start, end)).toBe(map.get(probe.slice(start, end)) ?? -1);
  });
});
