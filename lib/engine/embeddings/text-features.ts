/**
 * The features of a text, for the engine's embeddings (vectors.ts): its words reduced to a
 * light stem (so "cooking", "cooked" and "cooks" meet), pairs of neighbouring words, the
 * letter trigrams of each word (so spellings and word forms the stemmer misses still overlap,
 * and scripts written without spaces still have parts in common), and the topics of the
 * engine's own corpus its words belong to (topic-lexicon.ts: "oven" and "recipe" share
 * cooking). Each feature is a 32-bit hash and a weight; common function words weigh little.
 */
import { hashString } from "@/lib/gemini/hash-string";
import { topicOfStem } from "./topic-lexicon";
import { STOP_WORDS, WORD, stem } from "./words";

/** Adds one feature (its hash and weight) to whatever is collecting them. */
export type FeatureSink = (hash: number, weight: number) => void;

/** Seeds that keep the kinds of feature apart (a word and a trigram spelled alike differ). */
const WORD_SEED = 0x2f6b1a3d;
const PAIR_SEED = 0x51ed2705;
const TRIGRAM_SEED = 0x7a3c9e11;
const TOPIC_SEED = 0x1b873593;

const WORD_WEIGHT = 1;
const STOP_WORD_WEIGHT = 0.15;
const PAIR_WEIGHT = 0.45;
const TRIGRAM_WEIGHT = 0.3;
const TOPIC_WEIGHT = 0.55;

/** FNV-1a of `text[start, end)` chained from `seed`: a trigram's hash without cutting it out. */
function hashRange(text: string, start: number, end: number, seed: number): number {
  let hash = seed >>> 0;
  for (let index = start; index < end; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Every feature of `text`, weighted by `scale` (a title counts less than the text it names). */
export function textFeatures(text: string, sink: FeatureSink, scale = 1): void {
  let previous: string | null = null;
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    const stop = STOP_WORDS.has(word);
    const root = stop ? word : stem(word);
    sink(hashString(root, WORD_SEED), scale * (stop ? STOP_WORD_WEIGHT : WORD_WEIGHT));
    if (stop) {
      previous = null;
      continue;
    }
    if (previous !== null)
      sink(hashString(` ${root}`, hashString(previous, PAIR_SEED)), scale * PAIR_WEIGHT);
    previous = root;
    const bounded = `#${word}#`;
    for (let start = 0; start + 3 <= bounded.length; start++)
      sink(hashRange(bounded, start, start + 3, TRIGRAM_SEED), scale * TRIGRAM_WEIGHT);
    const topic = topicOfStem(root);
    if (topic) sink(hashString(topic.name, TOPIC_SEED), scale * TOPIC_WEIGHT * topic.strength);
  }
}
