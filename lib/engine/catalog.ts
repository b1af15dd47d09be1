/**
 * The local engine's model catalog: the one source of truth for model names, limits and
 * traits. Figures are the public service's published ones; `version` and descriptions are ours.
 */
import type { Model } from "@/lib/gemini/types";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import { ApiError } from "@/lib/gemini/api-error";

export interface CatalogEntry {
  traits: ModelTraits;
  model: Model;
}

const TEXT_METHODS = [
  "generateContent",
  "countTokens",
  "createCachedContent",
  "batchGenerateContent",
];

function entry(
  id: string,
  displayName: string,
  description: string,
  version: string,
  traits: Omit<ModelTraits, "name">,
): CatalogEntry {
  const name = `models/${id}`;
  return {
    traits: { name, ...traits },
    model: {
      name,
      version,
      displayName,
      description,
      inputTokenLimit: traits.inputTokenLimit,
      outputTokenLimit: traits.outputTokenLimit,
      supportedGenerationMethods: traits.supportedGenerationMethods,
      temperature: traits.temperature,
      topP: traits.topP,
      ...(traits.topK !== undefined ? { topK: traits.topK } : {}),
      maxTemperature: traits.maxTemperature,
      ...(traits.thinking ? { thinking: true } : {}),
    },
  };
}

/** Traits shared by the 2.5 generation (Gemma 3 vocabulary, role token, 1M context). */
const GENERATION_2_5: Omit<ModelTraits, "name"> = {
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: TEXT_METHODS,
  temperature: 1,
  maxTemperature: 2,
  topP: 0.95,
  topK: 64,
  minCacheTokens: 1024,
  responseModalities: [["TEXT"]],
  singleCandidateOnly: false,
  tokenizer: "gemma3",
  roleTokenPerContent: true,
  defaultSafetyThreshold: "OFF",
};

/** Traits shared by the 2.0 generation (256k Gemma vocabulary, no role token, no thinking). */
const GENERATION_2_0: Omit<ModelTraits, "name"> = {
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 8_192,
  supportedGenerationMethods: TEXT_METHODS,
  temperature: 1,
  maxTemperature: 2,
  topP: 0.95,
  topK: 40,
  minCacheTokens: 4096,
  responseModalities: [["TEXT"]],
  singleCandidateOnly: false,
  tokenizer: "gemma",
  roleTokenPerContent: false,
  defaultSafetyThreshold: "OFF",
};

export const CATALOG: readonly CatalogEntry[] = [
  entry(
    "gemini-2.5-pro",
    "Gemini 2.5 Pro",
    "Thinking model for complex reasoning, code and long context.",
    "2.5",
    {
      ...GENERATION_2_5,
      thinking: { minBudget: 128, maxBudget: 32_768, canDisable: false, defaultBudget: -1 },
      minCacheTokens: 4096,
    },
  ),
  entry(
    "gemini-2.5-flash",
    "Gemini 2.5 Flash",
    "Fast thinking model with a 1M-token context window.",
    "001",
    {
      ...GENERATION_2_5,
      thinking: { minBudget: 1, maxBudget: 24_576, canDisable: true, defaultBudget: -1 },
    },
  ),
  entry(
    "gemini-2.5-flash-lite",
    "Gemini 2.5 Flash-Lite",
    "Smallest 2.5 model; thinking is off unless a budget is set.",
    "001",
    {
      ...GENERATION_2_5,
      thinking: { minBudget: 512, maxBudget: 24_576, canDisable: true, defaultBudget: 0 },
    },
  ),
  entry(
    "gemini-2.5-flash-preview-tts",
    "Gemini 2.5 Flash Preview TTS",
    "Text-to-speech: answers with audio only (24 kHz PCM).",
    "gemini-2.5-flash-exp-tts-2025-05-19",
    {
      ...GENERATION_2_5,
      inputTokenLimit: 8_192,
      outputTokenLimit: 16_384,
      supportedGenerationMethods: ["countTokens", "generateContent"],
      responseModalities: [["AUDIO"]],
      singleCandidateOnly: true,
    },
  ),
  entry(
    "gemini-2.0-flash",
    "Gemini 2.0 Flash",
    "Fast multimodal model of the 2.0 generation.",
    "2.0",
    GENERATION_2_0,
  ),
  entry(
    "gemini-2.0-flash-lite",
    "Gemini 2.0 Flash-Lite",
    "Cost-efficient 2.0 model.",
    "2.0",
    GENERATION_2_0,
  ),
  entry(
    "gemini-1.5-flash",
    "Gemini 1.5 Flash",
    "Previous-generation fast model: one candidate per request.",
    "001",
    {
      ...GENERATION_2_0,
      inputTokenLimit: 1_000_000,
      supportedGenerationMethods: ["generateContent", "countTokens", "createCachedContent"],
      minCacheTokens: 32_768,
      singleCandidateOnly: true,
      defaultSafetyThreshold: "BLOCK_MEDIUM_AND_ABOVE",
    },
  ),
];

const BY_NAME = new Map(CATALOG.map((item) => [item.traits.name, item]));

/** Accepts `models/x` or a bare `x`. */
export function findModel(name: string): CatalogEntry | undefined {
  return BY_NAME.get(name.startsWith("models/") ? name : `models/${name}`);
}

/** The catalog entry for a model path segment, or the service's 404 naming the method. */
export function requireModel(name: string, method: string): CatalogEntry {
  const found = findModel(name);
  const resource = name.startsWith("models/") ? name : `models/${name}`;
  if (!found) {
    throw ApiError.notFound(
      `${resource} is not found for API version v1beta, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`,
    );
  }
  if (!found.traits.supportedGenerationMethods.includes(method) && method !== "get") {
    throw ApiError.notFound(
      `${resource} is not found for API version v1beta, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`,
    );
  }
  return found;
}
