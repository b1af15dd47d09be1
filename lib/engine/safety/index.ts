/**
 * The local engine's safety classifier (spec: safetySettings, SafetyRating, promptFeedback):
 * a deterministic lexicon per category rates text NEGLIGIBLE..HIGH, and thresholds decide
 * what is blocked. It knowingly differs from the service: it matches listed words and
 * phrases only (README.md) instead of judging meaning. OFF means the category is neither
 * rated nor blocked; BLOCK_NONE rates it and never blocks.
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
import { LEXICON, type RatedLevel } from "./lexicon";

const LEVELS: readonly HarmProbability[] = ["NEGLIGIBLE", "LOW", "MEDIUM", "HIGH"];
const RANK: Record<string, number> = { NEGLIGIBLE: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

/** The lowest rating each threshold blocks (Infinity: never). */
const BLOCKS_FROM: Record<HarmBlockThreshold, number> = {
  HARM_BLOCK_THRESHOLD_UNSPECIFIED: 2,
  BLOCK_LOW_AND_ABOVE: 1,
  BLOCK_MEDIUM_AND_ABOVE: 2,
  BLOCK_ONLY_HIGH: 3,
  BLOCK_NONE: Number.POSITIVE_INFINITY,
  OFF: Number.POSITIVE_INFINITY,
};

interface CompiledTerm {
  level: number;
  words: string[];
  /** Per word: whether it matches any ending (`porn*`). */
  prefix: boolean[];
}

const COMPILED: Record<SupportedHarmCategory, CompiledTerm[]> = Object.fromEntries(
  SUPPORTED_HARM_CATEGORIES.map((category) => {
    const terms: CompiledTerm[] = [];
    for (const [level, phrases] of Object.entries(LEXICON[category]) as [RatedLevel, string[]][]) {
      for (const phrase of phrases) {
        const raw = words(phrase);
        terms.push({
          level: RANK[level]!,
          words: raw.map((word) => word.replace(/\*$/, "")),
          prefix: raw.map((word) => word.endsWith("*")),
        });
      }
    }
    return [category, terms];
  }),
) as Record<SupportedHarmCategory, CompiledTerm[]>;

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+\*?/gu) ?? [];
}

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
  const tokens = words(text);
  const result = Object.fromEntries(
    SUPPORTED_HARM_CATEGORIES.map((category) => [category, 0]),
  ) as Record<SupportedHarmCategory, number>;
  for (const category of SUPPORTED_HARM_CATEGORIES) {
    let level = 0;
    for (const term of COMPILED[category]) {
      if (term.level <= level) continue;
      if (containsTerm(tokens, term)) level = term.level;
    }
    result[category] = level;
  }
  return result;
}

function containsTerm(tokens: string[], term: CompiledTerm): boolean {
  const first = term.words[0];
  if (first === undefined) return false;
  outer: for (let start = 0; start + term.words.length <= tokens.length; start++) {
    for (let offset = 0; offset < term.words.length; offset++) {
      const token = tokens[start + offset]!;
      const word = term.words[offset]!;
      if (term.prefix[offset] ? !token.startsWith(word) : token !== word) continue outer;
    }
    return true;
  }
  return false;
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
