/**
 * What a generation is given: the validated request with its cache merged, the model's traits
 * and family rules from the catalog, and the caller's resolvers for the files and caches the
 * request names (lib/engine/local-backend.ts builds it).
 */
import type { AnswerTraits, ThinkingLengthTraits } from "@/lib/engine/catalog";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { GenerateContentRequest, ModalityTokenCount } from "@/lib/gemini/types";
import type { ResolveFileSearchStores } from "@/lib/engine/tools/file-search";
import type { ImplicitCacheHit } from "@/lib/engine/caches/implicit-cache";
import type { ImplicitCacheTraits, PromptPrefixes } from "@/lib/engine/caches/implicit-prefix";
import type { ResolveCachedContent, ResolveFile } from "./context";

export interface GenerationInput {
  /** Validated; cached content already merged in front of contents (and its systemInstruction/tools/toolConfig). */
  request: GenerateContentRequest;
  traits: ModelTraits;
  /** What answers carry as `modelVersion` (the catalog's: an alias answers as its target). */
  modelVersion: string;
  /** Which optional fields the family's answers carry (the catalog's). */
  answer: AnswerTraits;
  /** How long the family thinks by kind of ask (the catalog's; undefined: it does not think). */
  thinkingLength: ThinkingLengthTraits | undefined;
  /** Streamed (streamGenerateContent) rather than one whole answer: some fields differ. */
  stream: boolean;
  /** Size of the cache used, reported in usage (and included in promptTokenCount). */
  cachedContentTokenCount?: number;
  /** The cache's tokens per modality, reported as usageMetadata.cacheTokensDetails. */
  cacheTokensDetails?: ModalityTokenCount[];
  resolveFile: ResolveFile;
  /** The caller's cached contents by name, read by URL context on their URLs. */
  resolveCachedContent: ResolveCachedContent;
  /** The caller's file search stores' documents, read by the file search tool. */
  resolveFileSearchStores?: ResolveFileSearchStores;
  signal: AbortSignal;
  /**
   * Without a seed of its own the request is sampled with one made from it, as at
   * temperature 0, so the same request answers the same (the emulator's controls).
   */
  repeatableSampling?: boolean;
  /** The cache the request used: its name and how many leading contents came from it (for citations). */
  cachedContent?: { name: string; contents: number };
  /**
   * Implicit caching for this caller and model (absent: the family has none, or the request
   * names a cache): answers a prompt's prefixes with the tokens a recent prompt shares.
   */
  implicitCache?: {
    traits: ImplicitCacheTraits;
    answer: (prefixes: PromptPrefixes) => Promise<ImplicitCacheHit | undefined>;
  };
}
