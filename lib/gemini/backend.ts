/**
 * The one interface both backends implement: the local engine (lib/engine) and the upstream
 * proxy (lib/server/upstream). One method per API operation. Request bodies arrive as parsed
 * JSON (`unknown`): the local engine validates them with lib/gemini/validate, the upstream
 * forwards them. Every method may throw ApiError.
 */
import type {
  CountTokensResponse,
  GenerateContentResponse,
  ListModelsResponse,
  Model,
} from "./types";

/** Who is calling: files, caches and conversations belong to an owner. */
export interface Caller {
  /** Stable owner id: `key:{name}` for a studio key, `studio` for browser sessions. */
  ownerId: string;
}

export interface PageQuery {
  pageSize?: number;
  pageToken?: string;
}

export interface OperationContext {
  caller: Caller;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

export interface Backend {
  readonly mode: "local" | "upstream";
  listModels(query: PageQuery, context: OperationContext): Promise<ListModelsResponse>;
  getModel(model: string, context: OperationContext): Promise<Model>;
  countTokens(model: string, body: unknown, context: OperationContext): Promise<CountTokensResponse>;
  generateContent(model: string, body: unknown, context: OperationContext): Promise<GenerateContentResponse>;
  /** Chunks carry text deltas; throwing after the first chunk is a mid-stream failure. */
  streamGenerateContent(model: string, body: unknown, context: OperationContext): AsyncIterable<GenerateContentResponse>;
}
