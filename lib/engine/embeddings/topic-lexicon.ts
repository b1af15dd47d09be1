/**
 * Which topic of the engine's own corpus (lib/engine/corpus: cooking, science, software,
 * travel, work and health, history) a word belongs to, learned from where the corpus uses it:
 * a stem used mostly (60 % or more) in one topic's documents belongs to that topic, with that
 * share as its strength. Two texts about cooking that share no word still
 * share the cooking topic through "oven" and "recipe". Built once, on first use (a few
 * milliseconds over 70 KB of text).
 */
import { corpusDocuments } from "../corpus";
import { STOP_WORDS, WORD, stem } from "./words";

/** The corpus files about one subject; the others (conversation, thoughts, ...) are about anything. */
const TOPICS = new Set([
  "cooking-and-home",
  "science-and-nature",
  "software-and-computing",
  "travel-and-places",
  "work-money-and-health",
  "history-and-culture",
]);
const MIN_SHARE = 0.6;

export interface StemTopic {
  name: string;
  /** The share of the stem's uses in that topic, MIN_SHARE to 1. */
  strength: number;
}

let lexicon: Map<string, StemTopic> | null = null;

function build(): Map<string, StemTopic> {
  const uses = new Map<string, Map<string, number>>();
  for (const document of corpusDocuments()) {
    for (const match of document.text.toLowerCase().matchAll(WORD)) {
      if (STOP_WORDS.has(match[0])) continue;
      const root = stem(match[0]);
      const byTopic = uses.get(root) ?? new Map<string, number>();
      byTopic.set(document.topic, (byTopic.get(document.topic) ?? 0) + 1);
      uses.set(root, byTopic);
    }
  }
  const topics = new Map<string, StemTopic>();
  for (const [root, byTopic] of uses) {
    let total = 0;
    let best: [string, number] | null = null;
    for (const [topic, count] of byTopic) {
      total += count;
      if (TOPICS.has(topic) && (best === null || count > best[1])) best = [topic, count];
    }
    if (best && best[1] / total >= MIN_SHARE)
      topics.set(root, { name: best[0], strength: best[1] / total });
  }
  return topics;
}

/** The topic a stem belongs to, if the corpus says. */
export function topicOfStem(root: string): StemTopic | undefined {
  lexicon ??= build();
  return lexicon.get(root);
}
