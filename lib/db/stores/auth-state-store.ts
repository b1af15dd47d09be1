import { randomBytes } from "node:crypto";
import type { SqlDatabase, SqlExecutor } from "../sql-database";

/**
 * The one row every instance's cache of people and keys is checked against (migration 15):
 * `version` goes up in the same transaction as every change that affects who may do what (a
 * key created, limited or revoked; a person disabled, promoted or limited), so an instance
 * that sees the version it cached at knows nothing changed. On PostgreSQL the change is also
 * announced on AUTH_CHANNEL at commit, so others look at once. The row also keeps the secret
 * API keys are hashed with, made at first use.
 */

export const AUTH_CHANNEL = "genstudio_auth";

/** Bumps the version inside `executor`'s transaction (and, on PostgreSQL, announces it at commit). */
export async function bumpAuthVersion(executor: SqlExecutor): Promise<void> {
  await executor.run(
    `INSERT INTO auth_state (id, version, secret) VALUES (1, 1, ?)
     ON CONFLICT (id) DO UPDATE SET version = auth_state.version + 1`,
    [randomBytes(32).toString("base64url")],
  );
  if (executor.dialect === "postgres")
    await executor.get("SELECT pg_notify(?, ?)", [AUTH_CHANNEL, "changed"]);
}

export class AuthStateStore {
  constructor(private readonly database: SqlDatabase) {}

  /** The secret keys are hashed with: made once (by whichever instance comes first), then read. */
  async secret(): Promise<string> {
    await this.database.run(
      "INSERT INTO auth_state (id, version, secret) VALUES (1, 0, ?) ON CONFLICT (id) DO NOTHING",
      [randomBytes(32).toString("base64url")],
    );
    const row = await this.database.get<{ secret: string }>(
      "SELECT secret FROM auth_state WHERE id = 1",
    );
    return row!.secret;
  }

  /** The current version (0 before anything changed). */
  async version(): Promise<number> {
    const row = await this.database.get<{ version: number | string }>(
      "SELECT version FROM auth_state WHERE id = 1",
    );
    return Number(row?.version ?? 0);
  }

  /** Calls `onChange` when another instance announces a change (PostgreSQL only; a hint). */
  onChange(onChange: () => void): () => void {
    return this.database.listen(AUTH_CHANNEL, () => onChange());
  }
}
