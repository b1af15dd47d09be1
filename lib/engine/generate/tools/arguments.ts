/**
 * Function-call arguments taken from the prompt, by each parameter's name, description and
 * type: allowed values (enums) and booleans where the prompt says them, numbers near the
 * parameter's words and within its bounds, and strings from the prompt's phrases
 * (argument-phrases.ts, scored by phrase-scores.ts), each used once. Nothing is invented: a
 * parameter the prompt says nothing about is left out (or reported missing).
 */
import type { Steps } from "@/lib/gemini/steps";
import type { PromptWord } from "../prompt-words";
import { listFrom, phrasesOf, type Phrase } from "./argument-phrases";
import type { ParameterInfo } from "./parameters";
import { bestPhrase } from "./phrase-scores";
import { nameWords, significantStems, stem } from "./relevance";

export interface ExtractedArguments {
  values: Record<string, unknown>;
  /** Required parameters the prompt gives no value for. */
  missing: ParameterInfo[];
}

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

/** The prompt read once for every parameter: its words, phrases and numbers, and which are taken. */
class ArgumentReader {
  private readonly stems: Set<string>;
  private readonly lowerText: string;
  private readonly phrases: Phrase[];
  private readonly numbers: NumberMention[];
  /** Character ranges already given to a parameter: a phrase overlapping one is not reused. */
  private readonly usedRanges: Phrase[] = [];
  private readonly usedNumbers = new Set<NumberMention>();
  private readonly numericParameters: number;

  constructor(
    text: string,
    private readonly words: readonly PromptWord[],
    parameters: readonly ParameterInfo[],
  ) {
    this.stems = new Set(words.map((word) => stem(word.lower)));
    this.lowerText = text.toLowerCase();
    this.phrases = phrasesOf(text, words);
    this.numbers = numbersOf(words);
    this.numericParameters = parameters.filter(
      (parameter) => parameter.type === "number" || parameter.type === "integer",
    ).length;
  }

  private readonly isUsed = (phrase: Phrase): boolean =>
    this.usedRanges.some((used) => phrase.start < used.end && used.start < phrase.end);

  /** The parameter's value as the prompt gives it; undefined when it gives none. */
  read(parameter: ParameterInfo): unknown {
    const own = wordsOf(parameter);
    const described = significantStems(parameter.description, 12);
    if (parameter.values && parameter.type !== "array")
      return mentionedValue(parameter.values, this.stems, this.lowerText);
    if (parameter.type === "boolean") {
      const index = this.words.findIndex((word) => own.has(stem(word.lower)));
      return index >= 0 ? !negatedBefore(this.words, index) : undefined;
    }
    if (parameter.type === "number" || parameter.type === "integer")
      return this.number(parameter, own, described);
    if (parameter.type === "array") return this.list(parameter, own, described);
    if (parameter.type === "string" || parameter.type === undefined) {
      const minimum = parameter.required ? 1 : 2;
      const best = bestPhrase(this.phrases, parameter, own, described, this.isUsed, minimum);
      if (!best) return undefined;
      this.usedRanges.push(best);
      return best.text;
    }
    return undefined;
  }

  /** A number near the parameter's words (or its description's), within its bounds. */
  private number(parameter: ParameterInfo, own: Set<string>, described: Set<string>): unknown {
    const words = this.words;
    const fits = (mention: NumberMention) =>
      !this.usedNumbers.has(mention) &&
      (parameter.type === "number" || Number.isInteger(mention.value)) &&
      (parameter.minimum === undefined || mention.value >= parameter.minimum) &&
      (parameter.maximum === undefined || mention.value <= parameter.maximum);
    const chosen =
      this.numbers.find((mention) => fits(mention) && near(words, mention.wordIndex, own)) ??
      this.numbers.find((mention) => fits(mention) && near(words, mention.wordIndex, described)) ??
      (this.numericParameters === 1 ? this.numbers.find(fits) : undefined);
    if (!chosen) return undefined;
    this.usedNumbers.add(chosen);
    return chosen.value;
  }

  /** The allowed items the prompt mentions, or a list of its phrases for strings. */
  private list(parameter: ParameterInfo, own: Set<string>, described: Set<string>): unknown {
    if (parameter.items?.values) {
      const mentioned = parameter.items.values.filter(
        (item) => mentionedValue([item], this.stems, this.lowerText) !== undefined,
      );
      return mentioned.length ? mentioned : undefined;
    }
    if (parameter.items?.type !== "string" && parameter.items?.type !== undefined) return undefined;
    const first = bestPhrase(this.phrases, parameter, own, described, this.isUsed, 1);
    if (!first) return undefined;
    const items = listFrom(first, this.phrases, this.words, this.isUsed);
    for (const item of items) this.usedRanges.push(item);
    return items.map((item) => item.text);
  }
}

/** Reads each parameter's value from the prompt where the prompt has one, one at a time. */
export function* extractArgumentsSteps(
  text: string,
  words: readonly PromptWord[],
  parameters: readonly ParameterInfo[],
): Steps<ExtractedArguments> {
  const reader = new ArgumentReader(text, words, parameters);
  const values: Record<string, unknown> = {};
  const missing: ParameterInfo[] = [];
  for (const parameter of parameters) {
    yield;
    const value = reader.read(parameter);
    if (value !== undefined) values[parameter.name] = value;
    else if (parameter.required) missing.push(parameter);
  }
  return { values, missing };
}
