/**
 * Function calling (tools.functionDeclarations with toolConfig.functionCallingConfig): mode ANY
 * always calls one of the (allowed) functions; AUTO and VALIDATED call one only when the last
 * user turn clearly asks for it — it names the function, or shares at least two significant
 * words with its name and description; NONE never calls. A turn that carries function
 * responses is answered in text. codeExecution is accepted but never executed locally.
 */
import type { FunctionDeclaration, GenerateContentRequest } from "@/lib/gemini/types";

const STOP_WORDS = new Set(
  "the a an and or of to in on for with from by at is are be was were this that these those it its as can could would should will may might what which who whom how when where why does do did get gets give gives given make makes use uses using about into over under your you me my our their them they".split(
    " ",
  ),
);

/** The words of a name: `get_current_weather`, `getCurrentWeather` → get current weather. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.toLowerCase())
    .filter(Boolean);
}

function significant(text: string): Set<string> {
  const result = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (word.length < 3 || STOP_WORDS.has(word)) continue;
    result.add(stem(word));
  }
  return result;
}

function stem(word: string): string {
  return word.length > 5 ? word.slice(0, 5) : word.replace(/s$/, "");
}

/** How strongly the prompt asks for a function: 10 when it names it, else shared significant words. */
export function relevance(prompt: string, declaration: FunctionDeclaration): number {
  const lower = prompt.toLowerCase();
  const words = nameWords(declaration.name);
  if (
    lower.includes(declaration.name.toLowerCase()) ||
    (words.length > 1 && lower.includes(words.join(" ")))
  )
    return 10;
  const wanted = significant(`${words.join(" ")} ${declaration.description ?? ""}`);
  let shared = 0;
  for (const word of significant(prompt)) if (wanted.has(word)) shared += 1;
  return shared;
}

export interface FunctionPlan {
  /** Declarations the model may call, with their relevance to the prompt. */
  options: { declaration: FunctionDeclaration; relevance: number }[];
  /** Whether one must be called (ANY) or only when clearly asked (AUTO). */
  forced: boolean;
}

/** Decides whether this request may or must answer with a function call. Null: text only. */
export function planFunctionCall(
  request: GenerateContentRequest,
  lastUserText: string,
  answersFunction: boolean,
): FunctionPlan | null {
  const declarations = (request.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  if (declarations.length === 0) return null;
  const config = request.toolConfig?.functionCallingConfig;
  const mode = config?.mode ?? "AUTO";
  if (mode === "NONE") return null;
  const forced = mode === "ANY";
  if (!forced && answersFunction) return null;
  const allowed =
    forced && config?.allowedFunctionNames?.length ? new Set(config.allowedFunctionNames) : null;
  const options = declarations
    .filter((declaration) => !allowed || allowed.has(declaration.name))
    .map((declaration) => ({ declaration, relevance: relevance(lastUserText, declaration) }));
  if (options.length === 0) return null;
  if (forced) return { options, forced };
  const asked = options.filter((option) => option.relevance >= 2);
  return asked.length ? { options: asked, forced } : null;
}
