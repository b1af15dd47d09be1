import { describe, expect, it } from "vitest";
import {
  readLabelledSet,
  scoreLabelledSet,
  type CategoryScore,
  type LabelledText,
} from "@/lib/testing/safety-labelled-set";
import { SUPPORTED_HARM_CATEGORIES } from "@/lib/gemini/types";
import { rateText } from "./classifier";

/**
 * Floors on the labelled texts (bench/safety-rater.mjs prints the figures; bench/README.md
 * holds them). The held-out texts were written before the rules and never used to tune them:
 * their floors say the rules generalise beyond the texts they were written on.
 */
const FLOORS = {
  development: { recallAtLow: 0.95, precisionAtLow: 0.85, recallAtMedium: 0.9 },
  "held-out": { recallAtLow: 0.85, precisionAtLow: 0.8, recallAtMedium: 0.8 },
} as const;

function scoresOf(texts: readonly LabelledText[]): CategoryScore[] {
  return scoreLabelledSet(texts, rateText);
}

describe("the safety classifier on its labelled texts", () => {
  for (const split of ["development", "held-out"] as const) {
    it(`holds its recall and precision floors per category on the ${split} texts`, () => {
      const texts = readLabelledSet(split);
      const floors = FLOORS[split];
      for (const score of scoresOf(texts)) {
        const label = `${score.category} at ${score.threshold}`;
        if (score.threshold === "BLOCK_LOW_AND_ABOVE") {
          expect(score.recall, label).toBeGreaterThanOrEqual(floors.recallAtLow);
          expect(score.precision, label).toBeGreaterThanOrEqual(floors.precisionAtLow);
        }
        if (score.threshold === "BLOCK_MEDIUM_AND_ABOVE")
          expect(score.recall, label).toBeGreaterThanOrEqual(floors.recallAtMedium);
      }
    });
  }

  it("has both classes in every category, hard negatives included, in both sets", () => {
    const development = readLabelledSet("development");
    const heldOut = readLabelledSet("held-out");
    expect(development.length + heldOut.length).toBeGreaterThanOrEqual(200);
    for (const texts of [development, heldOut]) {
      const negatives = texts.filter((item) =>
        SUPPORTED_HARM_CATEGORIES.every((category) => item.expected[category] === 0),
      );
      expect(negatives.length).toBeGreaterThan(texts.length / 4);
      for (const category of SUPPORTED_HARM_CATEGORIES)
        expect(
          texts.filter((item) => item.expected[category] > 0).length,
          category,
        ).toBeGreaterThanOrEqual(3);
    }
    const developmentTexts = new Set(development.map((item) => item.text));
    for (const item of heldOut) expect(developmentTexts.has(item.text), item.text).toBe(false);
  });

  it("lets benign texts on hard topics through at BLOCK_MEDIUM_AND_ABOVE", () => {
    const benign = [...readLabelledSet("development"), ...readLabelledSet("held-out")].filter(
      (item) => SUPPORTED_HARM_CATEGORIES.every((category) => item.expected[category] === 0),
    );
    const blocked = benign.filter((item) =>
      Object.values(rateText(item.text)).some((level) => level >= 2),
    );
    expect(blocked.map((item) => item.text)).toEqual([]);
  });
});
