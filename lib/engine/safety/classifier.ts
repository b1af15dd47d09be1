/**
 * Rates a text per harm category in one pass over its words (linear time, no regexes over
 * the text). Words and phrases come from word-features.ts; co-occurrence is judged within a
 * segment (a sentence, or at most 40 words): insults and threats aimed at "you" are
 * harassment, a group named together with contempt, dehumanising words or calls to remove it
 * (or a slur) is hate speech, explicit terms made graphic or asked for are sexually explicit,
 * and a dangerous subject asked for with instructions is dangerous content. The documented
 * trigger terms (lexicon.ts) rate as listed. Each category's level is the highest found.
 */
import type { SupportedHarmCategory } from "@/lib/gemini/types";
import { dictionary, forEachWord, type TrieNode, type WordFeature } from "./word-features";

/** Longest segment judged as one: co-occurrence further apart does not count. */
const SEGMENT_WORDS = 40;
/** Longest phrase in the dictionary, in words (active partial matches stay below it). */
const MAX_ACTIVE_MATCHES = 16;

export type CategoryLevels = Record<SupportedHarmCategory, number>;

export function emptyLevels(): CategoryLevels {
  return {
    HARM_CATEGORY_HARASSMENT: 0,
    HARM_CATEGORY_HATE_SPEECH: 0,
    HARM_CATEGORY_SEXUALLY_EXPLICIT: 0,
    HARM_CATEGORY_DANGEROUS_CONTENT: 0,
    HARM_CATEGORY_CIVIC_INTEGRITY: 0,
  };
}

class Segment {
  words = 0;
  directed = false;
  insults = 0;
  threat = false;
  /** Word index of the last first-person word and of a violent verb after it. */
  firstPersonAt = -100;
  violentAt = -100;
  groups = 0;
  slurs = 0;
  hostility = 0;
  contempt = false;
  dehumanising = false;
  exclusion = false;
  explicit = 0;
  intensifiers = 0;
  requested = false;
  danger = 0;
  instructions = false;

  apply(feature: WordFeature): void {
    const at = this.words;
    if (feature.secondPerson) {
      this.directed = true;
      if (this.violentAt >= 0 && at - this.violentAt <= 4) this.threat = true;
    }
    if (feature.firstPerson) this.firstPersonAt = at;
    if (feature.violentVerb && at - this.firstPersonAt <= 5) this.violentAt = at;
    if (feature.harmWish) this.threat = true;
    if (feature.slur) this.slurs += 1;
    if (feature.group) this.groups += 1;
    if (feature.hateVerb) this.contempt = true;
    if (feature.dehumanising) this.dehumanising = true;
    if (feature.exclusion) this.exclusion = true;
    if (feature.explicit) this.explicit += feature.explicit;
    if (feature.intensifier) this.intensifiers += 1;
    if (feature.requestVerb) this.requested = true;
    if (feature.danger) this.danger = Math.max(this.danger, feature.danger);
    if (feature.instruction) this.instructions = true;
    // Insults: words that surely insult (profane, per cuss) weigh fully; merely negative
    // words (afinn) weigh half, so "lost devices and mistakes" is no insult. Violent verbs
    // count only in threats ("kill the process" insults nobody).
    if (!feature.slur && !feature.explicit && !feature.group && !feature.violentVerb) {
      const negative =
        feature.valence !== undefined && feature.valence <= -2 ? -feature.valence : 0;
      const profane =
        feature.profanity !== undefined && feature.profanity >= 1 ? 2 * feature.profanity + 2 : 0;
      this.insults += Math.max(negative / 2, profane);
      this.hostility += negative;
    }
    if (feature.hateVerb) this.insults += 2;
  }

  /** The levels this segment shows, raised into `levels`. */
  settle(levels: CategoryLevels): void {
    const raise = (category: SupportedHarmCategory, level: number) => {
      if (level > levels[category]) levels[category] = level;
    };
    // Profanity aimed at nobody ("those balls") is not harassment unless it piles up.
    const aimed = this.directed ? this.insults : this.insults / 3;
    raise(
      "HARM_CATEGORY_HARASSMENT",
      this.threat ? 3 : aimed >= 10 ? 3 : aimed >= 6 ? 2 : aimed >= 3 ? 1 : 0,
    );

    let hate = 0;
    if (this.slurs > 0) hate = this.slurs > 1 || this.groups > 0 || this.hostility >= 3 ? 3 : 2;
    if (this.groups > 0) {
      if (this.dehumanising || this.exclusion) hate = 3;
      else if (this.contempt) hate = Math.max(hate, this.hostility >= 6 ? 3 : 2);
      else
        hate = Math.max(
          hate,
          this.hostility >= 7 ? 3 : this.hostility >= 4 ? 2 : this.hostility >= 3 ? 1 : 0,
        );
    }
    raise("HARM_CATEGORY_HATE_SPEECH", hate);

    if (this.explicit > 0) {
      const points = this.explicit + this.intensifiers + (this.requested ? 1 : 0);
      raise(
        "HARM_CATEGORY_SEXUALLY_EXPLICIT",
        points >= 5 ? 3 : points >= 3 ? 2 : points >= 1 ? 1 : 0,
      );
    }

    if (this.danger > 0) {
      const level = this.instructions ? (this.danger >= 2 ? 3 : 2) : this.danger === 3 ? 1 : 0;
      raise("HARM_CATEGORY_DANGEROUS_CONTENT", level);
    }
  }
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

  /** Rates `text` from `from` to `to` (a slice ending at whitespace, see time-slices.ts). */
  feed(text: string, from = 0, to = text.length): void {
    this.sentenceEnded = forEachWord(
      text,
      (word, sentenceEnded) => {
        if (sentenceEnded || this.segment.words >= SEGMENT_WORDS) this.endSegment();
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
