/**
 * Every statement of batch mode (migration 6): the `batches` rows and, for inline batches,
 * one `batch_requests` row per request with its outcome once run. Times are epoch
 * milliseconds. Progress is committed in request order (`done_count`; for file input also
 * the input bytes consumed and the results bytes written), so a restart resumes exactly
 * after the last committed request. A batch is worked on by one instance at a time (a claim).
 */
import type { BatchState, OperationStatus } from "@/lib/gemini/types";
import type { SqlDatabase, SqlExecutor } from "../sql-database";
import type { FileRecord, FileStore } from "./file-store";
import { keysetPageSql } from "./keyset-page-sql";

export const ACTIVE_BATCH_STATES = ["BATCH_STATE_PENDING", "BATCH_STATE_RUNNING"] as const;

export interface BatchRecord {
  id: string;
  ownerId: string;
  /** `models/{id}`. */
  model: string;
  displayName: string;
  priority: number;
  /** `files/{id}` for file input; null for inline requests. */
  inputFileName: string | null;
  state: BatchState;
  requestCount: number;
  /** Requests whose outcome is committed, in order: the next to run is at this position. */
  doneCount: number;
  succeededCount: number;
  failedCount: number;
  /** File input: bytes of the input read up to the last committed request. */
  inputOffset: number;
  /** File input: bytes of results written up to the last committed request. */
  outputBytes: number;
  /** File input, once succeeded: the id of the results File. */
  resultsFileId: string | null;
  error: OperationStatus | null;
  createTime: number;
  updateTime: number;
  endTime: number | null;
}

/** A stored inline request: the canonical GenerateContentRequest JSON and the caller's metadata. */
export interface StoredBatchRequest {
  position: number;
  requestJson: string;
  metadata: Record<string, unknown> | null;
}

/** A stored inline request with its outcome (`{"response": ...}` or `{"error": ...}` JSON), null while pending. */
export interface StoredBatchOutcome {
  position: number;
  metadata: Record<string, unknown> | null;
  outcomeJson: string | null;
}

/** What a committed request adds to its batch. */
export interface CommittedRequest {
  position: number;
  succeeded: boolean;
  /** Inline batches: the outcome JSON stored with the request. */
  outcomeJson?: string;
  /** File input: the input and results positions after this request. */
  inputOffset?: number;
  outputBytes?: number;
}

/** How a batch ends. */
export interface BatchEnding {
  state: Exclude<BatchState, "BATCH_STATE_PENDING" | "BATCH_STATE_RUNNING">;
  error?: OperationStatus;
  /** File input that succeeded: its results File, stored in the same transaction. */
  resultsFile?: FileRecord;
}

interface BatchRow {
  id: string;
  owner_id: string;
  model: string;
  display_name: string;
  priority: number;
  input_file_name: string | null;
  state: BatchState;
  request_count: number;
  done_count: number;
  succeeded_count: number;
  failed_count: number;
  input_offset: number;
  output_bytes: number;
  results_file_id: string | null;
  error_json: string | null;
  create_time: number;
  update_time: number;
  end_time: number | null;
}

const COLUMNS =
  "id, owner_id, model, display_name, priority, input_file_name, state, request_count, done_count, succeeded_count, failed_count, input_offset, output_bytes, results_file_id, error_json, create_time, update_time, end_time";
const ACTIVE = `('BATCH_STATE_PENDING', 'BATCH_STATE_RUNNING')`;

function fromRow(row: BatchRow): BatchRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    model: row.model,
    displayName: row.display_name,
    priority: row.priority,
    inputFileName: row.input_file_name,
    state: row.state,
    requestCount: row.request_count,
    doneCount: row.done_count,
    succeededCount: row.succeeded_count,
    failedCount: row.failed_count,
    inputOffset: row.input_offset,
    outputBytes: row.output_bytes,
    resultsFileId: row.results_file_id,
    error: row.error_json ? (JSON.parse(row.error_json) as OperationStatus) : null,
    createTime: row.create_time,
    updateTime: row.update_time,
    endTime: row.end_time,
  };
}

function parseMetadata(json: string | null): Record<string, unknown> | null {
  return json === null ? null : (JSON.parse(json) as Record<string, unknown>);
}

export class BatchStore {
  constructor(
    private readonly database: SqlDatabase,
    private readonly files: FileStore,
  ) {}

  /** Stores a new batch and its inline requests together: a failure stores nothing. */
  async create(
    record: BatchRecord,
    requests: readonly Omit<StoredBatchRequest, "position">[],
  ): Promise<void> {
    await this.database.transaction(async (transaction) => {
      await transaction.run(
        `INSERT INTO batches (id, owner_id, model, display_name, priority, input_file_name, state, request_count, create_time, update_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          record.ownerId,
          record.model,
          record.displayName,
          record.priority,
          record.inputFileName,
          record.state,
          record.requestCount,
          record.createTime,
          record.updateTime,
        ],
      );
      for (const [position, request] of requests.entries()) {
        await transaction.run(
          "INSERT INTO batch_requests (batch_id, position, request_json, metadata_json) VALUES (?, ?, ?, ?)",
          [
            record.id,
            position,
            request.requestJson,
            request.metadata === null ? null : JSON.stringify(request.metadata),
          ],
        );
      }
    });
  }

  async get(id: string): Promise<BatchRecord | undefined> {
    const row = await this.database.get<BatchRow>(`SELECT ${COLUMNS} FROM batches WHERE id = ?`, [
      id,
    ]);
    return row ? fromRow(row) : undefined;
  }

  async exists(id: string): Promise<boolean> {
    return (
      (await this.database.get("SELECT 1 AS found FROM batches WHERE id = ?", [id])) !== undefined
    );
  }

  /** One page of an owner's batches, newest first, after `after`; only those in `state` when given. */
  async list(
    ownerId: string,
    limit: number,
    after: { createTime: number; id: string } | null,
    state?: BatchState,
  ): Promise<BatchRecord[]> {
    const page = keysetPageSql(after, limit);
    const rows = await this.database.all<BatchRow>(
      `SELECT ${COLUMNS} FROM batches WHERE owner_id = ?${state ? " AND state = ?" : ""}${page.condition} ${page.order}`,
      [ownerId, ...(state ? [state] : []), ...page.params],
    );
    return rows.map(fromRow);
  }

  /**
   * Batches to work on, in order: those a stop interrupted first, then the waiting ones by
   * priority and age. Several, since another instance may hold the first.
   */
  async runnable(limit: number): Promise<BatchRecord[]> {
    const rows = await this.database.all<BatchRow>(
      `SELECT ${COLUMNS} FROM batches WHERE state IN ${ACTIVE}
       ORDER BY CASE WHEN state = 'BATCH_STATE_RUNNING' THEN 0 ELSE 1 END, priority DESC, create_time, id
       LIMIT ?`,
      [limit],
    );
    return rows.map(fromRow);
  }

  /**
   * Claims a batch for this process's runner until the release (or the process's end): one
   * instance at a time works on a batch. Null when another holds it.
   */
  claim(batchId: string): Promise<(() => Promise<void>) | null> {
    return this.database.tryClaim(`batch:${batchId}`);
  }

  async markRunning(id: string, now: number): Promise<void> {
    await this.database.run(
      "UPDATE batches SET state = 'BATCH_STATE_RUNNING', update_time = ? WHERE id = ? AND state = 'BATCH_STATE_PENDING'",
      [now, id],
    );
  }

  /**
   * Notes a start of work on a batch, before the work: how many starts in a row (this one
   * included) found it at the same committed request. Starts that stopped the process before
   * anything more was committed pile up here, so the runner can end a batch that keeps
   * stopping it instead of starting it again.
   */
  async startAttempt(id: string): Promise<number> {
    return this.database.transaction(async (transaction) => {
      await transaction.run(
        `UPDATE batches SET
           attempts = CASE WHEN attempt_progress = done_count THEN attempts + 1 ELSE 1 END,
           attempt_progress = done_count
         WHERE id = ?`,
        [id],
      );
      const row = await transaction.get<{ attempts: number }>(
        "SELECT attempts FROM batches WHERE id = ?",
        [id],
      );
      return Number(row?.attempts ?? 0);
    });
  }

  /** A start that ended without stopping the process (a clean shutdown) counts for nothing. */
  async endAttempt(id: string): Promise<void> {
    await this.database.run("UPDATE batches SET attempts = 0 WHERE id = ?", [id]);
  }

  /** Up to `limit` inline requests from `position` on, in order. */
  async requestsFrom(
    batchId: string,
    position: number,
    limit: number,
  ): Promise<StoredBatchRequest[]> {
    const rows = await this.database.all<{
      position: number;
      request_json: string;
      metadata_json: string | null;
    }>(
      `SELECT position, request_json, metadata_json FROM batch_requests
       WHERE batch_id = ? AND position >= ? ORDER BY position LIMIT ?`,
      [batchId, position, limit],
    );
    return rows.map((row) => ({
      position: row.position,
      requestJson: row.request_json,
      metadata: parseMetadata(row.metadata_json),
    }));
  }

  /** Every inline request's metadata and outcome, in order. */
  async outcomes(batchId: string): Promise<StoredBatchOutcome[]> {
    const rows = await this.database.all<{
      position: number;
      metadata_json: string | null;
      outcome_json: string | null;
    }>(
      "SELECT position, metadata_json, outcome_json FROM batch_requests WHERE batch_id = ? ORDER BY position",
      [batchId],
    );
    return rows.map((row) => ({
      position: row.position,
      metadata: parseMetadata(row.metadata_json),
      outcomeJson: row.outcome_json,
    }));
  }

  /**
   * Records the outcome of the request at `position`, which must be the next in order of a
   * batch still running; false (nothing written) when the batch was cancelled, deleted or
   * expired meanwhile.
   */
  async commit(batchId: string, committed: CommittedRequest, now: number): Promise<boolean> {
    return this.database.transaction(async (transaction) => {
      const { changes } = await transaction.run(
        `UPDATE batches SET done_count = done_count + 1,
           succeeded_count = succeeded_count + ?, failed_count = failed_count + ?,
           input_offset = COALESCE(?, input_offset), output_bytes = COALESCE(?, output_bytes),
           update_time = ?
         WHERE id = ? AND state = 'BATCH_STATE_RUNNING' AND done_count = ?`,
        [
          committed.succeeded ? 1 : 0,
          committed.succeeded ? 0 : 1,
          committed.inputOffset ?? null,
          committed.outputBytes ?? null,
          now,
          batchId,
          committed.position,
        ],
      );
      if (changes > 0 && committed.outcomeJson !== undefined) {
        await transaction.run(
          "UPDATE batch_requests SET outcome_json = ? WHERE batch_id = ? AND position = ?",
          [committed.outcomeJson, batchId, committed.position],
        );
      }
      return changes > 0;
    });
  }

  /**
   * Ends a batch that is still pending or running (with its results File, when it has one,
   * in the same transaction); false when it had already ended or is gone.
   */
  async finish(batchId: string, ending: BatchEnding, now: number): Promise<boolean> {
    return this.database.transaction(async (transaction) => {
      const changed = await this.end(transaction, batchId, ending, now);
      if (changed && ending.resultsFile)
        await this.files.insertFile(ending.resultsFile, transaction);
      return changed;
    });
  }

  private async end(
    executor: SqlExecutor,
    batchId: string,
    ending: BatchEnding,
    now: number,
  ): Promise<boolean> {
    const { changes } = await executor.run(
      `UPDATE batches SET state = ?, error_json = ?, results_file_id = ?, end_time = ?, update_time = ?
       WHERE id = ? AND state IN ${ACTIVE}`,
      [
        ending.state,
        ending.error ? JSON.stringify(ending.error) : null,
        ending.resultsFile?.id ?? null,
        now,
        now,
        batchId,
      ],
    );
    return changes > 0;
  }

  /** Forgets the inline requests and their outcomes (an ended batch without results keeps none). */
  async clearRequests(batchId: string): Promise<void> {
    await this.database.run("DELETE FROM batch_requests WHERE batch_id = ?", [batchId]);
  }

  async delete(batchId: string): Promise<boolean> {
    return (await this.database.run("DELETE FROM batches WHERE id = ?", [batchId])).changes > 0;
  }

  /** Pending or running batches created at or before `cutoff`. */
  async expiredActiveIds(cutoff: number): Promise<string[]> {
    const rows = await this.database.all<{ id: string }>(
      `SELECT id FROM batches WHERE state IN ${ACTIVE} AND create_time <= ?`,
      [cutoff],
    );
    return rows.map((row) => row.id);
  }

  async activeIds(): Promise<Set<string>> {
    const rows = await this.database.all<{ id: string }>(
      `SELECT id FROM batches WHERE state IN ${ACTIVE}`,
    );
    return new Set(rows.map((row) => row.id));
  }
}
