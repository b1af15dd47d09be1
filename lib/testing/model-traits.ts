/**
 * Model traits for the validation tests, written out here (not read from the engine's
 * catalog) so the tests pin the rules, not the catalog's current figures. They mirror the
 * published profiles of the models they are named after.
 */
import type { ModelTraits } from "../gemini/model-traits";

const base: Omit<ModelTraits, "name"> = {
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: ["generateContent", "countTokens", "createCachedContent"],
  temperature: 1,
  maxTemperature: 2,
  topP: 0.95,
  topK: 64,
  minCacheTokens: 1024,
  responseModalities: [["TEXT"]],
  singleCandidateOnly: false,
  tokenizer: "gemma3",
  roleTokenPerContent: true,
  countTokensRoleTokens: true,
  defaultSafetyThreshold: "OFF",
  logprobs: true,
  externalFileUris: true,
  unsupportedModalities: "combinations",
};

/** Thinking that can be turned off (budget 0), budget 1–24576. */
export const FLASH: ModelTraits = {
  ...base,
  name: "models/gemini-2.5-flash",
  thinking: { minBudget: 1, maxBudget: 24_576, canDisable: true, defaultBudget: -1 },
};

/** Always thinks: budget 128–32768, 0 refused. */
export const PRO: ModelTraits = {
  ...base,
  name: "models/gemini-2.5-pro",
  minCacheTokens: 4096,
  thinking: { minBudget: 128, maxBudget: 32_768, canDisable: false, defaultBudget: -1 },
};

/** No thinking, 8k output. */
export const FLASH_2_0: ModelTraits = {
  ...base,
  name: "models/gemini-2.0-flash",
  outputTokenLimit: 8192,
  topK: 40,
  tokenizer: "gemma",
  roleTokenPerContent: false,
  countTokensRoleTokens: false,
  externalFileUris: false,
};

/** Previous generation: one candidate only, no thinking. */
export const LEGACY: ModelTraits = {
  ...base,
  name: "models/gemini-1.5-flash",
  outputTokenLimit: 8192,
  topK: 40,
  singleCandidateOnly: true,
  tokenizer: "gemma",
  roleTokenPerContent: false,
  countTokensRoleTokens: false,
  defaultSafetyThreshold: "BLOCK_MEDIUM_AND_ABOVE",
  externalFileUris: false,
};

/** A model that does not apply top-K and caps temperature at 1. */
export const NO_TOP_K: ModelTraits = (() => {
  const { topK: _topK, ...rest } = base;
  return {
    ...rest,
    name: "models/gemini-1.0-pro",
    outputTokenLimit: 2048,
    maxTemperature: 1,
    singleCandidateOnly: true,
  };
})();

/** Speech: answers with audio only. */
export const TTS: ModelTraits = {
  ...base,
  name: "models/gemini-2.5-flash-preview-tts",
  inputTokenLimit: 8192,
  outputTokenLimit: 16_384,
  responseModalities: [["AUDIO"]],
  singleCandidateOnly: true,
  unsupportedModalities: "generic",
};

/** Answers text, or text with images. */
export const IMAGE: ModelTraits = {
  ...base,
  name: "models/gemini-2.0-flash-preview-image-generation",
  responseModalities: [["TEXT"], ["TEXT", "IMAGE"]],
};
