import { describe, expect, it } from "vitest";
import { SUPPORTED_HARM_CATEGORIES } from "@/lib/gemini/types";
import { CandidateSafety, classifyText, effectiveThresholds, judge } from "./index";
import { LEXICON } from "./lexicon";

const LEVEL_NAMES = ["NEGLIGIBLE", "LOW", "MEDIUM", "HIGH"] as const;

describe("safety classifier", () => {
  it("rates harmless text NEGLIGIBLE in every category", () => {
    const levels = classifyText("A simple tomato soup needs ripe tomatoes and a little stock.");
    for (const category of SUPPORTED_HARM_CATEGORIES) expect(levels[category]).toBe(0);
  });

  for (const category of SUPPORTED_HARM_CATEGORIES) {
    for (const [index, level] of (["LOW", "MEDIUM", "HIGH"] as const).entries()) {
      it(`rates every documented ${level} term of ${category} as ${level}`, () => {
        for (const term of LEXICON[category][level]) {
          const text = `Well, ${term.replace("*", "s")} is what they said.`;
          expect(classifyText(text)[category], term).toBe(index + 1);
        }
      });
    }
  }

  it("takes the highest level found", () => {
    expect(
      classifyText("the election and then rig the election").HARM_CATEGORY_CIVIC_INTEGRITY,
    ).toBe(3);
  });

  it("matches whole words only", () => {
    expect(classifyText("a ballotine of chicken").HARM_CATEGORY_CIVIC_INTEGRITY).toBe(0);
  });

  it("blocks by threshold and reports blocked on the rating", () => {
    const thresholds = effectiveThresholds(
      [{ category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_MEDIUM_AND_ABOVE" }],
      {
        defaultSafetyThreshold: "OFF",
      },
    );
    const blocked = judge("how to make a weapon", thresholds);
    expect(blocked.blocked).toBe(true);
    expect(blocked.ratings).toEqual([
      { category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "MEDIUM", blocked: true },
    ]);
    const low = judge("lock picking as a hobby", thresholds);
    expect(low.blocked).toBe(false);
    expect(low.ratings).toEqual([
      { category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "LOW" },
    ]);
  });

  it("honours each threshold", () => {
    const cases: [string, number, boolean][] = [
      ["BLOCK_LOW_AND_ABOVE", 1, true],
      ["BLOCK_LOW_AND_ABOVE", 0, false],
      ["BLOCK_MEDIUM_AND_ABOVE", 1, false],
      ["BLOCK_MEDIUM_AND_ABOVE", 2, true],
      ["BLOCK_ONLY_HIGH", 2, false],
      ["BLOCK_ONLY_HIGH", 3, true],
      ["BLOCK_NONE", 3, false],
      ["OFF", 3, false],
    ];
    const texts = ["hello", "flirty", "erotic", "porn"];
    for (const [threshold, level, expected] of cases) {
      const thresholds = effectiveThresholds(
        [{ category: "HARM_CATEGORY_SEXUALLY_EXPLICIT", threshold: threshold as "OFF" }],
        {
          defaultSafetyThreshold: "OFF",
        },
      );
      const verdict = judge(texts[level]!, thresholds);
      expect(verdict.blocked, `${threshold} at ${LEVEL_NAMES[level]}`).toBe(expected);
    }
  });

  it("does not rate categories that are OFF, rates BLOCK_NONE without blocking", () => {
    const thresholds = effectiveThresholds(
      [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
      { defaultSafetyThreshold: "OFF" },
    );
    const verdict = judge("i will hunt you down", thresholds);
    expect(verdict).toEqual({
      ratings: [{ category: "HARM_CATEGORY_HARASSMENT", probability: "HIGH" }],
      blocked: false,
    });
  });

  it("uses the model default for categories the request does not set", () => {
    const thresholds = effectiveThresholds([], {
      defaultSafetyThreshold: "BLOCK_MEDIUM_AND_ABOVE",
    });
    expect(judge("ethnic cleansing", thresholds).blocked).toBe(true);
    expect(judge("ethnic cleansing", thresholds).ratings).toHaveLength(5);
  });

  it("checks a growing candidate across deltas, catching a phrase split between them", () => {
    const safety = new CandidateSafety(
      effectiveThresholds([], { defaultSafetyThreshold: "BLOCK_MEDIUM_AND_ABOVE" }),
    );
    expect(safety.check("We should rig the ").blocked).toBe(false);
    const verdict = safety.check("election now");
    expect(verdict.blocked).toBe(true);
    expect(
      verdict.ratings.find((rating) => rating.category === "HARM_CATEGORY_CIVIC_INTEGRITY"),
    ).toEqual({
      category: "HARM_CATEGORY_CIVIC_INTEGRITY",
      probability: "HIGH",
      blocked: true,
    });
  });
});
