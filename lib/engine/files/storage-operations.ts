/**
 * The local engine's stored resources behind the Backend interface: the resumable and multipart uploads,
 * files and cachedContents operations, plus the lookups generation and token counting use
 * (`resolveFileForCaller`, `resolveCachedContentForRequest`, `countTokensWithCache`).
 * Batches are stored here too (their runner is the local backend's). Owns the housekeeping
 * timer: expired files, caches, upload sessions and batches are swept.
 */
import type { BatchStore } from "@/lib/db/stores/batch-store";
import type { CacheStore } from "@/lib/db/stores/cache-store";
import type { CacheQuota } from "@/lib/gemini/backend/quotas";
import type { FileStore } from "@/lib/db/stores/file-store";
import type {
  Backend,
  Caller,
  OperationContext,
  UploadStatus,
} from "@/lib/gemini/backend/contract";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { CountTokensResponse, GenerateContentRequest } from "@/lib/gemini/types";
import {
  addModalityCounts,
  CacheService,
  type CacheMerge,
  type CountableInput,
} from "../caches/cache-service";
import { BatchService } from "../batches/batch-service";
import type { MediaProber } from "./file-processor";
import { FileService, toWireFile, type RemoteFile, type ResolvedFile } from "./file-service";
import type { UploadState } from "./upload-sessions";

/** The token counter of lib/engine/tokens, with file references resolved by the caller's rights. */
export type RequestTokenCounter = (
  traits: ModelTraits,
  input: CountableInput,
  options: {
    resolveFile: (fileUri: string) => Promise<ResolvedFile | RemoteFile>;
    signal?: AbortSignal;
    /** `countTokens` for that method's answer (its role-token rule and per-Content split). */
    purpose?: "countTokens" | "prompt";
  },
) => Promise<CountTokensResponse>;

export interface StorageOptions {
  stores: { files: FileStore; caches: CacheStore; batches: BatchStore };
  dataDir: string;
  countTokens: RequestTokenCounter;
  probe: MediaProber;
  isMediaProblem: (error: unknown) => boolean;
  /** Per-owner storage for files and open uploads, in bytes. */
  fileQuotaBytes?: number;
  /** Per-owner cached contents and their bytes. */
  cacheQuota?: CacheQuota;
  maxFileBytes?: number;
  now?: () => number;
  /** How often expired resources are swept; 0 turns the timer off (tests sweep by hand). */
  sweepIntervalMs?: number;
  /** True when this instance is the one to sweep now (several share one database); default always. */
  housekeepingTurn?: () => Promise<boolean>;
  onError?: (message: string, error: unknown) => void;
}

export type StorageBackendOperations = Pick<
  Backend,
  | "startUpload"
  | "uploadChunk"
  | "queryUpload"
  | "uploadSessionOwner"
  | "uploadFile"
  | "cancelUpload"
  | "getFile"
  | "listFiles"
  | "deleteFile"
  | "createCachedContent"
  | "listCachedContents"
  | "getCachedContent"
  | "updateCachedContent"
  | "deleteCachedContent"
>;

export interface Storage {
  files: FileService;
  caches: CacheService;
  batches: BatchService;
  operations: StorageBackendOperations;
  /** `fileData.fileUri` → what generation needs; 403 missing/expired/not yours, 400 not ACTIVE. */
  resolveFileForCaller(
    fileUri: string,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<ResolvedFile | RemoteFile>;
  /** Merges `request.cachedContent` into the request (see CacheService). */
  resolveCachedContentForRequest(
    request: GenerateContentRequest,
    traits: ModelTraits,
    caller: Caller,
  ): Promise<CacheMerge>;
  /** countTokens of a generate request, the named cache included. */
  countTokensWithCache(
    request: GenerateContentRequest,
    traits: ModelTraits,
    context: OperationContext,
  ): Promise<CountTokensResponse>;
  /** Finishes start-up work (sweep, re-probe of files left PROCESSING). */
  ready: Promise<void>;
  close(): void;
}

function wireStatus(state: UploadState, origin: string): UploadStatus {
  return {
    status: state.status,
    sizeReceived: state.sizeReceived,
    ...(state.file ? { file: toWireFile(state.file, origin) } : {}),
  };
}

/** Builds the files and caches services over one database and data directory. */
export function createStorage(options: StorageOptions): Storage {
  const files = new FileService({
    store: options.stores.files,
    dataDir: options.dataDir,
    probe: options.probe,
    isMediaProblem: options.isMediaProblem,
    now: options.now,
    quotaBytes: options.fileQuotaBytes,
    maxFileBytes: options.maxFileBytes,
    onError: options.onError,
  });
  const resolveFileForCaller = (
    fileUri: string,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<ResolvedFile | RemoteFile> => files.resolveFileForCaller(fileUri, caller, signal);
  const caches = new CacheService({
    store: options.stores.caches,
    now: options.now,
    ...(options.cacheQuota ? { quota: options.cacheQuota } : {}),
    countTokens: (traits, input, caller, signal) =>
      options.countTokens(traits, input, {
        resolveFile: (fileUri) => resolveFileForCaller(fileUri, caller, signal),
        signal,
      }),
  });

  const batches = new BatchService({
    store: options.stores.batches,
    dataDir: options.dataDir,
    files,
    caches,
    now: options.now,
  });

  const report = (message: string) => (error: unknown) => options.onError?.(message, error);
  const ready = Promise.all([
    files.recover().catch(report("start-up sweep of files failed")),
    batches.sweep().catch(report("start-up sweep of batches failed")),
  ]).then(() => undefined);
  const intervalMs = options.sweepIntervalMs ?? 60_000;
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          // Instances sharing one database take turns: expiry runs once per interval, not once each.
          void (options.housekeepingTurn?.() ?? Promise.resolve(true))
            .then(async (turn) => {
              if (!turn) return;
              await files.sweep().catch(report("sweeping files failed"));
              await caches.sweep().catch(report("sweeping caches failed"));
              await batches.sweep().catch(report("sweeping batches failed"));
            })
            .catch(report("housekeeping failed"));
        }, intervalMs)
      : null;
  timer?.unref();

  const operations: StorageBackendOperations = {
    async startUpload(request, context) {
      const start = request.file;
      return files.startUpload({
        ownerId: context.caller.ownerId,
        declaredSize: request.declaredSize,
        mimeType: request.contentType || start.mimeType,
        ...(start.displayName !== undefined ? { displayName: start.displayName } : {}),
        ...(start.name !== undefined ? { requestedName: start.name } : {}),
      });
    },
    async uploadChunk(uploadId, chunk, context) {
      return wireStatus(await files.uploadChunk(uploadId, chunk, context.signal), context.origin);
    },
    async uploadFile(request, context) {
      const metadata = request.file;
      const file = await files.uploadWhole(
        {
          ownerId: context.caller.ownerId,
          // The metadata states the type; a bytes part's own Content-Type is the fallback.
          mimeType: metadata.mimeType ?? request.contentType?.trim(),
          ...(metadata.displayName !== undefined ? { displayName: metadata.displayName } : {}),
          ...(metadata.name !== undefined ? { requestedName: metadata.name } : {}),
          ...(request.maxLength !== undefined ? { maxLength: request.maxLength } : {}),
        },
        request.body,
        context.signal,
      );
      return toWireFile(file, context.origin);
    },
    async queryUpload(uploadId, context) {
      return wireStatus(await files.queryUpload(uploadId), context.origin);
    },
    async uploadSessionOwner(uploadId) {
      const session = await options.stores.files.getSession(uploadId);
      const now = options.now?.() ?? Date.now();
      return session && session.status === "active" && session.expiresAt > now
        ? session.ownerId
        : null;
    },
    async cancelUpload(uploadId) {
      const state = await files.cancelUpload(uploadId);
      return { status: state.status, sizeReceived: state.sizeReceived };
    },
    async getFile(name, context) {
      return files.getFile(name, context.caller, context.origin);
    },
    async listFiles(query, context) {
      return files.listFiles(query, context.caller, context.origin);
    },
    async deleteFile(name, context) {
      await files.deleteFile(name, context.caller);
    },
    async createCachedContent(request, context) {
      return caches.create(request, context.caller, context.signal);
    },
    async listCachedContents(query, context) {
      return caches.list(query, context.caller);
    },
    async getCachedContent(name, context) {
      return caches.get(name, context.caller);
    },
    async updateCachedContent(name, update, context) {
      return caches.update(name, update, context.caller);
    },
    async deleteCachedContent(name, context) {
      await caches.delete(name, context.caller);
    },
  };

  return {
    files,
    caches,
    batches,
    operations,
    resolveFileForCaller,
    resolveCachedContentForRequest: (request, traits, caller) =>
      caches.resolveCachedContentForRequest(request, traits, caller),
    async countTokensWithCache(request, traits, context) {
      const resolveFile = (fileUri: string) =>
        resolveFileForCaller(fileUri, context.caller, context.signal);
      const merge = await caches.resolveCachedContentForRequest(request, traits, context.caller);
      const { mediaResolution, responseSchema } = request.generationConfig ?? {};
      const counting = { resolveFile, signal: context.signal, purpose: "countTokens" as const };
      if (merge.cachedContentTokenCount === undefined) {
        return options.countTokens(
          traits,
          {
            contents: request.contents,
            systemInstruction: request.systemInstruction,
            tools: request.tools,
            toolConfig: request.toolConfig,
            mediaResolution,
            responseSchema,
          },
          counting,
        );
      }
      // The cache was sized once at creation; only the request's own turns are counted now.
      const own = await options.countTokens(
        traits,
        { contents: request.contents, mediaResolution, responseSchema },
        counting,
      );
      const promptTokensDetails = addModalityCounts(
        own.promptTokensDetails,
        merge.cacheTokensDetails,
      );
      const { systemInstructionsTokens, contentTokens } = own;
      return {
        totalTokens: own.totalTokens + merge.cachedContentTokenCount,
        cachedContentTokenCount: merge.cachedContentTokenCount,
        ...(systemInstructionsTokens ? { systemInstructionsTokens } : {}),
        ...(contentTokens ? { contentTokens } : {}),
        ...(promptTokensDetails ? { promptTokensDetails } : {}),
        ...(merge.cacheTokensDetails ? { cacheTokensDetails: merge.cacheTokensDetails } : {}),
      };
    },
    ready,
    close() {
      if (timer) clearInterval(timer);
      files.stop();
    },
  };
}
