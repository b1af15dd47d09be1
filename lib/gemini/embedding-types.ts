/**
 * Embeddings (`models/{m}:embedContent`, `:batchEmbedContents`, `:asyncBatchEmbedContent`),
 * named as `@google/genai`'s types.ts names them. Shapes as the service sends them: recorded
 * answers (shared/conformance/recorded-exchanges-agents: `embeddings[].values`, and from
 * gemini-embedding-2 on a `usageMetadata` of `promptTokenCount` and `promptTokenDetails`), the
 * SDKs' converters (js-genai `converters/_models_converters.ts` `embedContentParametersPrivateToMldev`,
 * `_batches_converters.ts` `createEmbeddingsBatchJobParametersToMldev`).
 */
import type { DeferredEmbeddingValues, EmbeddingValues } from "./embedding-values";
import type { Content, ModalityTokenCount, OperationStatus } from "./types";

/** What the embedding is for (`taskType`), in the service's order. */
export const EMBEDDING_TASK_TYPES = [
  "TASK_TYPE_UNSPECIFIED",
  "RETRIEVAL_QUERY",
  "RETRIEVAL_DOCUMENT",
  "SEMANTIC_SIMILARITY",
  "CLASSIFICATION",
  "CLUSTERING",
  "QUESTION_ANSWERING",
  "FACT_VERIFICATION",
  "CODE_RETRIEVAL_QUERY",
] as const;
export type EmbeddingTaskType = (typeof EMBEDDING_TASK_TYPES)[number];

/** One input to embed: `models/{m}:embedContent`'s body, and each of a batch's requests. */
export interface EmbedContentRequest {
  /** `models/{id}` when the body names its model (the SDKs always do in a batch). */
  model?: string;
  content: Content;
  taskType?: EmbeddingTaskType;
  /** A document's title (read with RETRIEVAL_DOCUMENT). */
  title?: string;
  /** Leading values kept; absent: the model's full size. */
  outputDimensionality?: number;
}

export interface BatchEmbedContentsRequest {
  requests: EmbedContentRequest[];
}

export interface ContentEmbedding {
  /**
   * The engine's as a Float64Array or computed when written (embedding-values.ts); an upstream
   * answer's as parsed.
   */
  values: number[] | EmbeddingValues | DeferredEmbeddingValues;
}

/** Spelled `promptTokenDetails` (not generateContent's `promptTokensDetails`), as recorded. */
export interface EmbeddingUsageMetadata {
  promptTokenCount: number;
  promptTokenDetails?: ModalityTokenCount[];
}

export interface EmbedContentResponse {
  embedding: ContentEmbedding;
  usageMetadata?: EmbeddingUsageMetadata;
}

export interface BatchEmbedContentsResponse {
  embeddings: ContentEmbedding[];
  usageMetadata?: EmbeddingUsageMetadata;
}

/** One request of an asynchronous embedding batch, and the caller's metadata for its result. */
export interface InlinedEmbedContentRequest {
  request: EmbedContentRequest;
  metadata?: Record<string, unknown>;
}

/**
 * The body of `models/{m}:asyncBatchEmbedContent` in canonical form: the batch under `batch`,
 * with exactly one input (`fileName` as `files/{id}`, or inline `requests`).
 */
export interface AsyncBatchEmbedContentRequest {
  batch: {
    model?: string;
    displayName?: string;
    inputConfig: { fileName?: string; requests?: { requests: InlinedEmbedContentRequest[] } };
    priority?: number;
  };
}

/** One result of an embedding batch: the embedding with its usage, or the request's error. */
export interface InlinedEmbedContentResponse {
  response?: EmbedContentResponse;
  error?: OperationStatus;
  metadata?: Record<string, unknown>;
}

/**
 * What an embedding model's catalog entry says of its vectors and inputs (the local engine's
 * data in lib/engine/catalog/models.json; validation reads the limits).
 */
export interface EmbeddingTraits {
  /** Values of a full embedding. */
  dimensions: number;
  /** Smallest `outputDimensionality` accepted. */
  minDimensionality: number;
  /** A truncated embedding is scaled back to unit length (false: its leading values as they are). */
  renormalizesTruncated: boolean;
  /** Whether `taskType` (and a document's `title`) change the vector. */
  readsTaskType: boolean;
  /** Kinds of part the model embeds besides text. */
  media: readonly ("IMAGE" | "AUDIO" | "VIDEO" | "DOCUMENT")[];
  /** Most image parts one input may hold. */
  maxImagePartsPerInput?: number;
  /** Whether answers carry `usageMetadata`. */
  usage: boolean;
}
