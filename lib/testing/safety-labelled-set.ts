/**
 * The safety classifier's labelled texts (lib/engine/safety/__fixtures__): `held-out.txt`,
 * written before the rules and never used while writing them, and `development.txt`, the
 * texts the rules were tuned on. A line is `<labels> | <text>`, where labels are `-` (every
 * category NEGLIGIBLE) or `category LEVEL` entries separated by commas (category one of hate,
 * dangerous, harassment, sexual, civic). Scoring treats each threshold as the service applies
 * it: a text is a positive of a category at a threshold when its expected level is one the
 * threshold blocks, and the classifier finds it when its rating is.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { SUPPORTED_HARM_CATEGORIES, type SupportedHarmCategory } from "@/lib/gemini/types";

export type LabelledSplit = "held-out" | "development";

export interface LabelledText {
  text: string;
  /** Expected level (0 NEGLIGIBLE .. 3 HIGH) per category. */
  expected: Record<SupportedHarmCategory, number>;
  split: LabelledSplit;
}

const CATEGORY_NAMES: Record<string, SupportedHarmCategory> = {
  hate: "HARM_CATEGORY_HATE_SPEECH",
  dangerous: "HARM_CATEGORY_DANGEROUS_CONTENT",
  harassment: "HARM_CATEGORY_HARASSMENT",
  sexual: "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  civic: "HARM_CATEGORY_CIVIC_INTEGRITY",
};

const LEVELS: Record<string, number> = { LOW: 1, MEDIUM: 2, HIGH: 3 };

/** The thresholds that block something, with the lowest level each blocks. */
export const BLOCKING_THRESHOLDS = [
  { threshold: "BLOCK_LOW_AND_ABOVE", from: 1 },
  { threshold: "BLOCK_MEDIUM_AND_ABOVE", from: 2 },
  { threshold: "BLOCK_ONLY_HIGH", from: 3 },
] as const;

const FIXTURES = path.join(process.cwd(), "lib/engine/safety/__fixtures__");

function noLevels(): Record<SupportedHarmCategory, number> {
  return Object.fromEntries(SUPPORTED_HARM_CATEGORIES.map((category) => [category, 0])) as Record<
    SupportedHarmCategory,
    number
  >;
}

/** One fixture line as a labelled text (throws on a malformed label, naming the line). */
export function parseLabelledLine(line: string, split: LabelledSplit): LabelledText {
  const bar = line.indexOf(" | ");
  if (bar < 0) throw new Error(`no " | " in labelled line: ${line}`);
  const expected = noLevels();
  const labels = line.slice(0, bar).trim();
  if (labels !== "-") {
    for (const label of labels.split(",")) {
      const [name, level] = label.trim().split(" ");
      const category = CATEGORY_NAMES[name ?? ""];
      if (!category || !level || !LEVELS[level]) throw new Error(`bad label "${label}": ${line}`);
      expected[category] = LEVELS[level];
    }
  }
  return { text: line.slice(bar + 3).trim(), expected, split };
}

export function readLabelledSet(split: LabelledSplit): LabelledText[] {
  return readFileSync(path.join(FIXTURES, `${split}.txt`), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => parseLabelledLine(line, split));
}

export interface CategoryScore {
  category: SupportedHarmCategory;
  threshold: string;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** 1 when nothing was flagged (no false alarm possible). */
  precision: number;
  /** 1 when nothing should have been flagged. */
  recall: number;
}

/** Precision and recall of `rate` per category and blocking threshold over `texts`. */
export function scoreLabelledSet(
  texts: readonly LabelledText[],
  rate: (text: string) => Record<SupportedHarmCategory, number>,
): CategoryScore[] {
  const rated = texts.map((item) => ({ item, levels: rate(item.text) }));
  const scores: CategoryScore[] = [];
  for (const category of SUPPORTED_HARM_CATEGORIES)
    for (const { threshold, from } of BLOCKING_THRESHOLDS) {
      let truePositives = 0;
      let falsePositives = 0;
      let falseNegatives = 0;
      for (const { item, levels } of rated) {
        const expected = item.expected[category] >= from;
        const found = levels[category] >= from;
        if (expected && found) truePositives += 1;
        else if (found) falsePositives += 1;
        else if (expected) falseNegatives += 1;
      }
      const flagged = truePositives + falsePositives;
      const positives = truePositives + falseNegatives;
      scores.push({
        category,
        threshold,
        truePositives,
        falsePositives,
        falseNegatives,
        precision: flagged ? truePositives / flagged : 1,
        recall: positives ? truePositives / positives : 1,
      });
    }
  return scores;
}

/** The texts whose rating in a category differs from the label at a threshold (for tuning). */
export function misratedTexts(
  texts: readonly LabelledText[],
  rate: (text: string) => Record<SupportedHarmCategory, number>,
  from: number,
): { text: string; category: SupportedHarmCategory; expected: number; rated: number }[] {
  const misses = [];
  for (const item of texts) {
    const levels = rate(item.text);
    for (const category of SUPPORTED_HARM_CATEGORIES)
      if (item.expected[category] >= from !== levels[category] >= from)
        misses.push({
          text: item.text,
          category,
          expected: item.expected[category],
          rated: levels[category],
        });
  }
  return misses;
}
