import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/database";

/**
 * Upload sessions started through the gateway. The upstream answers a start with its own
 * session URL; the client gets ours instead, carrying a random opaque id, and this table
 * maps the id back (with its owner) so chunks, `query` and `cancel` reach the right upstream
 * session. Clients never see the upstream's address or anything derived from the key.
 */

/** The service keeps an unfinished upload for about a week; we forget ours after that. */
const SESSION_LIFETIME_MS = 7 * 24 * 3_600_000;

export interface UpstreamUploadSession {
  id: string;
  ownerId: string;
  upstreamUrl: string;
}

export class UploadSessionStore {
  constructor(private readonly db: Db) {}

  /** Stores a new mapping and returns its opaque id. */
  create(ownerId: string, upstreamUrl: string): string {
    const id = randomBytes(24).toString("base64url");
    const now = Date.now();
    this.db.prepare("DELETE FROM upstream_upload_sessions WHERE expires_at < ?").run(now);
    this.db
      .prepare(
        "INSERT INTO upstream_upload_sessions (id, owner_id, upstream_url, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(id, ownerId, upstreamUrl, now, now + SESSION_LIFETIME_MS);
    return id;
  }

  /** The live session with this id, or null. */
  find(id: string): UpstreamUploadSession | null {
    const row = this.db
      .prepare(
        "SELECT id, owner_id, upstream_url FROM upstream_upload_sessions WHERE id = ? AND expires_at >= ?",
      )
      .get(id, Date.now()) as { id: string; owner_id: string; upstream_url: string } | undefined;
    return row ? { id: row.id, ownerId: row.owner_id, upstreamUrl: row.upstream_url } : null;
  }

  delete(id: string): void {
    this.db.prepare("DELETE FROM upstream_upload_sessions WHERE id = ?").run(id);
  }
}
