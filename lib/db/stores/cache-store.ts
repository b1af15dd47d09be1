/**
 * Every statement of the local engine's cachedContents (migrations 2 and 10). The cached input
 * (contents, system instruction, tools, tool config) is stored as JSON and read only when a
 * request uses the cache, never for lists. Times are epoch milliseconds.
 */
import type { SqlDatabase, SqlExecutor } from "../sql-database";
import { admitWithinQuota, type QuotaAdmission, type QuotaUsage } from "./quota-admission";
import type { Content, ModalityTokenCount, Tool, ToolConfig } from "@/lib/gemini/types";
import { keysetPageSql } from "./keyset-page-sql";

export interface CachedInput {
  contents: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: ToolConfig;
}

export interface CacheRecord {
  id: string;
  ownerId: string;
  model: string;
  displayName: string;
  totalTokenCount: number;
  /** Per-modality token counts of the cached input (cacheTokensDetails). */
  tokenDetails: ModalityTokenCount[] | null;
  createTime: number;
  updateTime: number;
  expireTime: number;
}

interface CacheRow {
  id: string;
  owner_id: string;
  model: string;
  display_name: string;
  total_token_count: number;
  token_details_json: string | null;
  create_time: number;
  update_time: number;
  expire_time: number;
}

/** Every column but the cached input itself. */
const SUMMARY_COLUMNS =
  "id, owner_id, model, display_name, total_token_count, token_details_json, create_time, update_time, expire_time";

function fromRow(row: CacheRow): CacheRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    model: row.model,
    displayName: row.display_name,
    totalTokenCount: row.total_token_count,
    tokenDetails: row.token_details_json
      ? (JSON.parse(row.token_details_json) as ModalityTokenCount[])
      : null,
    createTime: row.create_time,
    updateTime: row.update_time,
    expireTime: row.expire_time,
  };
}

export class CacheStore {
  constructor(private readonly database: SqlDatabase) {}

  /**
   * Stores a cache; `input` is its cached input as JSON text, of `sizeBytes` UTF-8 bytes. With
   * an admission, the owner's live caches are counted in the same transaction as the insert
   * (serialised per owner), so concurrent creates cannot all pass the quota.
   */
  async insert(
    record: CacheRecord,
    input: { json: string; sizeBytes: number },
    admission?: QuotaAdmission,
  ): Promise<void> {
    await this.database.transaction(async (transaction) => {
      await admitWithinQuota(
        transaction,
        "cachedContents",
        record.ownerId,
        () => this.usage(record.ownerId, record.createTime, transaction),
        admission,
      );
      await transaction.run(
        `INSERT INTO cached_contents (id, owner_id, model, display_name, content_json, size_bytes, total_token_count, token_details_json, create_time, update_time, expire_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          record.ownerId,
          record.model,
          record.displayName,
          input.json,
          input.sizeBytes,
          record.totalTokenCount,
          record.tokenDetails ? JSON.stringify(record.tokenDetails) : null,
          record.createTime,
          record.updateTime,
          record.expireTime,
        ],
      );
    });
  }

  async get(id: string): Promise<CacheRecord | undefined> {
    const row = await this.database.get<CacheRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM cached_contents WHERE id = ?`,
      [id],
    );
    return row ? fromRow(row) : undefined;
  }

  /** The cached input as its stored JSON text (megabytes when it holds media: the engine parses it in slices). */
  async inputJson(id: string): Promise<string | undefined> {
    const row = await this.database.get<{ content_json: string }>(
      "SELECT content_json FROM cached_contents WHERE id = ?",
      [id],
    );
    return row?.content_json;
  }

  /** How many live caches `ownerId` holds and the bytes of their cached input (the quota's measure). */
  async usage(
    ownerId: string,
    now: number,
    executor: SqlExecutor = this.database,
  ): Promise<QuotaUsage> {
    const row = await executor.get<{ count: number; bytes: number | null }>(
      "SELECT COUNT(*) AS count, SUM(size_bytes) AS bytes FROM cached_contents WHERE owner_id = ? AND expire_time > ?",
      [ownerId, now],
    );
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  async exists(id: string): Promise<boolean> {
    return (
      (await this.database.get("SELECT 1 AS found FROM cached_contents WHERE id = ?", [id])) !==
      undefined
    );
  }

  /** One page of an owner's live caches, newest first, after `after` (keyset pagination). */
  async list(
    ownerId: string,
    now: number,
    limit: number,
    after: { createTime: number; id: string } | null,
  ): Promise<CacheRecord[]> {
    const page = keysetPageSql(after, limit);
    const rows = await this.database.all<CacheRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM cached_contents WHERE owner_id = ? AND expire_time > ?${page.condition} ${page.order}`,
      [ownerId, now, ...page.params],
    );
    return rows.map(fromRow);
  }

  async updateExpiry(id: string, expireTime: number, now: number): Promise<void> {
    await this.database.run(
      "UPDATE cached_contents SET expire_time = ?, update_time = ? WHERE id = ?",
      [expireTime, now, id],
    );
  }

  async delete(id: string): Promise<boolean> {
    return (await this.database.run("DELETE FROM cached_contents WHERE id = ?", [id])).changes > 0;
  }

  async deleteExpired(now: number): Promise<number> {
    return (await this.database.run("DELETE FROM cached_contents WHERE expire_time <= ?", [now]))
      .changes;
  }
}
