/** Shared helpers of the generation tests: requests against the real catalog, tokenizer and model. */
import { findModel, requireModel } from "@/lib/engine/catalog";
import type {
  GenerateContentRequest,
  GenerateContentResponse,
  GenerationConfig,
} from "@/lib/gemini/types";
import {
  generateContent,
  streamGenerateContent,
  type GenerationInput,
} from "../engine/generate/index";

export function inputFor(
  model: string,
  text: string,
  generationConfig: GenerationConfig = {},
  extra: Partial<GenerateContentRequest> = {},
  signal: AbortSignal = new AbortController().signal,
): GenerationInput {
  // A retired model's traits stay known: the generation core is tested on them directly.
  const entry = findModel(model)?.retired
    ? findModel(model)!
    : requireModel(model, "generateContent");
  return {
    request: { contents: [{ role: "user", parts: [{ text }] }], generationConfig, ...extra },
    traits: entry.traits,
    modelVersion: entry.modelVersion,
    answer: entry.answer,
    thinkingLength: entry.thinkingLength,
    stream: false,
    resolveFile: async (uri) => {
      throw new Error(`no file ${uri}`);
    },
    resolveCachedContent: async (name) => {
      throw new Error(`no cache ${name}`);
    },
    signal,
  };
}

/** Flash without thinking: the plain text path. */
export function plain(
  text: string,
  generationConfig: GenerationConfig = {},
  extra: Partial<GenerateContentRequest> = {},
): GenerationInput {
  return inputFor(
    "gemini-2.5-flash",
    text,
    { thinkingConfig: { thinkingBudget: 0 }, ...generationConfig },
    extra,
  );
}

export function answerText(response: GenerateContentResponse, index = 0): string {
  return (response.candidates?.[index]?.content?.parts ?? [])
    .filter((part) => !part.thought && part.text !== undefined)
    .map((part) => part.text)
    .join("");
}

export async function collect(input: GenerationInput): Promise<GenerateContentResponse[]> {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of streamGenerateContent({ ...input, stream: true })) chunks.push(chunk);
  return chunks;
}

export { generateContent };
