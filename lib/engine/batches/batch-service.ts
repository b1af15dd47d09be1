/**
 * Batch mode of the local engine: `models/{m}:batchGenerateContent` and, for an embedding
 * model, `models/{m}:asyncBatchEmbedContent`, with inline requests or a JSONL file, and
 * `batches/{id}` get, list, cancel and delete, answered as the service's long-running
 * operations (states PENDING → RUNNING → SUCCEEDED, or FAILED, CANCELLED, EXPIRED after 48 h
 * unfinished). A batch's kind is its model's: an embedding model's batch embeds. The work
 * itself is the BatchRunner's, in the background.
 * Differs knowingly: a batch runs in seconds, not hours; `webhookConfig` is accepted and
 * nobody is called back; `filter` on lists understands only `state=BATCH_STATE_...`.
 * Whole at a little over 400 lines: one method per batch operation, as the other services.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { ApiError } from "@/lib/gemini/api-error";
import { batchNotFound } from "@/lib/gemini/resource-errors";
import type { Caller } from "@/lib/gemini/backend/contract";
import type { AsyncBatchEmbedContentRequest } from "@/lib/gemini/embedding-types";
import type {
  BatchGenerateContentRequest,
  BatchOperation,
  BatchState,
  BatchStats,
  GenerateContentBatch,
  GenerateContentBatchOutput,
  InlinedResponse,
  ListBatchesResponse,
} from "@/lib/gemini/types";
import { BATCH_STATES } from "@/lib/gemini/types";
import { requestReferences } from "@/lib/gemini/references";
import { formatTimestamp } from "@/lib/gemini/wire-time";
import { findModel, requireModel } from "../catalog";
import type { CacheService } from "../caches/cache-service";
import type { FileService } from "../files/file-service";
import { randomResourceId } from "../files/random-id";
import type { ProbedMedia } from "../media/probe";
import { keysetPage } from "@/lib/gemini/page-token";
import { PAGE_LIMITS } from "@/lib/gemini/page-limits";
import type { BatchRecord, BatchStore } from "@/lib/db/stores/batch-store";
import { BatchPaths } from "./batch-paths";
import { countJsonlLines } from "./jsonl-lines";

/** A batch still pending or running this long after creation expires, as the service's do. */
export const BATCH_LIFETIME_MS = 48 * 3_600_000;
/** The `@type` of the operation's metadata and response, as the service sends them. */
export const BATCH_METADATA_TYPE =
  "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch";
export const BATCH_OUTPUT_TYPE =
  "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput";
/**
 * The `@type` of an embedding batch's metadata and response: EmbedContentBatch for both, as a
 * public client's tests quote the live service's answers verbatim (2026-07-25; captured
 * answers of gemini-embedding-2 batches, which also carry no updateTime).
 */
export const EMBED_BATCH_TYPE =
  "type.googleapis.com/google.ai.generativelanguage.v1main.EmbedContentBatch";
/** The error a cancelled batch ends with (code 13, as the service reports it). */
export const CANCELLED_ERROR = { code: 13, message: "Batch was cancelled." };

const TERMINAL_STATES: readonly BatchState[] = [
  "BATCH_STATE_SUCCEEDED",
  "BATCH_STATE_FAILED",
  "BATCH_STATE_CANCELLED",
  "BATCH_STATE_EXPIRED",
];
const BATCH_ID = /^[a-z0-9]{1,63}$/;
const STATE_FILTER = /^\s*state\s*[=:]\s*"?([A-Za-z_]+)"?\s*$/;

/** The batch's counts as `batchStats` carries them: int64 strings, zero counts left out. */
function batchStats(record: BatchRecord): BatchStats {
  const stats: BatchStats = { requestCount: String(record.requestCount) };
  if (record.succeededCount > 0) stats.successfulRequestCount = String(record.succeededCount);
  if (record.failedCount > 0) stats.failedRequestCount = String(record.failedCount);
  const pending = record.requestCount - record.doneCount;
  if (pending > 0) stats.pendingRequestCount = String(pending);
  return stats;
}

/** What a batch's requests are: generations, or embeddings (its model's kind). */
export type BatchKind = "generate" | "embed";

/** The kind of a batch: an embedding model's batch embeds. */
export function batchKind(record: Pick<BatchRecord, "model">): BatchKind {
  return findModel(record.model)?.embedding ? "embed" : "generate";
}

/** What both kinds of create share, read from their bodies. */
interface BatchCreation {
  /** The model's resource name, as the catalog has it. */
  model: string;
  displayName?: string;
  priority?: number;
  inputConfig: {
    fileName?: string;
    requests?: { requests: { request: unknown; metadata?: Record<string, unknown> }[] };
  };
}

export interface BatchServiceOptions {
  store: BatchStore;
  dataDir: string;
  files: FileService;
  caches: CacheService;
  /** Checks that a file search store named in a request is the caller's (the service's 403). */
  fileSearchStores?: { assertStore(name: string, caller: Caller): Promise<void> };
  now?: () => number;
}

/** What the service tells the background runner. */
export interface BatchWork {
  /** A new batch is waiting. */
  wake(): void;
  /** The batch ended or went away: stop any work on it now. */
  stop(batchId: string): void;
}

export class BatchService {
  readonly store: BatchStore;
  readonly paths: BatchPaths;
  private readonly now: () => number;
  private work: BatchWork = { wake: () => undefined, stop: () => undefined };

  constructor(private readonly options: BatchServiceOptions) {
    this.store = options.store;
    this.paths = new BatchPaths(options.dataDir);
    this.now = options.now ?? Date.now;
  }

  /** Connects the runner that does the work. */
  attach(work: BatchWork): void {
    this.work = work;
  }

  /**
   * Creates a batch for `model` (the path's). The input file must be the caller's own,
   * ACTIVE and text; its bytes are linked so deleting the file later does not take them
   * away. Files and caches the inline requests name must be the caller's (the service's 403
   * now, as the gateway answers, rather than per request later). Nothing is stored unless
   * the whole create succeeds.
   */
  async create(
    model: string,
    request: BatchGenerateContentRequest,
    caller: Caller,
  ): Promise<BatchOperation> {
    const { traits } = requireModel(model, "batchGenerateContent");
    await this.assertReferencesReadable({ operation: "batchGenerateContent", request }, caller);
    checkBatchModel(request.batch.model, traits.name, "BatchGenerateContentRequest");
    return this.createRecord({ ...request.batch, model: traits.name }, caller);
  }

  /**
   * Creates an embedding batch for `model` (`models/{m}:asyncBatchEmbedContent`): the same
   * input rules as a generation batch; each request is embedded as embedContent would.
   */
  async createEmbeddings(
    model: string,
    request: AsyncBatchEmbedContentRequest,
    caller: Caller,
  ): Promise<BatchOperation> {
    const { traits } = requireModel(model, "asyncBatchEmbedContent");
    await this.assertReferencesReadable({ operation: "asyncBatchEmbedContent", request }, caller);
    checkBatchModel(request.batch.model, traits.name, "AsyncBatchEmbedContentRequest");
    return this.createRecord({ ...request.batch, model: traits.name }, caller);
  }

  /** Stores a new batch and wakes the runner. Nothing is stored unless the whole create succeeds. */
  private async createRecord(batch: BatchCreation, caller: Caller): Promise<BatchOperation> {
    let id = randomResourceId(36);
    while (await this.store.exists(id)) id = randomResourceId(36);
    const now = this.now();
    const record: BatchRecord = {
      id,
      ownerId: caller.ownerId,
      model: batch.model,
      displayName: batch.displayName ?? "",
      priority: batch.priority ?? 0,
      inputFileName: null,
      state: "BATCH_STATE_PENDING",
      requestCount: 0,
      doneCount: 0,
      succeededCount: 0,
      failedCount: 0,
      inputOffset: 0,
      outputBytes: 0,
      resultsFileId: null,
      error: null,
      createTime: now,
      updateTime: now,
      endTime: null,
    };
    const { inputConfig } = batch;
    if (inputConfig.requests) {
      record.requestCount = inputConfig.requests.requests.length;
      await this.store.create(
        record,
        inputConfig.requests.requests.map((item) => ({
          requestJson: JSON.stringify(item.request),
          metadata: item.metadata ?? null,
        })),
      );
    } else {
      record.inputFileName = inputConfig.fileName!;
      record.requestCount = await this.linkInput(id, inputConfig.fileName!, caller);
      try {
        await this.store.create(record, []);
      } catch (error) {
        await fs.rm(this.paths.input(id), { force: true });
        throw error;
      }
    }
    this.work.wake();
    return this.toOperation(record);
  }

  /** Every file, cache and store the inline requests name must be the caller's and live, else the service's 403. */
  private async assertReferencesReadable(
    create:
      | { operation: "batchGenerateContent"; request: BatchGenerateContentRequest }
      | { operation: "asyncBatchEmbedContent"; request: AsyncBatchEmbedContentRequest },
    caller: Caller,
  ): Promise<void> {
    for (const reference of requestReferences(create)) {
      // The input file is checked (and named in the error) where it is linked.
      if ((reference.kind === "file" && reference.spelling === "name") || reference.name === null)
        continue;
      if (reference.kind === "file") await this.options.files.requireFile(reference.name, caller);
      else if (reference.kind === "cachedContent")
        await this.options.caches.get(reference.name, caller);
      else await this.options.fileSearchStores?.assertStore(reference.name, caller);
    }
  }

  /** Links the input file's bytes for batch `id` and answers how many requests it holds. */
  private async linkInput(id: string, fileName: string, caller: Caller): Promise<number> {
    const field = "batch.input_config.file_name";
    const file = await this.options.files.requireFile(fileName, caller);
    if (file.state !== "ACTIVE") {
      throw new ApiError(
        400,
        "FAILED_PRECONDITION",
        `The File ${file.id} is not in an ACTIVE state and usage is not allowed.`,
        [
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [{ field, description: `files/${file.id} is ${file.state}` }],
          },
        ],
      );
    }
    if ((file.probe as ProbedMedia | null)?.kind !== "text") {
      throw ApiError.invalidArgument(
        `* BatchGenerateContentRequest.${field}: files/${file.id} is ${file.mimeType}, not a JSONL file of requests.`,
        [{ field, description: "must name a JSONL file (one request per line)" }],
      );
    }
    await fs.mkdir(this.paths.dir, { recursive: true });
    const target = this.paths.input(id);
    const source = this.options.files.uploads.filePath(file.id);
    try {
      await fs.link(source, target);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EXDEV") throw error;
      await fs.copyFile(source, target);
    }
    let count: number;
    try {
      count = await countJsonlLines(target);
    } catch (error) {
      await fs.rm(target, { force: true });
      throw error;
    }
    if (count === 0) {
      await fs.rm(target, { force: true });
      throw ApiError.invalidArgument(
        `* BatchGenerateContentRequest.${field}: files/${file.id} holds no requests (every line is empty).`,
        [{ field, description: "the file must hold at least one request line" }],
      );
    }
    return count;
  }

  /** The caller's batch, or the 404 a missing one gets. */
  private async require(name: string, caller: Caller): Promise<BatchRecord> {
    const id = name.startsWith("batches/") ? name.slice("batches/".length) : name;
    const record = BATCH_ID.test(id) ? await this.store.get(id) : undefined;
    if (!record || record.ownerId !== caller.ownerId) throw batchNotFound(name);
    return record;
  }

  async get(name: string, caller: Caller): Promise<BatchOperation> {
    return this.toOperation(await this.require(name, caller));
  }

  /** The caller's batches, newest first, optionally only those in one state. */
  async list(
    query: { pageSize?: number; pageToken?: string; filter?: string },
    caller: Caller,
  ): Promise<ListBatchesResponse> {
    const state = query.filter ? stateOfFilter(query.filter) : undefined;
    const page = await keysetPage(
      query,
      PAGE_LIMITS.batches,
      `batches:${caller.ownerId}:${state ?? ""}`,
      (limit, after) => this.store.list(caller.ownerId, limit, after, state),
    );
    const response: ListBatchesResponse = {};
    if (page.rows.length > 0)
      response.operations = await Promise.all(page.rows.map((record) => this.toOperation(record)));
    if (page.nextPageToken) response.nextPageToken = page.nextPageToken;
    return response;
  }

  /**
   * Cancels a pending or running batch: it ends CANCELLED with the service's error and no
   * results. Cancelling a cancelled batch again is a no-op; one that already ended otherwise
   * cannot be cancelled.
   */
  async cancel(name: string, caller: Caller): Promise<void> {
    const record = await this.require(name, caller);
    if (record.state === "BATCH_STATE_CANCELLED") return;
    if (TERMINAL_STATES.includes(record.state)) {
      throw new ApiError(
        400,
        "FAILED_PRECONDITION",
        `batches/${record.id} has already ended (${record.state}) and cannot be cancelled.`,
      );
    }
    if (
      !(await this.store.finish(
        record.id,
        { state: "BATCH_STATE_CANCELLED", error: CANCELLED_ERROR },
        this.now(),
      ))
    )
      return this.cancel(name, caller);
    await this.store.clearRequests(record.id);
    await this.abandon(record.id);
  }

  /** Deletes a batch whatever its state; running work on it stops. Its results File stays. */
  async delete(name: string, caller: Caller): Promise<void> {
    const record = await this.require(name, caller);
    await this.store.delete(record.id);
    await this.abandon(record.id);
  }

  /** Stops work on a batch and removes its work files. */
  private async abandon(batchId: string): Promise<void> {
    this.work.stop(batchId);
    await fs.rm(this.paths.input(batchId), { force: true });
    await fs.rm(this.paths.results(batchId), { force: true });
  }

  /**
   * Expires batches pending or running for longer than the lifetime (they keep no results),
   * and removes work files no active batch owns (left by a stop mid-way).
   */
  async sweep(): Promise<void> {
    const now = this.now();
    for (const id of await this.store.expiredActiveIds(now - BATCH_LIFETIME_MS)) {
      if (await this.store.finish(id, { state: "BATCH_STATE_EXPIRED" }, now)) {
        await this.store.clearRequests(id);
        await this.abandon(id);
      }
    }
    let entries: string[];
    try {
      entries = await fs.readdir(this.paths.dir);
    } catch {
      return;
    }
    const active = await this.store.activeIds();
    for (const entry of entries) {
      const id = this.paths.batchIdOf(entry);
      if (id === null || !active.has(id))
        await fs.rm(path.join(this.paths.dir, entry), { force: true });
    }
  }

  /** The batch as the service's long-running operation. */
  async toOperation(record: BatchRecord): Promise<BatchOperation> {
    const output = record.state === "BATCH_STATE_SUCCEEDED" ? await this.output(record) : undefined;
    const embeds = batchKind(record) === "embed";
    const metadata: GenerateContentBatch = {
      "@type": embeds ? EMBED_BATCH_TYPE : BATCH_METADATA_TYPE,
      model: record.model,
      ...(record.displayName ? { displayName: record.displayName } : {}),
      ...(record.inputFileName ? { inputConfig: { fileName: record.inputFileName } } : {}),
      ...(output ? { output } : {}),
      createTime: formatTimestamp(record.createTime),
      ...(record.endTime !== null ? { endTime: formatTimestamp(record.endTime) } : {}),
      ...(embeds ? {} : { updateTime: formatTimestamp(record.updateTime) }),
      batchStats: batchStats(record),
      state: record.state,
      ...(record.priority ? { priority: String(record.priority) } : {}),
      name: `batches/${record.id}`,
    };
    const operation: BatchOperation = { name: `batches/${record.id}`, metadata };
    if (TERMINAL_STATES.includes(record.state)) operation.done = true;
    if (output)
      operation.response = { "@type": embeds ? EMBED_BATCH_TYPE : BATCH_OUTPUT_TYPE, ...output };
    else if (record.error) operation.error = record.error;
    return operation;
  }

  private async output(record: BatchRecord): Promise<GenerateContentBatchOutput> {
    if (record.inputFileName !== null) {
      return record.resultsFileId ? { responsesFile: `files/${record.resultsFileId}` } : {};
    }
    const inlinedResponses = (await this.store.outcomes(record.id)).map(
      (stored): InlinedResponse => {
        const outcome = stored.outcomeJson
          ? (JSON.parse(stored.outcomeJson) as InlinedResponse)
          : { error: { code: 13, message: "The request has no recorded outcome." } };
        return stored.metadata ? { ...outcome, metadata: stored.metadata } : outcome;
      },
    );
    return { inlinedResponses: { inlinedResponses } };
  }
}

/** A body that repeats the batch's model must repeat the path's. */
function checkBatchModel(named: string | undefined, model: string, requestName: string): void {
  if (named === undefined || named === model) return;
  throw ApiError.invalidArgument(
    `* ${requestName}.batch.model: the batch's model ${JSON.stringify(named)} differs from the model in the path (${model}).`,
    [{ field: "batch.model", description: "must match the model in the request path" }],
  );
}

/** The state a list `filter` asks for; 400 naming `filter` for anything else. */
function stateOfFilter(filter: string): BatchState {
  const match = filter.length <= 200 ? STATE_FILTER.exec(filter) : null;
  if (!match) {
    throw ApiError.invalidArgument(
      `Invalid filter ${JSON.stringify(filter.slice(0, 100))}: the local engine filters batches by state only, as state=BATCH_STATE_RUNNING.`,
      [{ field: "filter", description: "must be state=<BatchState>" }],
    );
  }
  const state = match[1]!.toUpperCase();
  if (!(BATCH_STATES as readonly string[]).includes(state) || state === "BATCH_STATE_UNSPECIFIED") {
    throw ApiError.invalidArgument(
      `Invalid filter: unknown batch state ${JSON.stringify(match[1])}; use one of ${BATCH_STATES.slice(1).join(", ")}.`,
      [{ field: "filter", description: `unknown batch state ${JSON.stringify(match[1])}` }],
    );
  }
  return state as BatchState;
}
