/**
 * SQLite rows of cachedContents (migration 2). The cached input (contents, system
 * instruction, tools, tool config) is stored as JSON and read only when a request uses
 * the cache, never for lists. Times are epoch milliseconds.
 */
import type { Db } from "@/lib/db/database";
import type { Content, ModalityTokenCount, Tool, ToolConfig } from "@/lib/gemini/types";

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
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO cached_contents (id, owner_id, model, display_name, content_json, total_token_count, token_details_json, create_time, update_time, expire_time)
         VALUES (@id, @owner_id, @model, @display_name, @content_json, @total_token_count, @token_details_json, @create_time, @update_time, @expire_time)`,
      ),
      get: db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM cached_contents WHERE id = ?`),
      getInput: db.prepare("SELECT content_json FROM cached_contents WHERE id = ?"),
      exists: db.prepare("SELECT 1 FROM cached_contents WHERE id = ?"),
      listFirst: db.prepare(
        `SELECT ${SUMMARY_COLUMNS} FROM cached_contents WHERE owner_id = ? AND expire_time > ?
         ORDER BY create_time DESC, id DESC LIMIT ?`,
      ),
      listAfter: db.prepare(
        `SELECT ${SUMMARY_COLUMNS} FROM cached_contents WHERE owner_id = ? AND expire_time > ? AND (create_time, id) < (?, ?)
         ORDER BY create_time DESC, id DESC LIMIT ?`,
      ),
      updateExpiry: db.prepare(
        "UPDATE cached_contents SET expire_time = ?, update_time = ? WHERE id = ?",
      ),
      delete: db.prepare("DELETE FROM cached_contents WHERE id = ?"),
      deleteExpired: db.prepare("DELETE FROM cached_contents WHERE expire_time <= ?"),
    };
  }

  insert(record: CacheRecord, input: CachedInput): void {
    this.statements.insert.run({
      id: record.id,
      owner_id: record.ownerId,
      model: record.model,
      display_name: record.displayName,
      content_json: JSON.stringify(input),
      total_token_count: record.totalTokenCount,
      token_details_json: record.tokenDetails ? JSON.stringify(record.tokenDetails) : null,
      create_time: record.createTime,
      update_time: record.updateTime,
      expire_time: record.expireTime,
    });
  }

  get(id: string): CacheRecord | undefined {
    const row = this.statements.get.get(id) as CacheRow | undefined;
    return row ? fromRow(row) : undefined;
  }

  input(id: string): CachedInput | undefined {
    const row = this.statements.getInput.get(id) as { content_json: string } | undefined;
    return row ? (JSON.parse(row.content_json) as CachedInput) : undefined;
  }

  exists(id: string): boolean {
    return this.statements.exists.get(id) !== undefined;
  }

  /** One page of an owner's live caches, newest first, after `after` (keyset pagination). */
  list(
    ownerId: string,
    now: number,
    limit: number,
    after: { createTime: number; id: string } | null,
  ): CacheRecord[] {
    const rows = after
      ? this.statements.listAfter.all(ownerId, now, after.createTime, after.id, limit)
      : this.statements.listFirst.all(ownerId, now, limit);
    return (rows as CacheRow[]).map(fromRow);
  }

  updateExpiry(id: string, expireTime: number, now: number): void {
    this.statements.updateExpiry.run(expireTime, now, id);
  }

  delete(id: string): boolean {
    return this.statements.delete.run(id).changes > 0;
  }

  deleteExpired(now: number): number {
    return this.statements.deleteExpired.run(now).changes;
  }
}
