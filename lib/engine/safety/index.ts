/**
 * The local engine's safety classifier (spec: safetySettings, SafetyRating, promptFeedback):
 * a deterministic word-list classifier (classifier.ts, over registry word lists and the
 * documented trigger terms) rates text NEGLIGIBLE..HIGH per category, and thresholds decide
 * what is blocked. It knowingly differs from the service: it weighs words and their
 * company within a sentence instead of judging meaning (README.md). OFF means the category
 * is neither rated nor blocked; BLOCK_NONE rates it and never blocks.
 */
import type { ModelTraits } from "@/lib/gemini/model-traits";
import {
  SUPPORTED_HARM_CATEGORIES,
  type HarmBlockThreshold,
  type HarmProbability,
  type SafetyRating,
  type SafetySetting,
  type SupportedHarmCategory,
} from "@/lib/gemini/types";
import { SLICE_CHARACTERS, sliceEnd, TimeSlices } from "@/lib/runtime/time-slices";
import { emptyLevels, rateText, TextRater } from "./classifier";

const LEVELS: readonly HarmProbability[] = ["NEGLIGIBLE", "LOW", "MEDIUM", "HIGH"];

/** The lowest rating each threshold blocks (Infinity: never). */
const BLOCKS_FROM: Record<HarmBlockThreshold, number> = {
  HARM_BLOCK_THRESHOLD_UNSPECIFIED: 2,
  BLOCK_LOW_AND_ABOVE: 1,
  BLOCK_MEDIUM_AND_ABOVE: 2,
  BLOCK_ONLY_HIGH: 3,
  BLOCK_NONE: Number.POSITIVE_INFINITY,
  OFF: Number.POSITIVE_INFINITY,
};

/** The effective threshold of every category: the request's setting over the model default. */
export function effectiveThresholds(
  settings: readonly SafetySetting[] | undefined,
  traits: Pick<ModelTraits, "defaultSafetyThreshold">,
): Record<SupportedHarmCategory, HarmBlockThreshold> {
  const result = Object.fromEntries(
    SUPPORTED_HARM_CATEGORIES.map((category) => [category, traits.defaultSafetyThreshold]),
  ) as Record<SupportedHarmCategory, HarmBlockThreshold>;
  for (const setting of settings ?? []) {
    if ((SUPPORTED_HARM_CATEGORIES as readonly string[]).includes(setting.category)) {
      result[setting.category as SupportedHarmCategory] = setting.threshold;
    }
  }
  return result;
}

/** The rating level (0 NEGLIGIBLE .. 3 HIGH) of every category for a text. */
export function classifyText(text: string): Record<SupportedHarmCategory, number> {
  return rateText(text);
}

export interface SafetyVerdict {
  /** Ratings of every category whose threshold is not OFF, in the service's order. */
  ratings: SafetyRating[];
  blocked: boolean;
}

/** Rates a text against thresholds: which categories are rated, and whether it is blocked. */
export function judge(
  text: string,
  thresholds: Record<SupportedHarmCategory, HarmBlockThreshold>,
): SafetyVerdict {
  return verdictOf(classifyText(text), thresholds);
}

/**
 * `judge` for a long text (a whole prompt): rated in slices with event-loop turns between
 * them, so a 16 MB prompt does not hold up other requests. Not rated at all when every
 * category is OFF (nothing would be reported).
 */
export async function judgeInSlices(
  text: string,
  thresholds: Record<SupportedHarmCategory, HarmBlockThreshold>,
  signal?: AbortSignal,
): Promise<SafetyVerdict> {
  if (SUPPORTED_HARM_CATEGORIES.every((category) => thresholds[category] === "OFF"))
    return verdictOf(emptyLevels(), thresholds);
  if (text.length <= SLICE_CHARACTERS) return judge(text, thresholds);
  const rater = new TextRater();
  const slices = new TimeSlices();
  for (let from = 0; from < text.length && !signal?.aborted;) {
    const to = sliceEnd(text, from);
    rater.feed(text, from, to);
    from = to;
    await slices.pause();
  }
  return verdictOf(rater.finish(), thresholds);
}

/** An incremental judge for a growing candidate text (streams re-check as text arrives). */
export class CandidateSafety {
  private tail = "";
  private levels: Record<SupportedHarmCategory, number>;
  private last: SafetyVerdict;

  constructor(private readonly thresholds: Record<SupportedHarmCategory, HarmBlockThreshold>) {
    this.levels = classifyText("");
    this.last = verdictOf(this.levels, thresholds);
  }

  /** True when nothing is rated at all (every category OFF): checking can be skipped. */
  get disabled(): boolean {
    return SUPPORTED_HARM_CATEGORIES.every((category) => this.thresholds[category] === "OFF");
  }

  /**
   * The verdict once `delta` is added. Only the last words of earlier text are re-read with
   * it (terms are short phrases), so checking a long answer stays linear.
   */
  check(delta: string): SafetyVerdict {
    if (this.disabled || !delta) return this.last;
    const window = this.tail + delta;
    const found = classifyText(window);
    const levels = { ...this.levels };
    for (const category of SUPPORTED_HARM_CATEGORIES)
      levels[category] = Math.max(levels[category], found[category]);
    const verdict = verdictOf(levels, this.thresholds);
    if (!verdict.blocked) {
      this.levels = levels;
      this.tail = window.slice(-160);
    }
    this.last = verdict;
    return verdict;
  }

  get verdict(): SafetyVerdict {
    return this.last;
  }
}

function verdictOf(
  levels: Record<SupportedHarmCategory, number>,
  thresholds: Record<SupportedHarmCategory, HarmBlockThreshold>,
): SafetyVerdict {
  const ratings: SafetyRating[] = [];
  let blocked = false;
  for (const category of SUPPORTED_HARM_CATEGORIES) {
    const threshold = thresholds[category];
    if (threshold === "OFF") continue;
    const level = levels[category];
    const rating: SafetyRating = { category, probability: LEVELS[level]! };
    if (level >= BLOCKS_FROM[threshold]) {
      rating.blocked = true;
      blocked = true;
    }
    ratings.push(rating);
  }
  return { ratings, blocked };
}
