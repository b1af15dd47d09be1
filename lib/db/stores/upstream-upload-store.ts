import { randomBytes } from "node:crypto";
import type { SqlDatabase } from "../sql-database";

/**
 * Upload sessions started through the gateway (migration 4). The upstream answers a start
 * with its own session URL; the client gets ours instead, carrying a random opaque id, and
 * this table maps the id back (with its owner) so chunks, `query` and `cancel` reach the right
 * upstream session, from any instance. Clients never see the upstream's address. It also
 * keeps how many bytes the upstream has confirmed (migration 11), so a `query` is answered
 * without an upstream call while no chunk is under way, and the gateway's reading of a JSONL
 * file's lines so far (migration 17).
 */

/** The service keeps an unfinished upload for about a week; we forget ours after that. */
const SESSION_LIFETIME_MS = 7 * 24 * 3_600_000;

export interface UpstreamUploadSession {
  id: string;
  ownerId: string;
  upstreamUrl: string;
  /** Bytes the upstream has confirmed; null while a chunk is under way or after one broke off. */
  sizeReceived: number | null;
  /** The reading of the bytes so far (lib/server/upstream/batch-file-scan), as JSON; null: none. */
  scan: string | null;
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
      "INSERT INTO upstream_upload_sessions (id, owner_id, upstream_url, created_at, expires_at, size_received) VALUES (?, ?, ?, ?, ?, 0)",
      [id, ownerId, upstreamUrl, now, now + SESSION_LIFETIME_MS],
    );
    return id;
  }

  /** The live session with this id, or null. */
  async find(id: string): Promise<UpstreamUploadSession | null> {
    const row = await this.database.get<{
      id: string;
      owner_id: string;
      upstream_url: string;
      size_received: number | null;
      scan_json: string | null;
    }>(
      "SELECT id, owner_id, upstream_url, size_received, scan_json FROM upstream_upload_sessions WHERE id = ? AND expires_at >= ?",
      [id, this.now()],
    );
    return row
      ? {
          id: row.id,
          ownerId: row.owner_id,
          upstreamUrl: row.upstream_url,
          sizeReceived: row.size_received === null ? null : Number(row.size_received),
          scan: row.scan_json,
        }
      : null;
  }

  /**
   * Records the bytes the upstream confirmed, or null (unknown) before a chunk is sent; with
   * `scan`, also the reading of the bytes so far (null: none goes on).
   */
  async setReceived(id: string, sizeReceived: number | null, scan?: string | null): Promise<void> {
    if (scan === undefined)
      await this.database.run(
        "UPDATE upstream_upload_sessions SET size_received = ? WHERE id = ?",
        [sizeReceived, id],
      );
    else
      await this.database.run(
        "UPDATE upstream_upload_sessions SET size_received = ?, scan_json = ? WHERE id = ?",
        [sizeReceived, scan, id],
      );
  }

  /** Keeps the reading of the session's bytes so far (null: none goes on). */
  async setScan(id: string, scan: string | null): Promise<void> {
    await this.database.run("UPDATE upstream_upload_sessions SET scan_json = ? WHERE id = ?", [
      scan,
      id,
    ]);
  }

  async delete(id: string): Promise<void> {
    await this.database.run("DELETE FROM upstream_upload_sessions WHERE id = ?", [id]);
  }
}
