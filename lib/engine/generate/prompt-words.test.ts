import { describe, expect, it } from "vitest";
import { capitalisedRuns, promptHints, quotedPhrases, scanWords } from "./prompt-words";

describe("prompt words", () => {
  it("finds quoted text, names that do not open a sentence, and numbers", () => {
    expect(
      promptHints(
        `Book a table at "Chez Marie" in New York for 4. Paris is nice; call O'Brien at 3.5`,
      ),
    ).toEqual(["Chez Marie", "New York", "O'Brien", "4", "3.5"]);
  });

  it("does not take apostrophes for quotes", () => {
    expect(quotedPhrases("What's the weather in Paris? It's 'lovely' there")).toEqual([
      { text: "lovely", start: 35, end: 41 },
    ]);
  });

  it("splits runs of names at punctuation", () => {
    const words = scanWords("Invite Ada Lovelace, Alan Turing and Grace Hopper.");
    expect(capitalisedRuns(words).map((run) => run.map((word) => word.text).join(" "))).toEqual([
      "Invite Ada Lovelace",
      "Alan Turing",
      "Grace Hopper",
    ]);
  });

  it("reads an 800 KB prompt of capitalised words in one pass (did not hang)", () => {
    const started = performance.now();
    const hints = promptHints("Ab x ".repeat(160_000));
    expect(hints).toEqual(["Ab"]);
    // A generous bound: the quadratic version took tens of seconds on this input.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
