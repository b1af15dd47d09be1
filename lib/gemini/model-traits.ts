/**
 * What a model allows, as the validation rules need it. The local engine's catalog fills
 * every field, for the models it lists and (by its family rules) for a model another service
 * lists (lib/engine/catalog: catalogEntryForResource), which is what the studio reads.
 */
import type { PromptTokenRules } from "./prompt-token-rules";
import type { Model } from "./types";

export type TokenizerFamily = "gemma" | "gemma3";

export interface ThinkingTraits {
  /** Budget range accepted besides 0 (off) and -1 (dynamic). */
  minBudget: number;
  maxBudget: number;
  /** Whether thinkingBudget 0 turns thinking off (false: the model always thinks). */
  canDisable: boolean;
  /** Budget used when the request sets none (-1: dynamic). */
  defaultBudget: number;
  /** Accepts budget 0 without turning thinking off (2.5 Pro previews of 2025, recorded). */
  ignoresZeroBudget?: boolean;
}

export interface ModelTraits {
  /** Resource name, `models/{id}`. */
  name: string;
  inputTokenLimit: number;
  outputTokenLimit: number;
  supportedGenerationMethods: string[];
  temperature: number;
  maxTemperature: number;
  topP: number;
  /** Absent when the model does not apply top-K sampling (setting it is then an error). */
  topK?: number;
  thinking?: ThinkingTraits;
  /** Smallest cachedContent this model accepts, in tokens. */
  minCacheTokens: number;
  /** Each entry is one exact combination of output modalities the model supports. */
  responseModalities: string[][];
  /** Previous generation: one candidate only. */
  singleCandidateOnly: boolean;
  /** Which SentencePiece vocabulary counts this model's text. */
  tokenizer: TokenizerFamily;
  /** 2.5 and later add one token per Content (the role token) to a prompt's count. */
  roleTokenPerContent: boolean;
  /** Whether countTokens adds the role tokens (1.5 did there, not in its generation answers). */
  countTokensRoleTokens: boolean;
  /**
   * Whether a generation that asks for IMAGE among its responseModalities adds the role tokens
   * where the model's text answers do not (2.0's experimental image output).
   */
  imageOutputRoleTokens?: boolean;
  /**
   * How the service counts the rest of a prompt (tools, function parts, media). The local
   * engine's catalog sets it; a model known only from the wire has none (the service counts).
   */
  promptTokens?: PromptTokenRules;
  /**
   * How the service counts a cache of this model (cachedContents.create) where that is not by
   * the model's own rules above: a 2.0 model's cache counts as a 2.5 prompt (recorded).
   */
  cacheTokens?: Pick<ModelTraits, "tokenizer" | "roleTokenPerContent" | "promptTokens">;
  /**
   * How the service answers countTokens for this model where that is not by the model's own
   * rules above: a 2.0 model's countTokens counts as 2.5's (recorded: a role token per Content,
   * a 2048 × 1362 image 258 where 2.0's generation counts it by tiles).
   */
  countTokensCounting?: Pick<ModelTraits, "tokenizer" | "countTokensRoleTokens" | "promptTokens">;
  /** Default safety threshold when a request sets none for a category. */
  defaultSafetyThreshold: "BLOCK_MEDIUM_AND_ABOVE" | "OFF";
  /** Whether `responseLogprobs` is enabled ("Logprobs is not enabled for this model" if not). */
  logprobs: boolean;
  /** Whether `fileData.fileUri` may be an http(s) URL outside the Files API. */
  externalFileUris: boolean;
  /**
   * How an unsupported responseModalities combination is refused: naming the combinations the
   * model accepts, or the service's generic "Request contains an invalid argument." (speech).
   */
  unsupportedModalities: "combinations" | "generic";
  /** Built-in tools the model offers (absent: none). */
  builtInTools?: ("googleSearch" | "urlContext" | "codeExecution")[];
}

/**
 * Best-effort traits for a model known only by its name, guessed from it: only for the old
 * model names of the recorded token facts (lib/engine/tokens/tokens.test.ts); the studio and
 * the gateway read the catalog's.
 */
export function traitsFromModel(model: Model): ModelTraits {
  const name = model.name ?? "models/unknown";
  const modern = !/gemini-(1\.|2\.0)/.test(name);
  return {
    name,
    inputTokenLimit: model.inputTokenLimit ?? 1_048_576,
    outputTokenLimit: model.outputTokenLimit ?? 8_192,
    supportedGenerationMethods: model.supportedGenerationMethods ?? [],
    temperature: model.temperature ?? 1,
    maxTemperature: model.maxTemperature ?? 2,
    topP: model.topP ?? 0.95,
    ...(model.topK !== undefined ? { topK: model.topK } : {}),
    ...(model.thinking
      ? { thinking: { minBudget: 0, maxBudget: 32_768, canDisable: true, defaultBudget: -1 } }
      : {}),
    minCacheTokens: 1024,
    responseModalities: modalitiesByName(name),
    singleCandidateOnly: /gemini-1\.0|gemini-pro$/.test(name),
    tokenizer: modern ? "gemma3" : "gemma",
    roleTokenPerContent: modern,
    countTokensRoleTokens: modern,
    defaultSafetyThreshold: modern ? "OFF" : "BLOCK_MEDIUM_AND_ABOVE",
    logprobs: !/gemini-3|-latest$/.test(name),
    externalFileUris: modern,
    unsupportedModalities: /tts/.test(name) ? "generic" : "combinations",
    builtInTools: builtInToolsByName(name),
  };
}

/**
 * The output modalities of a model known only by name: speech models speak only; image models
 * (`gemini-…-image`, `gemini-…-image-generation`) answer text with pictures, or pictures alone.
 */
function modalitiesByName(name: string): string[][] {
  if (/tts/.test(name)) return [["AUDIO"]];
  if (/gemini-[\w.-]*image/.test(name)) return [["TEXT", "IMAGE"], ["IMAGE"]];
  return [["TEXT"]];
}

/**
 * The built-in tools of a model known only by name: the service's models offer search, URL
 * context and code execution from 2.5 on (2.0: no URL context; 1.5: code execution), except
 * speech, image, embedding and open (Gemma) models. Best effort, like the rest of these traits;
 * the local engine's catalog says it per model family.
 */
function builtInToolsByName(name: string): NonNullable<ModelTraits["builtInTools"]> {
  if (/tts|image|embedding|imagen|veo|gemma|lyria|aqa|live|audio/.test(name)) return [];
  if (/gemini-1\./.test(name)) return ["codeExecution"];
  if (/gemini-2\.0/.test(name))
    return /lite|thinking|exp/.test(name) ? [] : ["googleSearch", "codeExecution"];
  return ["googleSearch", "urlContext", "codeExecution"];
}
