/**
 * Whether a prompt asks for what a declared function does, read from the declaration alone
 * (its name, description and parameters), never from a list of known functions. The subject
 * words of the name ("weather" in get_current_weather) weigh most, then description words,
 * parameter names and allowed values; a prompt must also be a request (a question, or an
 * imperative such as "Set …", "Please …", "Can you …") for AUTO to call.
 */
import type { Steps } from "@/lib/gemini/steps";
import type { FunctionDeclaration } from "@/lib/gemini/types";
import type { PromptWord } from "../prompt-words";
import type { ParameterInfo } from "./parameters";

export const STOP_WORDS = new Set(
  (
    "the a an and or of to in on for with from by at is are be was were been being this that " +
    "these those it its as can could would should will may might what whats which who whom how " +
    "when where why does do did doing done about into over under your you me my our their them " +
    "they i we he she his her him us if then than so not no yes all any some each every there here " +
    "just also very too please thanks thank hello hi hey like want need know tell let s t"
  ).split(" "),
);

/** Name words that say how, not what: they match weakly ("get" in get_weather). */
const GENERIC_NAME_WORDS = new Set(
  (
    "get set fetch find list lookup look search create make add remove delete update put post " +
    "send run do call check current info information data details detail by for of the a an to " +
    "from with api tool function new all one query request handle perform execute retrieve read " +
    "write load save show give compute calculate is has"
  ).split(" "),
);

/** Words that open a request when they start the prompt. */
const REQUEST_OPENERS = new Set(
  (
    "please can could would will what whats which who whom how when where why is are do does " +
    "did tell show give find get set turn switch make book send email call check look search " +
    "list create add remove delete schedule play open start stop convert calculate compute " +
    "translate order buy cancel update dim brighten lock unlock move rename fetch read write " +
    "run remind note save share post reserve use i'd i'm id im let lets what's how's where's " +
    "who's"
  ).split(" "),
);

/** A light English stemmer: plural and verb endings, so "forecasts" meets "forecast". */
export function stem(word: string): string {
  const lower = word.toLowerCase().replace(/’/g, "'");
  if (lower.length > 4 && lower.endsWith("ies")) return lower.slice(0, -3) + "y";
  if (lower.length > 4 && lower.endsWith("sses")) return lower.slice(0, -2);
  if (lower.length > 5 && lower.endsWith("ing")) return lower.slice(0, -3);
  if (lower.length > 4 && lower.endsWith("ed")) return lower.slice(0, -2);
  if (lower.length > 3 && lower.endsWith("'s")) return lower.slice(0, -2);
  if (lower.length > 3 && lower.endsWith("s") && !lower.endsWith("ss")) return lower.slice(0, -1);
  return lower;
}

/** The words of a name: `get_current_weather`, `getCurrentWeather` → get current weather. */
export function nameWords(name: string): string[] {
  const words: string[] = [];
  let word = "";
  for (let index = 0; index < name.length; index++) {
    const character = name[index]!;
    const letterOrDigit = /[A-Za-z0-9]/.test(character);
    const upper = character >= "A" && character <= "Z";
    const previous = name[index - 1] ?? "";
    if (!letterOrDigit || (upper && /[a-z0-9]/.test(previous))) {
      if (word) words.push(word.toLowerCase());
      word = letterOrDigit ? character : "";
      continue;
    }
    word += character;
  }
  if (word) words.push(word.toLowerCase());
  return words;
}

/**
 * Characters of a description or value read for its words: what a function or parameter is
 * about comes first, and a megabyte of repeated words (never `limit` distinct ones) took tens
 * of milliseconds per read.
 */
const MAX_STEMMED_CHARACTERS = 10_000;

/** Significant words of a text (no stop words, at least 3 letters), stemmed. */
export function significantStems(text: string, limit = 64): Set<string> {
  const result = new Set<string>();
  let word = "";
  const flush = () => {
    const lower = word.toLowerCase();
    if (lower.length >= 3 && !STOP_WORDS.has(lower)) result.add(stem(lower));
    word = "";
  };
  const end = Math.min(text.length, MAX_STEMMED_CHARACTERS);
  for (let index = 0; index < end && result.size < limit; index++) {
    const character = text[index]!;
    if (/[\p{L}\p{N}]/u.test(character)) word += character;
    else flush();
  }
  flush();
  return result;
}

export interface DeclarationTerms {
  /** Stems of the name's subject words ("weather"). */
  subject: Set<string>;
  /** Stems of the name's generic words ("get"). */
  generic: Set<string>;
  description: Set<string>;
  /** Stems of parameter names and allowed string values. */
  parameters: Set<string>;
}

/** A declaration's terms, one parameter at a time. */
export function* declarationTermsSteps(
  declaration: FunctionDeclaration,
  parameters: readonly ParameterInfo[],
): Steps<DeclarationTerms> {
  const subject = new Set<string>();
  const generic = new Set<string>();
  for (const word of nameWords(declaration.name)) {
    if (word.length < 2) continue;
    (GENERIC_NAME_WORDS.has(word) ? generic : subject).add(stem(word));
  }
  const description = significantStems(declaration.description ?? "");
  const parameterStems = new Set<string>();
  for (const parameter of parameters) {
    yield;
    for (const word of nameWords(parameter.name))
      if (word.length >= 3 && !GENERIC_NAME_WORDS.has(word) && !STOP_WORDS.has(word))
        parameterStems.add(stem(word));
    for (const value of parameter.values ?? [])
      if (typeof value === "string")
        for (const word of significantStems(value)) parameterStems.add(word);
  }
  return { subject, generic, description, parameters: parameterStems };
}

/** The operation an arithmetic operator between two numbers asks for ("100/2" asks to divide). */
const OPERATOR_WORDS: Record<string, string[]> = {
  "/": ["divide", "division"],
  "÷": ["divide", "division"],
  "*": ["multiply", "product"],
  "×": ["multiply", "product"],
  "+": ["add", "sum", "plus"],
  "−": ["subtract", "minus"],
};

function isDigitAt(text: string, index: number): boolean {
  const character = text[index];
  return character !== undefined && character >= "0" && character <= "9";
}

/**
 * Stems of the operations the prompt's arithmetic asks for, in one pass: an operator between
 * numbers ("100/2", "3 * 4"). Dates do not count: a minus only spaced ("7 - 2"), a slash only
 * between two numbers that no other slash joins ("2024/07/29" is no division).
 */
export function arithmeticStems(text: string): Set<string> {
  const result = new Set<string>();
  let lastDigit = -2;
  let slashesInNumber = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (isDigitAt(text, index)) {
      lastDigit = index;
      continue;
    }
    if (character !== "/") slashesInNumber = 0;
    const spacedMinus = character === "-" && text[index - 1] === " " && text[index + 1] === " ";
    const words = spacedMinus ? ["subtract", "minus"] : OPERATOR_WORDS[character];
    if (!words) continue;
    let after = index + 1;
    while (text[after] === " ") after += 1;
    const between =
      lastDigit >= 0 && index - lastDigit <= 3 && text.slice(lastDigit + 1, index).trim() === "";
    if (!between || !isDigitAt(text, after)) continue;
    if (character === "/") {
      slashesInNumber += 1;
      let end = after;
      while (isDigitAt(text, end)) end += 1;
      if (slashesInNumber > 1 || (text[end] === "/" && isDigitAt(text, end + 1))) continue;
    }
    for (const word of words) result.add(stem(word));
  }
  return result;
}

/** The prompt as every declaration's relevance reads it, read once. */
export interface PromptTerms {
  lower: string;
  /** Stems of its significant words and of the operations its arithmetic asks for. */
  stems: Set<string>;
}

export function promptTerms(promptText: string, words: readonly PromptWord[]): PromptTerms {
  const stems = arithmeticStems(promptText);
  for (const word of words) {
    const stemmed = stem(word.lower);
    if (!STOP_WORDS.has(word.lower) && !STOP_WORDS.has(stemmed)) stems.add(stemmed);
  }
  return { lower: promptText.toLowerCase(), stems };
}

/**
 * How strongly the prompt asks for the function: 10 when it names it; else 3 per subject
 * word of the name, 1 for a generic name word, 1 per description word (at most 4) and 1 per
 * parameter name or allowed value (at most 2). AUTO calls at 3 or more.
 */
export function relevance(
  prompt: PromptTerms,
  declaration: FunctionDeclaration,
  terms: DeclarationTerms,
): number {
  const name = declaration.name.toLowerCase();
  const spaced = nameWords(declaration.name).join(" ");
  if (
    (name.length >= 3 && prompt.lower.includes(name)) ||
    (spaced.includes(" ") && prompt.lower.includes(spaced))
  )
    return 10;
  const { stems } = prompt;
  let score = 0;
  for (const word of terms.subject) if (stems.has(word)) score += 3;
  for (const word of terms.generic)
    if (stems.has(word)) {
      score += 1;
      break;
    }
  let described = 0;
  for (const word of terms.description)
    if (!terms.subject.has(word) && stems.has(word)) described += 1;
  score += Math.min(4, described);
  let parameters = 0;
  for (const word of terms.parameters)
    if (!terms.subject.has(word) && !terms.description.has(word) && stems.has(word))
      parameters += 1;
  return score + Math.min(2, parameters);
}

/**
 * Whether the prompt asks for something (a question or a request), rather than only telling.
 * `names` holds every declaration's generic and subject name stems, together.
 */
export function isRequest(
  promptText: string,
  words: readonly PromptWord[],
  names: Pick<DeclarationTerms, "generic" | "subject">,
): boolean {
  if (promptText.includes("?")) return true;
  for (const word of words) {
    if (!word.sentenceStart) continue;
    const lower = word.lower.replace(/’/g, "'");
    if (REQUEST_OPENERS.has(lower)) return true;
    const stemmed = stem(lower);
    // An imperative of a function's verb: "Lookup …", "Fetch …"; or of its subject word in
    // its bare form, "Divide …" for customDivide ("Tides are …" is no imperative).
    if (names.generic.has(stemmed) || (lower === stemmed && names.subject.has(stemmed)))
      return true;
  }
  const lower = promptText.toLowerCase();
  return [
    "i want",
    "i need",
    "i'd like",
    "i would like",
    "can you",
    "could you",
    "let me know",
  ].some((phrase) => lower.includes(phrase));
}
