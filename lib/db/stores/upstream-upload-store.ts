import { randomBytes } from "node:crypto";
import type { SqlDatabase } from "../sql-database";

/**
 * Upload sessions started through the gateway (migration 4). The upstream answers a start
 * with its own session URL; the client gets ours instead, carrying a random opaque id, and
 * this table maps the id back (with its owner) so chunks, `query` and `cancel` reach the right
 * upstream session, from any instance. Clients never see the upstream's address.
 */

/** The service keeps an unfinished upload for about a week; we forget ours after that. */
const SESSION_LIFETIME_MS = 7 * 24 * 3_600_000;

export interface UpstreamUploadSession {
  id: string;
  ownerId: string;
  upstreamUrl: string;
}

export class UpstreamUploadStore {
  constructor(
    private readonly database: SqlDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores a new mapping and returns its opaque id. */
  async create(ownerId: string, upstreamUrl: string): Promise<string> {
    const id = randomBytes(24).toString("base64url");
    const now = this.now();
    await this.database.run("DELETE FROM upstream_upload_sessions WHERE expires_at < ?", [now]);
    await this.database.run(
      "INSERT INTO upstream_upload_sessions (id, owner_id, upstream_url, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      [id, ownerId, upstreamUrl, now, now + SESSION_LIFETIME_MS],
    );
    return id;
  }

  /** The live session with this id, or null. */
  async find(id: string): Promise<UpstreamUploadSession | null> {
    const row = await this.database.get<{ id: string; owner_id: string; upstream_url: string }>(
      "SELECT id, owner_id, upstream_url FROM upstream_upload_sessions WHERE id = ? AND expires_at >= ?",
      [id, this.now()],
    );
    return row ? { id: row.id, ownerId: row.owner_id, upstreamUrl: row.upstream_url } : null;
  }

  async delete(id: string): Promise<void> {
    await this.database.run("DELETE FROM upstream_upload_sessions WHERE id = ?", [id]);
  }
}
