import { randomBytes } from "node:crypto";
import type { SqlDatabase, SqlValue } from "../sql-database";

/**
 * The audit log (migration 21): who did what to whom, and when — admin actions (people,
 * invitations, resets, workspaces) and key changes (made, limited, revoked, logging). Rows are
 * only added; `actor` keeps the actor's email (or "access code") as it was, so an entry reads
 * the same after that person changed or left.
 */

export interface AuditEvent {
  id: string;
  at: number;
  /** The acting person's id; '' in the single-person modes. */
  actorId: string;
  actor: string;
  /** What was done, `area.verb`: `key.create`, `person.update`, `invitation.create`, ... */
  action: string;
  /** What it was done to: `key:{id}`, `person:{id}`, `invitation:{id}`, ... */
  target: string;
  /** What changed, never a secret. */
  details: Record<string, unknown>;
}

export interface AuditFilter {
  action?: string;
  actorId?: string;
  from?: number;
  to?: number;
  before?: { at: number; id: string };
  limit: number;
}

interface AuditRow {
  id: string;
  at: number | string;
  actor_id: string;
  actor: string;
  action: string;
  target: string;
  details_json: string;
}

export class AuditStore {
  constructor(private readonly database: SqlDatabase) {}

  async add(event: Omit<AuditEvent, "id" | "at">, now = Date.now()): Promise<AuditEvent> {
    const stored: AuditEvent = {
      // Time first, so ids sort as the events happened within one millisecond's ties.
      id: `${now.toString(36).padStart(9, "0")}${randomBytes(6).toString("base64url")}`,
      at: now,
      ...event,
    };
    await this.database.run(
      "INSERT INTO audit_events (id, at, actor_id, actor, action, target, details_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [
        stored.id,
        stored.at,
        stored.actorId,
        stored.actor,
        stored.action,
        stored.target,
        JSON.stringify(stored.details),
      ],
    );
    return stored;
  }

  /** A page of events, newest first. */
  async list(filter: AuditFilter): Promise<AuditEvent[]> {
    const clauses: string[] = [];
    const params: SqlValue[] = [];
    if (filter.action !== undefined) {
      clauses.push("action = ?");
      params.push(filter.action);
    }
    if (filter.actorId !== undefined) {
      clauses.push("actor_id = ?");
      params.push(filter.actorId);
    }
    if (filter.from !== undefined) {
      clauses.push("at >= ?");
      params.push(filter.from);
    }
    if (filter.to !== undefined) {
      clauses.push("at <= ?");
      params.push(filter.to);
    }
    if (filter.before !== undefined) {
      clauses.push("(at < ? OR (at = ? AND id < ?))");
      params.push(filter.before.at, filter.before.at, filter.before.id);
    }
    const rows = await this.database.all<AuditRow>(
      `SELECT id, at, actor_id, actor, action, target, details_json FROM audit_events
       ${clauses.length ? `WHERE ${clauses.join(" AND ")}` : ""}
       ORDER BY at DESC, id DESC LIMIT ${Math.floor(filter.limit)}`,
      params,
    );
    return rows.map((row) => ({
      id: row.id,
      at: Number(row.at),
      actorId: row.actor_id,
      actor: row.actor,
      action: row.action,
      target: row.target,
      details: JSON.parse(row.details_json) as Record<string, unknown>,
    }));
  }
}
