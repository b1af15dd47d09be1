import type { SqlDatabase, SqlValue } from "../sql-database";
import { bumpAuthVersion } from "./auth-state-store";

/**
 * Request logs (migration 21): the exchanges of keys and people that asked for logging, each
 * kept as one recorded-exchanges line (`exchange_json`) beside the columns a reader filters on,
 * until its retention runs out. And who asked, with which retention (`log_settings`).
 */

export interface RequestLogEntry {
  id: string;
  ownerId: string;
  /** '' when no person made it (single-person modes, STUDIO_API_KEYS). */
  personId: string;
  /** '' for a browser session. */
  keyId: string;
  at: number;
  operation: string;
  model: string;
  status: number;
  durationMs: number;
  totalTokens: number;
  nanodollars: number;
  expiresAt: number;
}

export interface StoredRequestLog extends RequestLogEntry {
  /** The exchange as a recorded-exchanges line (JSON text). */
  exchangeJson: string;
}

/** Which entries a reader lists, newest first; every field is optional but `limit`. */
export interface RequestLogFilter {
  /** Only this person's entries ('' for none) — how a member is kept to their own. */
  personId?: string;
  keyId?: string;
  model?: string;
  /** An exact status, or a class: 200 for 2xx, 400 for 4xx, 500 for 5xx when `statusClass`. */
  status?: number;
  statusClass?: boolean;
  from?: number;
  to?: number;
  /** The entry before which the page starts (the last of the page before). */
  before?: { at: number; id: string };
  limit: number;
}

export interface LogSetting {
  /** `key:{id}` or `person:{id}`. */
  subject: string;
  retentionDays: number;
  includeMedia: boolean;
}

interface LogRow {
  id: string;
  owner_id: string;
  person_id: string;
  key_id: string;
  at: number | string;
  operation: string;
  model: string;
  status: number | string;
  duration_ms: number | string;
  total_tokens: number | string;
  nanodollars: number | string;
  expires_at: number | string;
  exchange_json?: string;
}

const ENTRY_COLUMNS =
  "id, owner_id, person_id, key_id, at, operation, model, status, duration_ms, total_tokens, nanodollars, expires_at";

function entryOf(row: LogRow): RequestLogEntry {
  return {
    id: row.id,
    ownerId: row.owner_id,
    personId: row.person_id,
    keyId: row.key_id,
    at: Number(row.at),
    operation: row.operation,
    model: row.model,
    status: Number(row.status),
    durationMs: Number(row.duration_ms),
    totalTokens: Number(row.total_tokens),
    nanodollars: Number(row.nanodollars),
    expiresAt: Number(row.expires_at),
  };
}

function where(filter: Omit<RequestLogFilter, "limit">): { sql: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  const add = (clause: string, ...values: SqlValue[]) => {
    clauses.push(clause);
    params.push(...values);
  };
  if (filter.personId !== undefined) add("person_id = ?", filter.personId);
  if (filter.keyId !== undefined) add("key_id = ?", filter.keyId);
  if (filter.model !== undefined) add("model = ?", filter.model);
  if (filter.status !== undefined) {
    if (filter.statusClass) add("status >= ? AND status < ?", filter.status, filter.status + 100);
    else add("status = ?", filter.status);
  }
  if (filter.from !== undefined) add("at >= ?", filter.from);
  if (filter.to !== undefined) add("at <= ?", filter.to);
  if (filter.before !== undefined)
    add("(at < ? OR (at = ? AND id < ?))", filter.before.at, filter.before.at, filter.before.id);
  return { sql: clauses.length ? `WHERE ${clauses.join(" AND ")}` : "", params };
}

export class RequestLogStore {
  constructor(private readonly database: SqlDatabase) {}

  /** Stores entries (one statement). */
  async add(entries: readonly StoredRequestLog[]): Promise<void> {
    if (entries.length === 0) return;
    await this.database.run(
      `INSERT INTO request_logs (${ENTRY_COLUMNS}, exchange_json)
       VALUES ${entries.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
      entries.flatMap((entry) => [
        entry.id,
        entry.ownerId,
        entry.personId,
        entry.keyId,
        entry.at,
        entry.operation,
        entry.model,
        entry.status,
        Math.round(entry.durationMs),
        entry.totalTokens,
        entry.nanodollars,
        entry.expiresAt,
        entry.exchangeJson,
      ]),
    );
  }

  /** A page of entries, newest first (without their exchanges). */
  async list(filter: RequestLogFilter): Promise<RequestLogEntry[]> {
    const { sql, params } = where(filter);
    const rows = await this.database.all<LogRow>(
      `SELECT ${ENTRY_COLUMNS} FROM request_logs ${sql} ORDER BY at DESC, id DESC LIMIT ${Math.floor(filter.limit)}`,
      params,
    );
    return rows.map(entryOf);
  }

  /** A page of entries with their exchanges, newest first (exports). */
  async listWithExchanges(filter: RequestLogFilter): Promise<StoredRequestLog[]> {
    const { sql, params } = where(filter);
    const rows = await this.database.all<LogRow & { exchange_json: string }>(
      `SELECT ${ENTRY_COLUMNS}, exchange_json FROM request_logs ${sql} ORDER BY at DESC, id DESC LIMIT ${Math.floor(filter.limit)}`,
      params,
    );
    return rows.map((row) => ({ ...entryOf(row), exchangeJson: row.exchange_json }));
  }

  /** One entry with its exchange, or null. */
  async get(id: string): Promise<StoredRequestLog | null> {
    const row = await this.database.get<LogRow & { exchange_json: string }>(
      `SELECT ${ENTRY_COLUMNS}, exchange_json FROM request_logs WHERE id = ?`,
      [id],
    );
    return row ? { ...entryOf(row), exchangeJson: row.exchange_json } : null;
  }

  /** Removes the entries whose retention ran out; answers how many. */
  async sweep(now: number): Promise<number> {
    return (await this.database.run("DELETE FROM request_logs WHERE expires_at <= ?", [now]))
      .changes;
  }

  async settings(subject: string): Promise<LogSetting | null> {
    const row = await this.database.get<{
      subject: string;
      retention_days: number | string;
      include_media: number | string;
    }>("SELECT subject, retention_days, include_media FROM log_settings WHERE subject = ?", [
      subject,
    ]);
    return row
      ? {
          subject: row.subject,
          retentionDays: Number(row.retention_days),
          includeMedia: Number(row.include_media) === 1,
        }
      : null;
  }

  /**
   * Sets (or with null, clears) a subject's logging, and bumps the auth version in the same
   * transaction so every instance's cache of settings lets go of it at once.
   */
  async setSettings(
    subject: string,
    setting: Omit<LogSetting, "subject"> | null,
    now = Date.now(),
  ): Promise<void> {
    await this.database.transaction(async (transaction) => {
      if (setting === null) {
        await transaction.run("DELETE FROM log_settings WHERE subject = ?", [subject]);
      } else {
        await transaction.run(
          `INSERT INTO log_settings (subject, retention_days, include_media, updated_at)
           VALUES (?, ?, ?, ?)
           ON CONFLICT (subject) DO UPDATE SET retention_days = excluded.retention_days,
             include_media = excluded.include_media, updated_at = excluded.updated_at`,
          [subject, setting.retentionDays, setting.includeMedia ? 1 : 0, now],
        );
      }
      await bumpAuthVersion(transaction);
    });
  }
}
