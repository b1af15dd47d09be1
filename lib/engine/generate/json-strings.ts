/**
 * The strings of constrained JSON output: free text sampled from the language model within a
 * string's legal tokens and length bounds, and values of the supported `format`s drawn with
 * the seeded generator. Knowingly unsupported: `pattern`, other formats.
 */
import { pushHistory, sampleStep, forcedText, type DecodingState, type Emission } from "./decoding";
import type { SeededRandom } from "./random";

/**
 * Samples the inside of a free string: only tokens legal in a JSON string, within the length
 * bounds, about as many words as its property's name suggests.
 */
export function* stringContent(
  state: DecodingState,
  key: string | undefined,
  minLength: number,
  maxLength: number | undefined,
): Generator<Emission, string> {
  const model = state.model;
  const vocabulary = model.vocabulary;
  const end = model.symbols.end;
  const targetWords = wordsFor(key, state.random.integer(0, 1000));
  const history = [model.symbols.answerStart];
  let text = "";
  let length = 0;
  let words = 0;
  for (let steps = 0; steps < 400; steps++) {
    const limit = maxLength;
    const allow = (id: number): boolean => {
      if (id === end) return length >= Math.max(minLength, 1);
      if (!vocabulary.isPlainJsonText(id)) return false;
      const piece = vocabulary.tokenText(id);
      if (length === 0 && piece.startsWith(" ")) return false;
      return limit === undefined || length + codePoints(piece) <= limit;
    };
    const emission = sampleStep(state, history, allow);
    if (!emission || emission.id === end) break;
    const piece = vocabulary.tokenText(emission.id);
    // Short strings stop at the first word boundary past the target; long ones (prose) run
    // on to the end of their sentence, within a dozen more words.
    const prose = targetWords >= 6;
    if (
      words >= targetWords &&
      piece.startsWith(" ") &&
      length >= minLength &&
      (!prose || words >= targetWords + 12)
    )
      break;
    yield emission;
    pushHistory(history, emission.id);
    text += piece;
    length += codePoints(piece);
    if (piece.startsWith(" ") || words === 0) words += 1;
    if (maxLength !== undefined && length >= maxLength) break;
    if (prose && words >= targetWords && /[.!?]$/.test(piece) && length >= minLength) break;
  }
  while (length < minLength) {
    const filler = length === 0 ? "a" : "a";
    yield* forcedText(state, filler);
    text += filler;
    length += 1;
  }
  return text;
}

/** A value of a string `format` (date-time, date, time, email, uri, uuid); undefined for others. */
export function formattedString(
  format: string | undefined,
  random: SeededRandom,
): string | undefined {
  if (!format) return undefined;
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const year = 2000 + random.integer(0, 30);
  const month = random.integer(1, 12);
  const day = random.integer(1, 28);
  const hour = random.integer(0, 23);
  const minute = random.integer(0, 59);
  switch (format) {
    case "date-time":
      return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:00Z`;
    case "date":
      return `${year}-${pad(month)}-${pad(day)}`;
    case "time":
      return `${pad(hour)}:${pad(minute)}:00Z`;
    case "email":
      return `user${random.integer(1, 999)}@example.com`;
    case "uri":
      return `https://example.com/item/${random.integer(1, 9999)}`;
    case "uuid": {
      const hex = () => Math.floor(random.next() * 16).toString(16);
      const block = (size: number) => Array.from({ length: size }, hex).join("");
      return `${block(8)}-${block(4)}-4${block(3)}-a${block(3)}-${block(12)}`;
    }
    default:
      return undefined;
  }
}

/**
 * How many words a free string runs to: names and labels are short, descriptions long,
 * anything else in between (drawn with the seeded generator).
 */
function wordsFor(key: string | undefined, draw: number): number {
  const name = (key ?? "").toLowerCase();
  if (
    /name|title|label|city|country|brand|author|category|type|kind|color|colour|unit|code|tag|id$/.test(
      name,
    )
  )
    return 1 + (draw % 3);
  if (
    /description|summary|text|content|body|reason|explanation|answer|comment|note|message|details|instructions|step/.test(
      name,
    )
  )
    return 8 + (draw % 12);
  return 2 + (draw % 8);
}

function codePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xdc00 || code > 0xdfff) count++;
  }
  return count;
}
