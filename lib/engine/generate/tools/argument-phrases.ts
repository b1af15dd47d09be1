/**
 * The phrases of a prompt a function-call argument may take, found in one pass each: quoted
 * text, capitalised names, the objects of prepositions ("in Paris", "in the kitchen"), e-mail
 * addresses, URLs, ISO dates and clock times, each with the words just before it; and a list of
 * such phrases ("Bob, Carol and Alice").
 */
import { capitalisedRuns, phraseText, quotedPhrases, type PromptWord } from "../prompt-words";
import { STOP_WORDS } from "./relevance";

export interface Phrase {
  text: string;
  kind: "quoted" | "name" | "object" | "email" | "url" | "date" | "time";
  /** Offsets in the text. */
  start: number;
  end: number;
  /** Index of the first word at or after the phrase's start (for context lookups). */
  wordIndex: number;
  /** Lower-cased words just before the phrase (up to three). */
  before: string[];
  /** The preposition that introduces it, if any. */
  preposition?: string;
}

const PREPOSITIONS = new Set(
  "in at for to from near on about into with by around called named titled".split(" "),
);
const DETERMINERS = new Set("the a an my our your his her their this that".split(" "));
/** The index of the first word starting at or after `offset` (words are sorted by start). */
export function wordAt(words: readonly PromptWord[], offset: number): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (words[middle]!.start < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

function wordsBefore(words: readonly PromptWord[], index: number): string[] {
  const before: string[] = [];
  for (let position = index - 1; position >= 0 && before.length < 3; position--)
    before.unshift(words[position]!.lower);
  return before;
}

/** Every phrase of the prompt an argument could take, in order of appearance per kind. */
export function phrasesOf(text: string, words: readonly PromptWord[]): Phrase[] {
  const phrases: Phrase[] = [];
  const add = (phrase: Omit<Phrase, "before" | "preposition">) => {
    const before = wordsBefore(words, phrase.wordIndex);
    const previous = before.at(-1);
    const beforeDeterminer = before.at(-2);
    const preposition =
      previous && PREPOSITIONS.has(previous)
        ? previous
        : previous &&
            DETERMINERS.has(previous) &&
            beforeDeterminer &&
            PREPOSITIONS.has(beforeDeterminer)
          ? beforeDeterminer
          : undefined;
    phrases.push({ ...phrase, before, ...(preposition ? { preposition } : {}) });
  };
  for (const quoted of quotedPhrases(text))
    add({ ...quoted, kind: "quoted", wordIndex: wordAt(words, quoted.start) });
  const inQuote = new Set(phrases.map((phrase) => phrase.wordIndex));
  for (const run of capitalisedRuns(words)) {
    const index = wordAt(words, run[0]!.start);
    if (inQuote.has(index)) continue;
    // A sentence's first word is a name only when it is not an ordinary word ("Paris is …", not "Set …").
    if (run[0]!.sentenceStart && (STOP_WORDS.has(run[0]!.lower) || run.length === 1)) continue;
    add({
      text: phraseText(text, run),
      kind: "name",
      start: run[0]!.start,
      end: run.at(-1)!.end,
      wordIndex: index,
    });
  }
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (!PREPOSITIONS.has(word.lower)) continue;
    let first = index + 1;
    if (words[first] && DETERMINERS.has(words[first]!.lower) && !words[first]!.afterPunctuation)
      first += 1;
    let last = first;
    while (
      last < words.length &&
      last - first < 3 &&
      !(last > index + 1 && words[last]!.afterPunctuation) &&
      !words[last]!.numeric &&
      !STOP_WORDS.has(words[last]!.lower) &&
      !PREPOSITIONS.has(words[last]!.lower)
    )
      last += 1;
    if (last > first && !words[first]!.afterPunctuation)
      add({
        text: text.slice(words[first]!.start, words[last - 1]!.end),
        kind: "object",
        start: words[first]!.start,
        end: words[last - 1]!.end,
        wordIndex: first,
      });
  }
  for (const found of scanSpecial(text))
    add({
      ...found,
      end: found.start + found.text.length,
      wordIndex: wordAt(words, found.start),
    });
  return phrases;
}

/** E-mail addresses, URLs, ISO dates and clock times, in one pass over the text. */
function scanSpecial(
  text: string,
): { text: string; kind: "email" | "url" | "date" | "time"; start: number }[] {
  const found: { text: string; kind: "email" | "url" | "date" | "time"; start: number }[] = [];
  const local = /[A-Za-z0-9._%+-]/;
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    if (character === "@" && index > 0 && local.test(text[index - 1]!)) {
      let start = index;
      while (start > 0 && index - start < 64 && local.test(text[start - 1]!)) start -= 1;
      let end = index + 1;
      while (end < text.length && end - index < 255 && /[A-Za-z0-9.-]/.test(text[end]!)) end += 1;
      while (end > index + 1 && text[end - 1] === ".") end -= 1;
      if (text.slice(index + 1, end).includes("."))
        found.push({ text: text.slice(start, end), kind: "email", start });
      index = end;
      continue;
    }
    if (
      (character === "h" || character === "H") &&
      /^https?:\/\//i.test(text.slice(index, index + 8))
    ) {
      let end = index;
      while (end < text.length && end - index < 2048 && !/[\s<>"]/.test(text[end]!)) end += 1;
      while (end > index && /[.,;:!?)]/.test(text[end - 1]!)) end -= 1;
      found.push({ text: text.slice(index, end), kind: "url", start: index });
      index = end;
      continue;
    }
    if (character >= "0" && character <= "9" && (index === 0 || !/[0-9]/.test(text[index - 1]!))) {
      const date = /^\d{4}-\d{2}-\d{2}(?!\d)/.exec(text.slice(index, index + 11));
      if (date) {
        found.push({ text: date[0], kind: "date", start: index });
        index += date[0].length;
        continue;
      }
      const time = /^\d{1,2}:\d{2}(?!\d)/.exec(text.slice(index, index + 6));
      if (time) {
        found.push({ text: time[0], kind: "time", start: index });
        index += time[0].length;
        continue;
      }
    }
    index += 1;
  }
  return found;
}

/** The phrase and the phrases of its kind listed after it ("Bob, Carol and Alice"). */
export function listFrom(
  first: Phrase,
  phrases: readonly Phrase[],
  words: readonly PromptWord[],
  isUsed: (phrase: Phrase) => boolean,
): Phrase[] {
  const byWord = new Map<number, Phrase>();
  for (const phrase of phrases)
    if (phrase.kind === first.kind && !isUsed(phrase)) byWord.set(phrase.wordIndex, phrase);
  const list = [first];
  let last = first;
  for (;;) {
    const after = wordAt(words, last.end);
    const joiner = words[after];
    const next =
      joiner && (joiner.lower === "and" || joiner.lower === "or")
        ? byWord.get(after + 1)
        : joiner?.afterPunctuation
          ? byWord.get(after)
          : undefined;
    if (!next || list.includes(next)) return list;
    list.push(next);
    last = next;
  }
}
