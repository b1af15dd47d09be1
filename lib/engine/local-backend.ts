/**
 * The local engine behind the Backend interface: checks each canonical request against its
 * model's rules (lib/gemini/validate) and answers it offline. Models come from the catalog.
 */
import type { CacheStore } from "@/lib/db/stores/cache-store";
import type { FileStore } from "@/lib/db/stores/file-store";
import type { Backend, OperationContext, PageQuery } from "@/lib/gemini/backend/contract";
import type {
  CountTokensRequest,
  CountTokensResponse,
  GenerateContentRequest,
  GenerateContentResponse,
  ListModelsResponse,
  Model,
} from "@/lib/gemini/types";
import { checkCountTokensRequest, checkGenerateContentRequest } from "@/lib/gemini/validate";
import { generateContent, streamGenerateContent, type GenerationInput } from "./generate";
import { LISTED_MODELS, requireModel } from "./catalog";
import { pageByOffset } from "@/lib/gemini/page-token";
import { countRequestTokens } from "./tokens";
import { createStorage, type Storage } from "./files/storage-operations";
import { MediaProbeError, probeMedia } from "./media/probe";

export interface LocalBackendDependencies {
  /** Where files, upload sessions and caches are recorded (lib/db). */
  stores: { files: FileStore; caches: CacheStore };
  /** Root folder for file bytes. */
  dataDir: string;
  /** Storage per owner for files and open uploads, in bytes (default 20 GiB). */
  fileQuotaBytes?: number;
  /** Clock for expiry; tests move it. */
  now?: () => number;
  /** 0 turns the periodic sweep of expired files, caches and uploads off. */
  sweepIntervalMs?: number;
  /** True when this instance is the one to sweep now (instances sharing one database take turns). */
  housekeepingTurn?: () => Promise<boolean>;
  onError?: (message: string, error: unknown) => void;
}

/**
 * The local backend, plus its stored resources. Generation resolves `fileData.fileUri` with
 * `storage.resolveFileForCaller(uri, caller)` and merges `cachedContent` with
 * `storage.resolveCachedContentForRequest(request, traits, caller)`.
 */
export type LocalBackend = Backend & { storage: Storage };

export function createLocalBackend(dependencies: LocalBackendDependencies): LocalBackend {
  const storage = createStorage({
    ...dependencies,
    countTokens: (traits, input, options) => countRequestTokens(traits, input, options),
    probe: (filePath, mimeType, signal) => probeMedia({ path: filePath }, mimeType, signal),
    isMediaProblem: (error) => error instanceof MediaProbeError,
  });
  return {
    mode: "local",
    storage,
    ...storage.operations,

    async listModels(query: PageQuery): Promise<ListModelsResponse> {
      const pageSize = query.pageSize ?? 50;
      const page = pageByOffset(
        [...LISTED_MODELS],
        pageSize,
        query.pageToken,
        `models:${pageSize}`,
      );
      return page.nextPageToken
        ? { models: page.items, nextPageToken: page.nextPageToken }
        : { models: page.items };
    },

    async getModel(model: string): Promise<Model> {
      return requireModel(model, "get").model;
    },

    async countTokens(
      model: string,
      request: CountTokensRequest,
      context: OperationContext,
    ): Promise<CountTokensResponse> {
      const { traits } = requireModel(model, "countTokens");
      checkCountTokensRequest(request, traits);
      const source = request.generateContentRequest ?? { contents: request.contents ?? [] };
      return storage.countTokensWithCache(source, traits, context);
    },

    async generateContent(
      model: string,
      request: GenerateContentRequest,
      context: OperationContext,
    ): Promise<GenerateContentResponse> {
      return generateContent(await generationInput(storage, model, request, context, false));
    },

    async *streamGenerateContent(
      model: string,
      request: GenerateContentRequest,
      context: OperationContext,
    ): AsyncGenerator<GenerateContentResponse> {
      // Validation runs at the first pull, so its errors arrive before any chunk (an HTTP error, not a stream error).
      yield* streamGenerateContent(await generationInput(storage, model, request, context, true));
    },
  };
}

/** A validated generation request with its cache merged and its files resolved for the caller. */
async function generationInput(
  storage: Storage,
  model: string,
  request: GenerateContentRequest,
  context: OperationContext,
  stream: boolean,
): Promise<GenerationInput> {
  const { traits, modelVersion } = requireModel(model, "generateContent");
  checkGenerateContentRequest(request, traits, { stream });
  const merge = await storage.resolveCachedContentForRequest(request, traits, context.caller);
  return {
    request: merge.mergedRequest,
    traits,
    modelVersion,
    cachedContentTokenCount: merge.cachedContentTokenCount,
    cacheTokensDetails: merge.cacheTokensDetails,
    resolveFile: (fileUri) => storage.resolveFileForCaller(fileUri, context.caller, context.signal),
    signal: context.signal,
    ...(request.cachedContent
      ? {
          cachedContent: {
            name: request.cachedContent,
            contents: merge.mergedRequest.contents.length - request.contents.length,
          },
        }
      : {}),
  };
}
