/**
 * The local engine behind the Backend interface: checks each canonical request against its
 * model's rules (lib/gemini/validate) and answers it offline. Models come from the catalog.
 */
import { generationCharge, scriptedGeneration } from "./emulator/generation-scope";
import type { BatchStore } from "@/lib/db/stores/batch-store";
import type { CacheStore } from "@/lib/db/stores/cache-store";
import type { FileStore } from "@/lib/db/stores/file-store";
import type { InteractionStore } from "@/lib/db/stores/interaction-store";
import type { Backend, Caller, OperationContext, PageQuery } from "@/lib/gemini/backend/contract";
import type { CacheQuota } from "@/lib/gemini/backend/quotas";
import type {
  CountTokensRequest,
  CountTokensResponse,
  GenerateContentRequest,
  GenerateContentResponse,
  ListModelsResponse,
  Model,
} from "@/lib/gemini/types";
import {
  checkCountTokensRequestSteps,
  checkGenerateContentRequestSteps,
} from "@/lib/gemini/validate";
import { BatchRunner, type BatchGeneration, type BatchRunnerOptions } from "./batches/batch-runner";
import { InteractiveWork } from "./batches/interactive-work";
import { generateContent, streamGenerateContent, type GenerationInput } from "./generate";
import { paceOutput } from "./generate/output-pace";
import { LISTED_MODELS, requireModel } from "./catalog";
import { pageByOffset } from "@/lib/gemini/page-token";
import { PAGE_LIMITS, pageSizeWithin } from "@/lib/gemini/page-limits";
import { countRequestTokens } from "./tokens";
import { createStorage, type Storage, type StorageOptions } from "./storage";
import type { FileSearchStoreRecords } from "@/lib/db/stores/file-search-store-records";
import type { ImplicitCacheStore } from "@/lib/db/stores/implicit-cache-store";
import { MediaProbeError, probeMedia } from "./media/probe";
import {
  InteractionService,
  type InteractionServiceOptions,
  type OpenGeneration,
} from "./interactions/interaction-service";
import { interactionOperations } from "./interactions/interaction-operations";
import { runInSlices } from "@/lib/runtime/time-slices";
import { batchEmbedding, embeddingOperations } from "./embeddings/embedding-operations";
import { openaiOperations } from "./openai/openai-operations";
import { ImplicitCacheService } from "./caches/implicit-cache";
import { versionFieldRefusal } from "@/lib/gemini/api-version-fields";

export interface LocalBackendDependencies {
  /** Where files, upload sessions, caches and batches are recorded (lib/db). */
  stores: {
    files: FileStore;
    caches: CacheStore;
    batches: BatchStore;
    fileSearchStores: FileSearchStoreRecords;
    /** Fingerprints of recent prompt prefixes; absent: no implicit caching. */
    implicitCaches?: ImplicitCacheStore;
    interactions: InteractionStore;
  };
  /** Root folder for file bytes. */
  dataDir: string;
  /** Storage per owner for files and open uploads, in bytes (default 20 GiB). */
  fileQuotaBytes?: number;
  /** Cached contents per owner and their bytes; absent: no quota. */
  cacheQuota?: CacheQuota;
  /** Clock for expiry; tests move it. */
  now?: () => number;
  /** 0 turns the periodic sweep of expired files, caches, uploads and batches off. */
  sweepIntervalMs?: number;
  /** True when this instance is the one to sweep now (instances sharing one database take turns). */
  housekeepingTurn?: () => Promise<boolean>;
  /** Streams' output tokens a second at most (the service's pace is 100 to 300); absent or 0: as fast as generated. */
  outputTokensPerSecond?: number;
  /** Requests of a batch run at once in the background while no interactive caller is around (default 2). */
  batchConcurrency?: number;
  /** How often interactions left running by a stopped instance are looked for (0: never; default 5 s). */
  interactionRecoveryIntervalMs?: number;
  onError?: (message: string, error: unknown) => void;
  /** Whether the caller's requests without a seed are sampled repeatably (the emulator's controls). */
  samplesRepeatably?: (ownerId: string) => boolean;
  /** How a file is processed when the emulator's controls say otherwise. */
  processingPlan?: StorageOptions["processingPlan"];
  /** Each batch answer once committed (its usage is recorded by the server). */
  onBatchAnswer?: BatchRunnerOptions["onAnswer"];
  /** The usage of an interaction's run that no request records (a background one's). */
  onInteractionUsage?: InteractionServiceOptions["onUnattendedUsage"];
}

/**
 * The local backend, plus its stored resources. Generation resolves `fileData.fileUri` with
 * `storage.files.resolveFileForCaller(uri, caller)` and merges `cachedContent` with
 * `storage.caches.resolveCachedContentForRequest(request, traits, caller)`.
 */
export type LocalBackend = Omit<Backend, "countTokens"> & {
  /** The engine counts itself: always the count, never an upstream's text passed on. */
  countTokens(
    model: string,
    request: CountTokensRequest,
    context: OperationContext,
  ): Promise<CountTokensResponse>;
  storage: Storage;
  /** Runs batches behind interactive work. */
  batchRunner: BatchRunner;
  /** Interactions, their runs, and the runs left behind by a stopped instance. */
  interactions: InteractionService;
  /** Stops background work (batches resume at the next start). */
  close(): Promise<void>;
};

/**
 * The local Backend: the stored resources' operations from lib/engine/storage, the models,
 * counting and generation here. Long as one object literal per Backend is: its closure holds the
 * state every operation shares (storage, the batch runner, the count of interactive work).
 */
export function createLocalBackend(dependencies: LocalBackendDependencies): LocalBackend {
  const storage = createStorage({
    ...dependencies,
    countTokens: (traits, input, options) => countRequestTokens(traits, input, options),
    probe: (filePath, mimeType, signal) => probeMedia({ path: filePath }, mimeType, signal),
    isMediaProblem: (error) => error instanceof MediaProbeError,
  });
  // Interactive calls are counted so batch work only runs while none is in flight.
  const interactive = new InteractiveWork();
  const batchRunner = new BatchRunner({
    service: storage.batches,
    files: storage.files,
    generate: batchGeneration(storage),
    embed: batchEmbedding(storage),
    interactive,
    ...(dependencies.batchConcurrency !== undefined
      ? { concurrency: dependencies.batchConcurrency }
      : {}),
    now: dependencies.now,
    onError: dependencies.onError,
    onAnswer: dependencies.onBatchAnswer,
  });
  storage.batches.attach(batchRunner);
  void storage.ready.then(() => batchRunner.start());
  const generation: GenerationServices = {
    storage,
    ...(dependencies.stores.implicitCaches
      ? {
          implicitCaches: new ImplicitCacheService(
            dependencies.stores.implicitCaches,
            dependencies.now,
          ),
        }
      : {}),
    ...(dependencies.samplesRepeatably
      ? { samplesRepeatably: dependencies.samplesRepeatably }
      : {}),
  };
  const interactions = new InteractionService({
    store: dependencies.stores.interactions,
    openGeneration: interactionGeneration(generation, dependencies.outputTokensPerSecond),
    interactive,
    now: dependencies.now,
    recoveryIntervalMs: dependencies.interactionRecoveryIntervalMs,
    onError: dependencies.onError,
    onUnattendedUsage: dependencies.onInteractionUsage,
  });
  void storage.ready.then(() => interactions.recover());
  const { createCachedContent } = storage.operations;
  const backend: LocalBackend = {
    mode: "local",
    storage,
    batchRunner,
    interactions,
    ...storage.operations,
    ...embeddingOperations(storage, interactive),
    // The OpenAI-compatible endpoint answers through this backend's own generation.
    ...openaiOperations(
      {
        generateContent: (model, request, context) =>
          backend.generateContent(model, request, context),
        streamGenerateContent: (model, request, context) =>
          backend.streamGenerateContent(model, request, context),
      },
      storage.files,
    ),
    ...interactionOperations(interactions),

    createCachedContent: (body, context) =>
      interactive.run(async () => {
        await storage.fileSearch.assertStoresOf(body, context.caller);
        return createCachedContent(body, context);
      }),

    async close() {
      await batchRunner.close();
      await interactions.close();
      storage.close();
    },

    async listModels(query: PageQuery): Promise<ListModelsResponse> {
      const pageSize = pageSizeWithin(query.pageSize, PAGE_LIMITS.models);
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
      // In slices: a request of megabytes has a great many parts to check.
      await runInSlices(checkCountTokensRequestSteps(request, traits));
      const source = request.generateContentRequest ?? { contents: request.contents ?? [] };
      const versionRefusal = versionFieldRefusal(source, context.apiVersion);
      if (versionRefusal) throw versionRefusal;
      await storage.fileSearch.assertStoresOf(source, context.caller);
      return interactive.run(() =>
        storage.caches.countWithCache(source, traits, context.caller, context.signal),
      );
    },

    async generateContent(
      model: string,
      request: GenerateContentRequest,
      context: OperationContext,
    ): Promise<GenerateContentResponse> {
      return interactive.run(async () =>
        generateContent(await generationInput(generation, model, request, context, false)),
      );
    },

    async *streamGenerateContent(
      model: string,
      request: GenerateContentRequest,
      context: OperationContext,
    ): AsyncGenerator<GenerateContentResponse> {
      // Validation runs at the first pull, so its errors arrive before any chunk (an HTTP error, not a stream error).
      const pace = dependencies.outputTokensPerSecond;
      yield* interactive.stream(async function* () {
        const chunks = streamGenerateContent(
          await generationInput(generation, model, request, context, true),
        );
        yield* pace ? paceOutput(chunks, pace, context.signal) : chunks;
      });
    },
  };
  return backend;
}

/**
 * How an interaction's request runs: the rules of generateContent, then the same generation
 * (paced at its own pace, an agent's, or like a stream when streamed), for its owner.
 */
function interactionGeneration(
  generation: GenerationServices,
  pace: number | undefined,
): OpenGeneration {
  return async ({ model, request, caller, signal, stream, pace: own }) => {
    // The emulator's quotas count it first, scripted or not, as they count generateContent.
    await generationCharge()?.(model, request, { caller, signal });
    // A scenario's answer (the emulator) stands in for the engine's, paced by the scenario.
    const scripted = scriptedGeneration();
    const input = await generationInput(
      scripted ? { storage: generation.storage } : generation,
      model,
      request,
      { caller, signal },
      stream,
    );
    if (scripted) return scripted(input)[Symbol.asyncIterator]();
    const chunks = streamGenerateContent(input);
    const rate = own ?? (stream ? pace : undefined);
    return (rate ? paceOutput(chunks, rate, signal) : chunks)[Symbol.asyncIterator]();
  };
}

/** How a batch's request runs: the rules of generateContent, then the same generation for the batch's owner. */
function batchGeneration(storage: Storage): BatchGeneration {
  return async function* ({ model, request, ownerId, signal }) {
    const { traits, modelVersion, answer, thinkingLength } = requireModel(model, "generateContent");
    await runInSlices(checkGenerateContentRequestSteps(request, traits, { stream: false }));
    // Shaped as whole answers: a batch's results are generateContent responses.
    yield* streamGenerateContent(
      await resolvedInput(
        storage,
        { traits, modelVersion, answer, thinkingLength, stream: false },
        request,
        { ownerId },
        signal,
      ),
    );
  };
}

/** What a generation's input is read with. */
export interface GenerationServices {
  storage: Storage;
  /** Absent: no implicit caching (or a scripted answer, which is not the engine's). */
  implicitCaches?: ImplicitCacheService;
  samplesRepeatably?: (ownerId: string) => boolean;
}

/**
 * A validated generation request with its cache merged and its files resolved for the caller
 * (also what the emulator's scripted answers are shaped and counted from).
 */
export async function generationInput(
  { storage, implicitCaches, samplesRepeatably }: GenerationServices,
  model: string,
  request: GenerateContentRequest,
  context: OperationContext,
  stream: boolean,
): Promise<GenerationInput> {
  const { traits, modelVersion, answer, thinkingLength, implicitCache } = requireModel(
    model,
    "generateContent",
  );
  await runInSlices(checkGenerateContentRequestSteps(request, traits, { stream }));
  const versionRefusal = versionFieldRefusal(request, context.apiVersion);
  if (versionRefusal) throw versionRefusal;
  const input = await resolvedInput(
    storage,
    { traits, modelVersion, answer, thinkingLength, stream },
    request,
    context.caller,
    context.signal,
  );
  const { ownerId } = context.caller;
  if (samplesRepeatably?.(ownerId)) input.repeatableSampling = true;
  // A request naming a cache reports that cache; implicit caching is for the others.
  if (!implicitCache || !implicitCaches || request.cachedContent) return input;
  return {
    ...input,
    implicitCache: {
      traits: implicitCache,
      answer: (prefixes) => implicitCaches.answer(ownerId, modelVersion, implicitCache, prefixes),
    },
  };
}

/** A request already checked, with its cache merged and its files resolved for `caller`. */
async function resolvedInput(
  storage: Storage,
  {
    traits,
    modelVersion,
    answer,
    thinkingLength,
    stream,
  }: Pick<GenerationInput, "traits" | "modelVersion" | "answer" | "thinkingLength" | "stream">,
  request: GenerateContentRequest,
  caller: Caller,
  signal: AbortSignal,
): Promise<GenerationInput> {
  await storage.fileSearch.assertStoresOf(request, caller);
  const merge = await storage.caches.resolveCachedContentForRequest(request, traits, caller);
  return {
    request: merge.mergedRequest,
    traits,
    modelVersion,
    answer,
    thinkingLength,
    stream,
    cachedContentTokenCount: merge.cachedContentTokenCount,
    cacheTokensDetails: merge.cacheTokensDetails,
    resolveFile: (fileUri) => storage.files.resolveFileForCaller(fileUri, caller, signal),
    resolveCachedContent: (name) => storage.caches.inputForCaller(name, caller),
    resolveFileSearchStores: (names) => storage.fileSearch.documentsFor(names, caller),
    signal,
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
