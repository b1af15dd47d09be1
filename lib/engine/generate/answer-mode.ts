/**
 * The mode of a candidate's answer (candidate.ts runs it): speech, a function call, constrained
 * JSON or enum output, or text, literal or free, decided from the request and its context.
 */
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { Steps } from "@/lib/gemini/steps";
import type { GenerateContentRequest, GenerationConfig } from "@/lib/gemini/types";
import type { AnswerMode } from "./answer-steps";
import type { RequestContext } from "./context";
import type { DecodingState } from "./decoding";
import { JsonSchemaDocument, openApiSchemaSteps } from "./json-schema-nodes";
import { promptHints } from "./prompt-words";
import { literalAnswer } from "./skills";
import { analysedText, decideFunctionCallSteps, functionResultLead } from "./tools";

/** Whether the answer is speech: the model speaks only, or the request asks for AUDIO. */
export function answersWithAudio(traits: ModelTraits, config: GenerationConfig): boolean {
  const speechOnly =
    traits.responseModalities.length > 0 &&
    traits.responseModalities.every(
      (combination) => combination.length === 1 && combination[0] === "AUDIO",
    );
  return (
    speechOnly ||
    (config.responseModalities ?? []).some((modality) => modality.toUpperCase() === "AUDIO")
  );
}

/**
 * Whether the answer carries a picture (the request asks for IMAGE; the model's rules allow it),
 * after its text, or alone when TEXT is not asked for.
 */
export function pictureAsked(config: GenerationConfig): "none" | "after-text" | "alone" {
  const modalities = (config.responseModalities ?? []).map((modality) => modality.toUpperCase());
  if (!modalities.includes("IMAGE")) return "none";
  return modalities.includes("TEXT") ? "after-text" : "alone";
}

/**
 * Which mode a candidate answers in, first match wins: speech; a function call or a question
 * back about a missing argument (tools/); JSON or a bare enum value (responseMimeType); a
 * literal skill; text that opens with what called functions returned; else free text. The
 * function declarations are gone through in steps (they may be megabytes).
 */
export function* answerModeSteps(
  request: GenerateContentRequest,
  context: RequestContext,
  state: DecodingState,
  audio: boolean,
): Steps<AnswerMode> {
  const config = request.generationConfig ?? {};
  if (audio) {
    const voiceName = config.speechConfig?.voiceConfig?.prebuiltVoiceConfig?.voiceName;
    return { kind: "audio", text: context.lastUserText, voiceName };
  }
  const decision = yield* decideFunctionCallSteps(
    request,
    context.lastUserText,
    context.answersFunction,
    (count) => chooseIndex(state, new Array<number>(count).fill(1)),
  );
  if (decision?.kind === "ask") return { kind: "text", literal: decision.text };
  if (decision?.kind === "call") {
    const chosen = decision.declaration;
    const hints = promptHints(analysedText(context.lastUserText));
    if (chosen.parametersJsonSchema !== undefined) {
      const document = new JsonSchemaDocument(chosen.parametersJsonSchema);
      return {
        kind: "function",
        name: chosen.name,
        parameters: yield* document.rootNodeSteps(),
        resolve: (ref) => document.resolve(ref),
        hints,
        presets: decision.arguments,
      };
    }
    return {
      kind: "function",
      name: chosen.name,
      parameters: yield* openApiSchemaSteps(chosen.parameters),
      hints,
      presets: decision.arguments,
    };
  }
  const mimeType = config.responseMimeType?.toLowerCase();
  if (mimeType === "application/json") {
    if (config.responseJsonSchema !== undefined) {
      const document = new JsonSchemaDocument(config.responseJsonSchema);
      const root = yield* document.rootNodeSteps();
      return { kind: "json", root, resolve: (ref) => document.resolve(ref) };
    }
    return { kind: "json", root: yield* openApiSchemaSteps(config.responseSchema) };
  }
  if (mimeType === "text/x.enum") {
    const values = config.responseSchema?.enum ?? enumOf(config.responseJsonSchema);
    if (values?.length) return { kind: "enum", values };
  }
  const literal = literalAnswer(context.lastUserText);
  if (literal !== undefined) return { kind: "text", literal };
  const last = request.contents.at(-1);
  const lead = context.answersFunction && last ? functionResultLead(last.parts) : undefined;
  return lead ? { kind: "text", lead } : { kind: "text" };
}

function enumOf(schema: unknown): (string | number)[] | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const values = (schema as { enum?: unknown }).enum;
  return Array.isArray(values)
    ? values.filter(
        (value): value is string | number => typeof value === "string" || typeof value === "number",
      )
    : undefined;
}

function chooseIndex(state: DecodingState, weights: number[]): number {
  if (state.settings.temperature <= 0) return weights.indexOf(Math.max(...weights));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let target = state.random.next() * total;
  for (let index = 0; index < weights.length; index++) {
    target -= weights[index]!;
    if (target < 0) return index;
  }
  return weights.length - 1;
}
