/**
 * The passage a search result shows: a few words of a matching message around its first
 * match, the matched words between the search marks, as FTS5's snippet() marks them. Made
 * here from the message's text rather than by FTS5: snippet() needs a MATCH per message, and
 * a last word of five letters or more (past the prefix indexes) made each one merge every
 * word starting with it again, seconds for a page of results over a million messages.
 */

/** Words of the passage (FTS5's snippet took 16). */
const PASSAGE_WORDS = 16;
/** Words shown before the first match. */
const WORDS_BEFORE = 3;
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const WORD_CHARACTER = /[\p{L}\p{N}\p{Co}]/u;

/** A word as the index compares it (unicode61, remove_diacritics 2: case and accents folded). */
function folded(word: string): string {
  return word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * The passage of `text` for the searched `words` (the last one a prefix), marked with
 * `start`/`end`, with "…" where the text goes on; null when no word of `text` matches.
 */
export function markedPassage(
  text: string,
  words: readonly string[],
  marks: { start: string; end: string },
): string | null {
  const terms = words.map(folded);
  const last = terms[terms.length - 1];
  if (last === undefined) return null;
  const exact = new Set(terms.slice(0, -1));
  const matches = (token: string) => {
    const word = folded(token);
    return exact.has(word) || word.startsWith(last);
  };
  const tokens: { index: number; end: number; match: boolean }[] = [];
  let first = -1;
  for (const found of text.matchAll(TOKEN)) {
    const match = matches(found[0]);
    tokens.push({ index: found.index, end: found.index + found[0].length, match });
    if (first < 0 && match) first = tokens.length - 1;
    if (first >= 0 && tokens.length >= first + PASSAGE_WORDS) break;
    // Only the words just before a match can be shown: keep no more of them.
    if (first < 0 && tokens.length > WORDS_BEFORE) tokens.shift();
  }
  if (first < 0) return null;
  const from = Math.max(0, first - WORDS_BEFORE);
  const shown = tokens.slice(from, from + PASSAGE_WORDS);
  const head = shown[0]!;
  const tail = shown[shown.length - 1]!;
  let passage = WORD_CHARACTER.test(text.slice(0, head.index)) ? "…" : "";
  let cursor = head.index;
  for (const token of shown) {
    passage += text.slice(cursor, token.index);
    const word = text.slice(token.index, token.end);
    passage += token.match ? `${marks.start}${word}${marks.end}` : word;
    cursor = token.end;
  }
  const rest = text.slice(tail.end);
  passage += WORD_CHARACTER.test(rest) ? "…" : rest;
  return passage;
}
