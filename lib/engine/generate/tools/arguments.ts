/**
 * Function-call arguments taken from the prompt, by each parameter's name, description and
 * type: allowed values (enums) and booleans where the prompt says them, numbers near the
 * parameter's words and within its bounds, and strings from quoted text, capitalised names
 * and the objects of prepositions ("in Paris", "in the kitchen"), each used once. Nothing is
 * invented: a parameter the prompt says nothing about is left out (or reported missing).
 */
import { capitalisedRuns, phraseText, quotedPhrases, type PromptWord } from "../prompt-words";
import type { ParameterInfo } from "./parameters";
import { nameWords, significantStems, stem, STOP_WORDS } from "./relevance";

export interface ExtractedArguments {
  values: Record<string, unknown>;
  /** Required parameters the prompt gives no value for. */
  missing: ParameterInfo[];
}

interface Phrase {
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
const LOCATION_WORDS = new Set(
  "city location place room country region address destination origin town state area where venue airport station zip postcode".split(
    " ",
  ),
);
const PERSON_WORDS = new Set(
  "name person recipient user contact attendee who friend customer author artist owner assignee username".split(
    " ",
  ),
);
const FREE_TEXT_WORDS = new Set(
  "query text message content body prompt question term keyword topic subject title description note search phrase".split(
    " ",
  ),
);
const NEGATIONS = new Set("no not without don't dont never disable off exclude".split(" "));
const NUMBER_WORDS: Record<string, number> = Object.fromEntries(
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
    .split(" ")
    .map((word, index) => [word, index]),
);

function wordsOf(parameter: ParameterInfo): Set<string> {
  const words = new Set<string>();
  for (const word of nameWords(parameter.name)) words.add(stem(word));
  return words;
}

function describes(parameter: ParameterInfo, vocabulary: Set<string>): boolean {
  const words = [...nameWords(parameter.name), ...significantStems(parameter.description, 12)];
  return words.some((word) => vocabulary.has(word) || vocabulary.has(stem(word)));
}

/** The index of the first word starting at or after `offset` (words are sorted by start). */
function wordAt(words: readonly PromptWord[], offset: number): number {
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
function phrasesOf(text: string, words: readonly PromptWord[]): Phrase[] {
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

interface NumberMention {
  value: number;
  wordIndex: number;
}

function numbersOf(words: readonly PromptWord[]): NumberMention[] {
  const numbers: NumberMention[] = [];
  for (const [index, word] of words.entries()) {
    if (word.numeric) {
      const value = Number(word.text.replace(/,(\d{3})$/, "$1"));
      if (Number.isFinite(value)) numbers.push({ value, wordIndex: index });
    } else if (word.lower in NUMBER_WORDS) {
      numbers.push({ value: NUMBER_WORDS[word.lower]!, wordIndex: index });
    }
  }
  return numbers;
}

function near(
  words: readonly PromptWord[],
  index: number,
  vocabulary: Set<string>,
  span = 3,
): boolean {
  for (
    let position = Math.max(0, index - span);
    position <= Math.min(words.length - 1, index + span);
    position++
  )
    if (position !== index && vocabulary.has(stem(words[position]!.lower))) return true;
  return false;
}

function negatedBefore(words: readonly PromptWord[], index: number): boolean {
  for (let position = Math.max(0, index - 3); position < index; position++)
    if (NEGATIONS.has(words[position]!.lower.replace(/’/g, "'"))) return true;
  return false;
}

/** The allowed value the prompt mentions (by its words, case-insensitively), if any. */
function mentionedValue(
  values: readonly (string | number | boolean)[],
  stems: Set<string>,
  lowerText: string,
): string | number | boolean | undefined {
  for (const value of values) {
    if (typeof value !== "string") continue;
    const valueWords = nameWords(value);
    if (valueWords.length && valueWords.every((word) => stems.has(stem(word)))) return value;
    if (valueWords.length > 1 && lowerText.includes(valueWords.join(" "))) return value;
  }
  for (const value of values)
    if (typeof value === "number" && stems.has(String(value))) return value;
  return undefined;
}

function scorePhrase(
  phrase: Phrase,
  parameter: ParameterInfo,
  own: Set<string>,
  described: Set<string>,
): number {
  const before = phrase.before.map(stem);
  let score = 0;
  if (before.some((word) => own.has(word))) score += 5;
  else if (before.some((word) => described.has(word))) score += 2;
  const location = describes(parameter, LOCATION_WORDS);
  const person = describes(parameter, PERSON_WORDS);
  const freeText = describes(parameter, FREE_TEXT_WORDS);
  switch (phrase.kind) {
    case "quoted":
      score += freeText ? 4 : 2;
      break;
    case "name":
      if (location)
        score +=
          phrase.preposition && !["with", "called", "named"].includes(phrase.preposition) ? 4 : 2;
      else if (person)
        score += phrase.preposition === "with" || phrase.preposition === "to" ? 4 : 3;
      else score += 1.5;
      break;
    case "object":
      if (freeText)
        score += ["for", "about", "on", "called", "named", "titled"].includes(
          phrase.preposition ?? "",
        )
          ? 3
          : 1;
      else if (location)
        score += ["in", "at", "near", "to", "from"].includes(phrase.preposition ?? "") ? 2 : 0.5;
      else score += 1;
      break;
    case "email":
      score +=
        parameter.format === "email" || describes(parameter, new Set(["email", "mail", "address"]))
          ? 8
          : 0;
      break;
    case "url":
      score +=
        parameter.format === "uri" ||
        parameter.format === "url" ||
        describes(parameter, new Set(["url", "link", "uri", "website", "page"]))
          ? 8
          : 0;
      break;
    case "date":
      score +=
        parameter.format === "date" ||
        parameter.format === "date-time" ||
        describes(parameter, new Set(["date", "day", "when"]))
          ? 8
          : 0;
      break;
    case "time":
      score +=
        parameter.format === "time" || describes(parameter, new Set(["time", "hour", "when"]))
          ? 8
          : 0;
      break;
  }
  return score;
}

function bestPhrase(
  phrases: readonly Phrase[],
  parameter: ParameterInfo,
  own: Set<string>,
  described: Set<string>,
  isUsed: (phrase: Phrase) => boolean,
  minimum: number,
): Phrase | undefined {
  let best: Phrase | undefined;
  let bestScore = minimum - 0.001;
  for (const phrase of phrases) {
    if (isUsed(phrase)) continue;
    const score = scorePhrase(phrase, parameter, own, described);
    if (score > bestScore) {
      best = phrase;
      bestScore = score;
    }
  }
  return best;
}

/** The phrase and the phrases of its kind listed after it ("Bob, Carol and Alice"). */
function listFrom(
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

/** Reads each parameter's value from the prompt where the prompt has one. */
export function extractArguments(
  text: string,
  words: readonly PromptWord[],
  parameters: readonly ParameterInfo[],
): ExtractedArguments {
  const values: Record<string, unknown> = {};
  const missing: ParameterInfo[] = [];
  const stems = new Set(words.map((word) => stem(word.lower)));
  const lowerText = text.toLowerCase();
  const phrases = phrasesOf(text, words);
  const numbers = numbersOf(words);
  // Character ranges already given to a parameter: a phrase overlapping one is not reused.
  const usedRanges: Phrase[] = [];
  const isUsed = (phrase: Phrase) =>
    usedRanges.some((used) => phrase.start < used.end && used.start < phrase.end);
  const claim = (phrase: Phrase) => usedRanges.push(phrase);
  const usedNumbers = new Set<NumberMention>();
  const numericParameters = parameters.filter(
    (parameter) => parameter.type === "number" || parameter.type === "integer",
  ).length;

  for (const parameter of parameters) {
    const own = wordsOf(parameter);
    const described = significantStems(parameter.description, 12);
    let value: unknown;
    if (parameter.values && parameter.type !== "array") {
      value = mentionedValue(parameter.values, stems, lowerText);
    } else if (parameter.type === "boolean") {
      const index = words.findIndex((word) => own.has(stem(word.lower)));
      if (index >= 0) value = !negatedBefore(words, index);
    } else if (parameter.type === "number" || parameter.type === "integer") {
      const fits = (mention: NumberMention) =>
        !usedNumbers.has(mention) &&
        (parameter.type === "number" || Number.isInteger(mention.value)) &&
        (parameter.minimum === undefined || mention.value >= parameter.minimum) &&
        (parameter.maximum === undefined || mention.value <= parameter.maximum);
      const chosen =
        numbers.find((mention) => fits(mention) && near(words, mention.wordIndex, own)) ??
        numbers.find((mention) => fits(mention) && near(words, mention.wordIndex, described)) ??
        (numericParameters === 1 ? numbers.find(fits) : undefined);
      if (chosen) {
        usedNumbers.add(chosen);
        value = chosen.value;
      }
    } else if (parameter.type === "array") {
      if (parameter.items?.values) {
        const mentioned = parameter.items.values.filter(
          (item) => mentionedValue([item], stems, lowerText) !== undefined,
        );
        if (mentioned.length) value = mentioned;
      } else if (parameter.items?.type === "string" || parameter.items?.type === undefined) {
        const list = bestPhrase(phrases, parameter, own, described, isUsed, 1);
        if (list) {
          const items = listFrom(list, phrases, words, isUsed);
          for (const item of items) claim(item);
          value = items.map((item) => item.text);
        }
      }
    } else if (parameter.type === "string" || parameter.type === undefined) {
      const best = bestPhrase(
        phrases,
        parameter,
        own,
        described,
        isUsed,
        parameter.required ? 1 : 2,
      );
      if (best) {
        claim(best);
        value = best.text;
      }
    }
    if (value !== undefined) values[parameter.name] = value;
    else if (parameter.required) missing.push(parameter);
  }
  return { values, missing };
}
