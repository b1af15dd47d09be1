import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonInSlices } from "./json-parse-in-slices";
import { jsonValue } from "@/lib/testing/json-arbitraries";
import { ownKeys } from "@/lib/gemini/own-keys";

/** Sameness as JSON sees it: key order, own `__proto__` members, plain prototypes, -0. */
function sameJson(actual: unknown, expected: unknown): void {
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  const pending: [unknown, unknown][] = [[actual, expected]];
  while (pending.length) {
    const [left, right] = pending.pop()!;
    if (typeof right !== "object" || right === null) {
      expect(Object.is(left, right)).toBe(true);
      continue;
    }
    expect(Object.getPrototypeOf(left)).toBe(Object.getPrototypeOf(right));
    expect(Object.keys(left as object)).toEqual(Object.keys(right));
    for (const key of Object.keys(right))
      pending.push([
        (left as Record<string, unknown>)[key],
        (right as Record<string, unknown>)[key],
      ]);
  }
}

describe("parseJsonInSlices", () => {
  it("reads what JSON.parse reads, cut into the smallest pieces", async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonValue,
        fc.constantFrom(0, 1, "\t", " \n "),
        fc.integer({ min: 4, max: 48 }),
        async (value, indent, pieceCharacters) => {
          const text = JSON.stringify(value, null, indent as string | number);
          sameJson(await parseJsonInSlices(text, { pieceCharacters }), JSON.parse(text));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("decodes long strings cut between escapes, whatever runs of backslashes precede the cut", async () => {
    const strings = [
      "\\".repeat(1001),
      `${"\\".repeat(999)}"`,
      "\\u0041".repeat(300),
      `a${"\\\\u0041".repeat(300)}`,
      "😀".repeat(700),
      `x${"\ud83d\ude00".repeat(700)}\ud800`,
      "\n\t\r\b\f/".repeat(400),
    ];
    for (const string of strings)
      for (const pieceCharacters of [4, 5, 6, 7, 8, 13, 64]) {
        const text = JSON.stringify({ [string]: [string, { key: string }] });
        sameJson(await parseJsonInSlices(text, { pieceCharacters }), JSON.parse(text));
      }
  });

  it("fails as JSON.parse fails", async () => {
    const texts = [
      `[${"1,".repeat(100)}]`,
      `{"a": ${"[".repeat(50)}`,
      `{"text": "${"x".repeat(500)}\u0001"}`,
      `[${'"a",'.repeat(200)}"b" "c"]`,
      `{"a": 1} x`,
      `${" ".repeat(200)}`,
    ];
    for (const text of texts) {
      let expected: unknown;
      try {
        JSON.parse(text);
      } catch (error) {
        expected = error;
      }
      await expect(parseJsonInSlices(text, { pieceCharacters: 16 })).rejects.toStrictEqual(
        expected,
      );
    }
  });

  it("lets other work run while it reads megabytes", async () => {
    const text = JSON.stringify({
      contents: [
        {
          parts: Array.from({ length: 200_000 }, (_, index) => ({ text: `word ${index} ` })),
        },
      ],
    });
    const turns = countTurns();
    const value = await parseJsonInSlices(text);
    // Generous: the read takes hundreds of milliseconds; slices are about 8 ms.
    expect(turns.stop()).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(value)).toBe(text);
  });
});

describe("ownKeys of what parseJsonInSlices reads", () => {
  it("are the keys Object.keys gives, recorded or not", async () => {
    const entries = Array.from({ length: 3000 }, (_, index) => [`key ${index}`, index]);
    const texts = [
      JSON.stringify(Object.fromEntries(entries)),
      `{"b": 1, "a": 2, ${entries.map(([key]) => `"${key}": 0`).join(", ")}, "b": 3}`,
      JSON.stringify(Object.fromEntries([...entries, ["7", 1], ["0", 2], ["__proto__", 3]])),
    ];
    for (const text of texts) {
      const value = (await parseJsonInSlices(text, { pieceCharacters: 64 })) as object;
      expect(ownKeys(value)).toEqual(Object.keys(value));
      expect(Object.keys(value)).toEqual(Object.keys(JSON.parse(text) as object));
    }
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
