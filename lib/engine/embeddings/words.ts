/**
 * Words as the engine's embeddings read them (text-features.ts, topic-lexicon.ts): runs of
 * letters and digits, lower-cased, English function words known, and a light stem.
 */

/** Letters and digits, with inner apostrophes (don't, l'eau): the words of a text. */
export const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** English function words: they say little about what a text is about. */
export const STOP_WORDS = new Set(
  (
    "a an and are as at be been being but by can could did do does doing for from had has have " +
    "having he her here hers him his how i if in into is it its itself just me more most my no " +
    "nor not of off on once only or other our ours out over own same she should so some such " +
    "than that the their theirs them then there these they this those through to too under " +
    "until up very was we were what when where which while who whom why will with would you " +
    "your yours about above after again against all am any because before below between both " +
    "down during each few further let's also may might must shall"
  ).split(" "),
);

/**
 * A light English stem: plurals, -ing, -ed and -ly off, so word forms meet. Not a full
 * stemmer (letter trigrams cover much of what it misses); words of other scripts as they are.
 */
export function stem(word: string): string {
  let text = word.replace(/['’]s$/, "");
  if (text.length <= 3) return text;
  if (text.endsWith("ies") && text.length > 4) return `${text.slice(0, -3)}y`;
  if (text.endsWith("sses")) return text.slice(0, -2);
  if (text.endsWith("ing") && text.length > 5) text = undouble(text.slice(0, -3));
  else if (text.endsWith("ed") && text.length > 4) text = undouble(text.slice(0, -2));
  else if (text.endsWith("ly") && text.length > 4) text = text.slice(0, -2);
  else if (text.endsWith("es") && /(?:ch|sh|x|z)es$/.test(text)) text = text.slice(0, -2);
  else if (text.endsWith("s") && !/(?:ss|us|is)$/.test(text)) text = text.slice(0, -1);
  return text;
}

/** "running" → "runn" → "run": a doubled final consonant left by -ing or -ed. */
function undouble(text: string): string {
  const last = text[text.length - 1];
  return text.length > 3 && last === text[text.length - 2] && !"aeiouls".includes(last!)
    ? text.slice(0, -1)
    : text;
}
