/**
 * The local engine's stored resources, in one place: builds the files (with their uploads),
 * caches and batches services over one database and data directory, starts their
 * housekeeping, and implements every Backend operation on a stored resource, each calling the
 * service that does the work. Generation and token counting reach the same services directly
 * (`storage.files.resolveFileForCaller`, `storage.caches.resolveCachedContentForRequest`).
 */
import type { BatchStore } from "@/lib/db/stores/batch-store";
import type { CacheStore } from "@/lib/db/stores/cache-store";
import type { CacheQuota } from "@/lib/gemini/backend/quotas";
import type { FileStore } from "@/lib/db/stores/file-store";
import type { FileSearchStoreRecords } from "@/lib/db/stores/file-search-store-records";
import type { Backend, UploadStatus } from "@/lib/gemini/backend/contract";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { CountTokensResponse } from "@/lib/gemini/types";
import { CacheService, type CountableInput } from "./caches/cache-service";
import { BatchService } from "./batches/batch-service";
import type { MediaProber } from "./files/file-processor";
import {
  FileService,
  toWireFile,
  type FileServiceOptions,
  type RemoteFile,
  type ResolvedFile,
} from "./files/file-service";
import { UPLOAD_SESSION_LIFETIME_MS, type UploadState } from "./files/upload-sessions";
import { startHousekeeping } from "./housekeeping";
import { FileSearchService } from "./file-search/file-search-service";
import {
  fileSearchOperations,
  type FileSearchBackendOperations,
} from "./file-search/file-search-operations";

/** The token counter of lib/engine/tokens, with file references resolved by the caller's rights. */
export type RequestTokenCounter = (
  traits: ModelTraits,
  input: CountableInput,
  options: {
    resolveFile: (fileUri: string) => Promise<ResolvedFile | RemoteFile>;
    signal?: AbortSignal;
    /** `countTokens` for that method's answer (its role-token rule and per-Content split). */
    purpose?: "countTokens" | "prompt" | "cache";
  },
) => Promise<CountTokensResponse>;

export interface StorageOptions {
  stores: {
    files: FileStore;
    caches: CacheStore;
    batches: BatchStore;
    fileSearchStores: FileSearchStoreRecords;
  };
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
  /** How a file is processed when the emulator's controls say otherwise. */
  processingPlan?: FileServiceOptions["processingPlan"];
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
  | "downloadFile"
  | "createCachedContent"
  | "listCachedContents"
  | "getCachedContent"
  | "updateCachedContent"
  | "deleteCachedContent"
  | "createBatch"
  | "getBatch"
  | "listBatches"
  | "cancelBatch"
  | "deleteBatch"
> &
  FileSearchBackendOperations;

export interface Storage {
  files: FileService;
  caches: CacheService;
  batches: BatchService;
  fileSearch: FileSearchService;
  operations: StorageBackendOperations;
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

/** Builds the files, caches and batches services over one database and data directory. */
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
    processingPlan: options.processingPlan,
  });
  const fileSearch = new FileSearchService({
    store: options.stores.fileSearchStores,
    files,
    now: options.now,
  });
  const caches = new CacheService({
    store: options.stores.caches,
    now: options.now,
    ...(options.cacheQuota ? { quota: options.cacheQuota } : {}),
    countTokens: (traits, input, caller, signal, purpose) =>
      options.countTokens(traits, input, {
        resolveFile: (fileUri) => files.resolveFileForCaller(fileUri, caller, signal),
        signal,
        ...(purpose ? { purpose } : {}),
      }),
  });
  const batches = new BatchService({
    store: options.stores.batches,
    dataDir: options.dataDir,
    files,
    caches,
    fileSearchStores: fileSearch,
    now: options.now,
  });
  const housekeeping = startHousekeeping({
    files: {
      recover: () => files.recover(),
      sweep: async () => {
        await files.sweep();
        await fileSearch.sweep(UPLOAD_SESSION_LIFETIME_MS);
      },
    },
    caches,
    batches,
    intervalMs: options.sweepIntervalMs ?? 60_000,
    turn: options.housekeepingTurn,
    onError: options.onError,
  });
  return {
    files,
    caches,
    batches,
    fileSearch,
    operations: {
      ...storageOperations(files, caches, batches, fileSearch, options),
      ...fileSearchOperations(fileSearch, files),
    },
    ready: housekeeping.ready,
    close() {
      housekeeping.stop();
      files.stop();
    },
  };
}

/**
 * Each Backend operation on a stored resource: the caller's rights and origin passed to its
 * service, records turned into wire resources. One table, long as the contract's list is long.
 */
function storageOperations(
  files: FileService,
  caches: CacheService,
  batches: BatchService,
  fileSearch: FileSearchService,
  options: Pick<StorageOptions, "stores" | "now">,
): Omit<StorageBackendOperations, keyof FileSearchBackendOperations> {
  return {
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
      const state = await files.uploadChunk(uploadId, chunk, context.signal);
      // A store upload's final chunk answers the document's operation, not a file.
      const operation =
        state.status === "final" && state.file
          ? await fileSearch.finishUpload(uploadId, state.file)
          : null;
      if (operation) return { status: state.status, sizeReceived: state.sizeReceived, operation };
      return wireStatus(state, context.origin);
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
    async downloadFile(name, context) {
      return files.download(name, context.caller);
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
    async createBatch(model, request, context) {
      return batches.create(model, request, context.caller);
    },
    async getBatch(name, context) {
      return batches.get(name, context.caller);
    },
    async listBatches(query, context) {
      return batches.list(query, context.caller);
    },
    async cancelBatch(name, context) {
      await batches.cancel(name, context.caller);
    },
    async deleteBatch(name, context) {
      await batches.delete(name, context.caller);
    },
  };
}
