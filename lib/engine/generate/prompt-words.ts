/**
 * The words of a prompt in one left-to-right pass (no backtracking, so a hostile prompt costs
 * linear time): each word with its offsets, whether it is capitalised, whether it opens a
 * sentence and whether punctuation separates it from the word before; plus the phrases that
 * function arguments and free strings may reuse (quoted text, capitalised names, numbers).
 */

export interface PromptWord {
  /** As written. */
  text: string;
  lower: string;
  start: number;
  end: number;
  /** Digits, optionally with one decimal point or comma group ("40", "3.5", "1,000"). */
  numeric: boolean;
  /** Starts with an upper-case letter and has at least two characters. */
  capitalised: boolean;
  /** The first word of the text or of a sentence (after `.`, `!` or `?`). */
  sentenceStart: boolean;
  /** Something other than whitespace stands between the previous word and this one. */
  afterPunctuation: boolean;
}

export interface QuotedPhrase {
  text: string;
  start: number;
  end: number;
}

/** Longest quoted phrase taken as one value (longer quotes are prose, not a name). */
const MAX_QUOTED_CHARACTERS = 60;

function isWordCharacter(character: string): boolean {
  const code = character.charCodeAt(0);
  if (code < 128)
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return /[\p{L}\p{N}]/u.test(character);
}

function isDigit(character: string | undefined): boolean {
  return character !== undefined && character >= "0" && character <= "9";
}

function isUpperCaseLetter(character: string): boolean {
  return character !== character.toLowerCase() && character === character.toUpperCase();
}

/** Splits `text` into words in one pass; `'`, `’` and `-` join letters inside a word. */
export function scanWords(text: string): PromptWord[] {
  const words: PromptWord[] = [];
  let sentenceStart = true;
  let punctuation = false;
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    if (!isWordCharacter(character)) {
      if (character === "." || character === "!" || character === "?") sentenceStart = true;
      if (!/\s/.test(character)) punctuation = true;
      index += 1;
      continue;
    }
    const start = index;
    let numeric = isDigit(character);
    while (index < text.length) {
      const next = text[index]!;
      if (isWordCharacter(next)) {
        if (!isDigit(next)) numeric = false;
        index += 1;
        continue;
      }
      const joined = text[index + 1];
      if ((next === "'" || next === "’" || next === "-") && joined && isWordCharacter(joined)) {
        numeric = false;
        index += 2;
        continue;
      }
      break;
    }
    // One decimal point or thousands group: "3.5", "1,000" (not a sentence's full stop).
    if (numeric && (text[index] === "." || text[index] === ",") && isDigit(text[index + 1])) {
      let end = index + 1;
      while (isDigit(text[end])) end += 1;
      if (!isWordCharacter(text[end] ?? " ")) index = end;
    }
    const word = text.slice(start, index);
    words.push({
      text: word,
      lower: word.toLowerCase(),
      start,
      end: index,
      numeric,
      capitalised: word.length >= 2 && isUpperCaseLetter(word[0]!),
      sentenceStart,
      afterPunctuation: punctuation,
    });
    sentenceStart = false;
    punctuation = false;
  }
  return words;
}

const OPENING_QUOTES = new Set(['"', "“", "'", "‘"]);
const CLOSING_QUOTES = new Set(['"', "”", "'", "’"]);
const ALL_QUOTES = new Set([...OPENING_QUOTES, ...CLOSING_QUOTES]);

/**
 * Quoted phrases of 1 to 60 characters. A single quote opens only after a space or at the
 * start and closes only before a non-letter, so apostrophes ("what's") are not quotes. Each
 * opening quote looks at most 61 characters ahead: linear in the text.
 */
export function quotedPhrases(text: string): QuotedPhrase[] {
  const phrases: QuotedPhrase[] = [];
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    const single = character === "'" || character === "‘";
    if (
      !OPENING_QUOTES.has(character) ||
      (single && index > 0 && !/\s|[(\[]/.test(text[index - 1]!))
    ) {
      index += 1;
      continue;
    }
    let close = -1;
    const limit = Math.min(text.length, index + 2 + MAX_QUOTED_CHARACTERS);
    for (let probe = index + 1; probe < limit; probe++) {
      const inner = text[probe]!;
      if (!ALL_QUOTES.has(inner)) continue;
      const closesHere =
        CLOSING_QUOTES.has(inner) &&
        probe > index + 1 &&
        (!single || !isWordCharacter(text[probe + 1] ?? " "));
      close = closesHere ? probe : -2;
      break;
    }
    if (close >= 0) {
      const inner = text.slice(index + 1, close).trim();
      if (inner) phrases.push({ text: inner, start: index + 1, end: close });
      index = close + 1;
    } else {
      index += 1;
    }
  }
  return phrases;
}

/** Runs of capitalised words joined by whitespace only ("New York", "Ada Lovelace"). */
export function capitalisedRuns(words: readonly PromptWord[]): PromptWord[][] {
  const runs: PromptWord[][] = [];
  let run: PromptWord[] = [];
  for (const word of words) {
    if (word.capitalised && !word.numeric && (run.length === 0 || !word.afterPunctuation)) {
      run.push(word);
      continue;
    }
    if (run.length) runs.push(run);
    run = word.capitalised && !word.numeric ? [word] : [];
  }
  if (run.length) runs.push(run);
  return runs;
}

/** The text from the first to the last word of a run, as written. */
export function phraseText(text: string, run: readonly PromptWord[]): string {
  return text.slice(run[0]!.start, run[run.length - 1]!.end);
}

/**
 * Phrases a function argument or free string may reuse: quoted text, capitalised names that
 * do not open a sentence, and numbers, each once, in that order.
 */
export function promptHints(text: string): string[] {
  const words = scanWords(text);
  const hints: string[] = quotedPhrases(text).map((phrase) => phrase.text);
  for (const run of capitalisedRuns(words)) {
    if (run[0]!.sentenceStart) continue;
    hints.push(phraseText(text, run));
  }
  for (const word of words) if (word.numeric) hints.push(word.text);
  return [...new Set(hints.filter((hint) => hint.length > 0))];
}
