/**
 * Rates a text per harm category in one pass over its words (linear time, no regexes over
 * the text). Words and phrases come from word-features.ts; co-occurrence is judged within a
 * segment (a sentence, or at most 40 words): insults and threats aimed at "you" are
 * harassment, a group named together with contempt, dehumanising words or calls to remove it
 * (or a slur) is hate speech, explicit terms made graphic or asked for are sexually explicit,
 * and a dangerous subject asked for with instructions is dangerous content. The documented
 * trigger terms (lexicon.ts) rate as listed. Each category's level is the highest found.
 */
import { Segment, type CategoryLevels } from "./segment";
import { dictionary, forEachWord, isFirstName, type TrieNode } from "./word-features";

/** Longest segment judged as one: co-occurrence further apart does not count. */
const SEGMENT_WORDS = 40;
/** Longest phrase in the dictionary, in words (active partial matches stay below it). */
const MAX_ACTIVE_MATCHES = 16;

export type { CategoryLevels };

export function emptyLevels(): CategoryLevels {
  return {
    HARM_CATEGORY_HARASSMENT: 0,
    HARM_CATEGORY_HATE_SPEECH: 0,
    HARM_CATEGORY_SEXUALLY_EXPLICIT: 0,
    HARM_CATEGORY_DANGEROUS_CONTENT: 0,
    HARM_CATEGORY_CIVIC_INTEGRITY: 0,
  };
}

/**
 * A text's levels, fed in pieces (`feed`) so long texts can be rated between event-loop
 * turns; `finish` settles the last segment. Pieces must be split at whitespace.
 */
export class TextRater {
  readonly levels = emptyLevels();
  private segment = new Segment();
  private active: TrieNode[] = [];
  private readonly root = dictionary();
  private sentenceEnded = false;

  /** Rates `text` from `from` to `to` (a slice ending at whitespace, see lib/runtime/time-slices.ts). */
  feed(text: string, from = 0, to = text.length): void {
    this.sentenceEnded = forEachWord(
      text,
      (word, sentenceEnded, capitalised) => {
        if (sentenceEnded || this.segment.words >= SEGMENT_WORDS) this.endSegment();
        if (capitalised && isFirstName(word)) this.segment.applyName();
        if (isYear(word)) this.segment.applyYear();
        this.match(word);
        this.segment.words += 1;
      },
      from,
      to,
      this.sentenceEnded,
    );
  }

  finish(): CategoryLevels {
    this.endSegment();
    return this.levels;
  }

  private endSegment(): void {
    this.segment.settle(this.levels);
    this.segment = new Segment();
  }

  private match(word: string): void {
    if (word === "") {
      this.active = [];
      return;
    }
    const next: TrieNode[] = [];
    const step = (from: TrieNode) => {
      const child = from.children.get(word);
      if (child) this.reach(child, next);
      for (const [stem, prefixed] of from.prefixes)
        if (word.startsWith(stem)) this.reach(prefixed, next);
    };
    step(this.root);
    for (const node of this.active) step(node);
    this.active = next.length > MAX_ACTIVE_MATCHES ? next.slice(0, MAX_ACTIVE_MATCHES) : next;
  }

  private reach(node: TrieNode, next: TrieNode[]): void {
    if (node.feature) {
      this.segment.apply(node.feature);
      for (const found of node.feature.lexicon ?? [])
        if (found.level > this.levels[found.category]) this.levels[found.category] = found.level;
    }
    if (node.children.size > 0 || node.prefixes.length > 0) next.push(node);
  }
}

/** The level (0 NEGLIGIBLE .. 3 HIGH) of every category for a text. */
export function rateText(text: string): CategoryLevels {
  const rater = new TextRater();
  rater.feed(text);
  return rater.finish();
}

/** A year of history or news: four digits from 1000 to 2099, or a decade ("1930s"). */
function isYear(word: string): boolean {
  const digits = word.endsWith("s") ? word.slice(0, -1) : word;
  if (digits.length !== 4) return false;
  const value = Number(digits);
  return Number.isInteger(value) && value >= 1000 && value <= 2099;
}
