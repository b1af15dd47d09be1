/**
 * Function calling (tools.functionDeclarations with toolConfig.functionCallingConfig), from
 * the declarations alone: mode ANY always calls one of the (allowed) functions, the one the
 * prompt asks for most; AUTO and VALIDATED call when the prompt is a request whose words
 * match a function's name, description or parameters (relevance.ts), with the arguments the
 * prompt gives (arguments.ts); NONE never calls. Where the service's model would usually ask
 * back, so does this: when AUTO would call but a required free-form argument (a string,
 * number, array or object) has no value in the prompt, the answer is a text question naming
 * it; a required closed choice (enum, boolean) is chosen by the JSON grammar instead. A turn
 * that carries function responses is answered in text (in ANY, with another call).
 * Code execution is lib/engine/tools/code-execution.ts (it runs Python in a sandbox).
 */
import type { Steps } from "@/lib/gemini/steps";
import type { FunctionDeclaration, GenerateContentRequest, Part } from "@/lib/gemini/types";
import { scanWords } from "../prompt-words";
import { extractArgumentsSteps } from "./arguments";
import { declarationParametersSteps, type ParameterInfo } from "./parameters";
import {
  declarationTermsSteps,
  isRequest,
  nameWords,
  promptTerms,
  relevance,
  type DeclarationTerms,
} from "./relevance";

export { nameWords } from "./relevance";

/** The end of the last user turn that is read for a request: a request sits at its end. */
export const MAX_ANALYSED_CHARACTERS = 20_000;

/** Relevance at which AUTO calls (one subject word of the name, or three other matches). */
const CALL_THRESHOLD = 3;

export type FunctionDecision =
  | {
      kind: "call";
      declaration: FunctionDeclaration;
      /** Arguments read from the prompt; the grammar adds any other required ones (ANY only). */
      arguments: Record<string, unknown>;
    }
  | { kind: "ask"; text: string };

/** The part of the last user turn that is analysed (its end, cut at a word boundary). */
export function analysedText(lastUserText: string): string {
  if (lastUserText.length <= MAX_ANALYSED_CHARACTERS) return lastUserText;
  const tail = lastUserText.slice(lastUserText.length - MAX_ANALYSED_CHARACTERS);
  const space = tail.search(/\s/);
  return space >= 0 && space < 100 ? tail.slice(space + 1) : tail;
}

/**
 * Whether this request answers with a function call, a question back, or (null) text.
 * `draw(count)` picks an index when ANY must call and nothing in the prompt points anywhere.
 * One declaration and one parameter at a time: declarations may be megabytes.
 */
export function* decideFunctionCallSteps(
  request: GenerateContentRequest,
  lastUserText: string,
  answersFunction: boolean,
  draw: (count: number) => number,
): Steps<FunctionDecision | null> {
  const declarations = (request.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  if (declarations.length === 0) return null;
  const config = request.toolConfig?.functionCallingConfig;
  const mode = config?.mode ?? "AUTO";
  if (mode === "NONE") return null;
  const forced = mode === "ANY";
  if (!forced && answersFunction) return null;
  const allowed =
    (mode === "ANY" || mode === "VALIDATED") && config?.allowedFunctionNames?.length
      ? new Set(config.allowedFunctionNames)
      : null;
  const usable = declarations.filter((declaration) => !allowed || allowed.has(declaration.name));
  if (usable.length === 0) return null;

  const text = analysedText(lastUserText);
  const words = scanWords(text);
  const prompt = promptTerms(text, words);
  const names = { generic: new Set<string>(), subject: new Set<string>() };
  const analysed: {
    declaration: FunctionDeclaration;
    parameters: ParameterInfo[];
    terms: DeclarationTerms;
    score: number;
  }[] = [];
  for (const declaration of usable) {
    const parameters = yield* declarationParametersSteps(declaration);
    const terms = yield* declarationTermsSteps(declaration, parameters);
    analysed.push({ declaration, parameters, terms, score: relevance(prompt, declaration, terms) });
    for (const stem of terms.generic) names.generic.add(stem);
    for (const stem of terms.subject) names.subject.add(stem);
    yield;
  }
  let best = analysed[0]!;
  for (const option of analysed) if (option.score > best.score) best = option;

  if (!forced) {
    if (best.score < CALL_THRESHOLD) return null;
    if (!isRequest(text, words, names)) return null;
  } else if (best.score === 0) {
    best = analysed[Math.min(analysed.length - 1, Math.max(0, draw(analysed.length)))]!;
  }

  const extracted = yield* extractArgumentsSteps(text, words, best.parameters);
  const unknowable = extracted.missing.filter((parameter) => !isClosedChoice(parameter));
  if (!forced && unknowable.length)
    return { kind: "ask", text: askFor(best.declaration, unknowable) };
  return { kind: "call", declaration: best.declaration, arguments: extracted.values };
}

function isClosedChoice(parameter: ParameterInfo): boolean {
  return (
    parameter.type === "boolean" || (parameter.values !== undefined && parameter.type !== "array")
  );
}

function label(parameter: ParameterInfo): string {
  return nameWords(parameter.name).join(" ") || parameter.name;
}

function listWords(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** The question asked back when required arguments are not in the prompt. */
function askFor(declaration: FunctionDeclaration, missing: ParameterInfo[]): string {
  const wanted = listWords(missing.map((parameter) => `the ${label(parameter)}`));
  const question =
    missing.length === 1
      ? `Which ${label(missing[0]!)} should I use?`
      : "Could you tell me what to use for each?";
  return `I can use ${declaration.name} for that, but I need ${wanted}. ${question}`;
}

/** Values of a function response as prose ("temperature 21, sky sunny"), at most 400 characters. */
function prose(value: unknown, budget = { left: 400 }): string {
  if (budget.left <= 0 || value === null || value === undefined) return "";
  let text: string;
  if (typeof value === "string") text = value.slice(0, budget.left);
  else if (typeof value === "number" || typeof value === "boolean") text = String(value);
  else if (Array.isArray(value))
    text = value
      .map((item) => prose(item, budget))
      .filter(Boolean)
      .join(", ");
  else if (typeof value === "object")
    text = Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => {
        const innerText = prose(inner, budget);
        return innerText ? `${nameWords(key).join(" ")} ${innerText}` : "";
      })
      .filter(Boolean)
      .join(", ");
  else text = "";
  budget.left -= text.length;
  return text;
}

/** The Python SDK wraps a callable's return value as {"result": value}; "output" is the documented key. */
function unwrapped(response: unknown): unknown {
  if (typeof response !== "object" || response === null || Array.isArray(response)) return response;
  const keys = Object.keys(response);
  return keys.length === 1 && (keys[0] === "result" || keys[0] === "output")
    ? (response as Record<string, unknown>)[keys[0]]
    : response;
}

/**
 * The opening sentence of a text answer to function responses: what each function returned,
 * so the answer uses the result (the model's own text follows).
 */
export function functionResultLead(parts: readonly Part[]): string | undefined {
  const sentences: string[] = [];
  for (const part of parts) {
    const response = part.functionResponse;
    if (!response) continue;
    const result = prose(unwrapped(response.response));
    sentences.push(
      result ? `${response.name} returned ${result}.` : `${response.name} returned nothing.`,
    );
  }
  return sentences.length ? sentences.join(" ") : undefined;
}
