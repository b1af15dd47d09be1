import type { SqlDatabase } from "../sql-database";

/** Browser sessions (migration 1): stored only as the hash of the cookie's token. */
export class SessionStore {
  constructor(private readonly database: SqlDatabase) {}

  /** Stores a new session, forgetting the expired ones on the way. */
  async create(session: {
    tokenHash: string;
    ownerId: string;
    createdAt: number;
    expiresAt: number;
  }): Promise<void> {
    await this.database.run("DELETE FROM sessions WHERE expires_at < ?", [session.createdAt]);
    await this.database.run(
      "INSERT INTO sessions (token_hash, owner_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
      [session.tokenHash, session.ownerId, session.createdAt, session.expiresAt],
    );
  }

  /** The owner of a live session, or null. */
  async findOwner(tokenHash: string, now: number): Promise<string | null> {
    const row = await this.database.get<{ owner_id: string }>(
      "SELECT owner_id FROM sessions WHERE token_hash = ? AND expires_at > ?",
      [tokenHash, now],
    );
    return row?.owner_id ?? null;
  }

  async delete(tokenHash: string): Promise<void> {
    await this.database.run("DELETE FROM sessions WHERE token_hash = ?", [tokenHash]);
  }
}
