import type { SqlDatabase } from "../sql-database";

/**
 * Browser sessions (migrations 1, 6 and 15): stored only as the hash of the cookie's token, each
 * bound to the access code it was opened with (`codeBinding`, a slow hash of the code). A
 * session is live only while the configured code still binds to the same value, so changing
 * or removing the code ends every session opened with the old one.
 */
export class SessionStore {
  constructor(private readonly database: SqlDatabase) {}

  /** Stores a new session, forgetting the expired ones on the way. */
  async create(session: {
    tokenHash: string;
    ownerId: string;
    /** The person signed in (people mode); null for the access code and the development default. */
    personId?: string | null;
    codeBinding: string;
    createdAt: number;
    expiresAt: number;
  }): Promise<void> {
    await this.database.run("DELETE FROM sessions WHERE expires_at < ?", [session.createdAt]);
    await this.database.run(
      "INSERT INTO sessions (token_hash, owner_id, person_id, code_binding, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
      [
        session.tokenHash,
        session.ownerId,
        session.personId ?? null,
        session.codeBinding,
        session.createdAt,
        session.expiresAt,
      ],
    );
  }

  /** A live session's owner, person and chosen workspace, or null. */
  async find(
    tokenHash: string,
    codeBinding: string,
    now: number,
  ): Promise<{ ownerId: string; personId: string | null; workspaceOwnerId: string | null } | null> {
    const row = await this.database.get<{
      owner_id: string;
      person_id: string | null;
      workspace_owner_id: string | null;
    }>(
      "SELECT owner_id, person_id, workspace_owner_id FROM sessions WHERE token_hash = ? AND code_binding = ? AND expires_at > ?",
      [tokenHash, codeBinding, now],
    );
    return row
      ? { ownerId: row.owner_id, personId: row.person_id, workspaceOwnerId: row.workspace_owner_id }
      : null;
  }

  /** Sets the workspace a session acts on (null: its own). */
  async setWorkspace(tokenHash: string, workspaceOwnerId: string | null): Promise<void> {
    await this.database.run("UPDATE sessions SET workspace_owner_id = ? WHERE token_hash = ?", [
      workspaceOwnerId,
      tokenHash,
    ]);
  }

  async delete(tokenHash: string): Promise<void> {
    await this.database.run("DELETE FROM sessions WHERE token_hash = ?", [tokenHash]);
  }

  /** Ends every session not bound to `codeBinding` (the code changed or was removed); answers how many. */
  async deleteUnbound(codeBinding: string): Promise<number> {
    return (await this.database.run("DELETE FROM sessions WHERE code_binding <> ?", [codeBinding]))
      .changes;
  }

  /** Ends every session of a person; answers how many there were. */
  async deletePerson(personId: string): Promise<number> {
    return (await this.database.run("DELETE FROM sessions WHERE person_id = ?", [personId]))
      .changes;
  }

  /** Ends every session of `ownerId` ("sign out everywhere"); answers how many there were. */
  async deleteOwner(ownerId: string): Promise<number> {
    return (await this.database.run("DELETE FROM sessions WHERE owner_id = ?", [ownerId])).changes;
  }
}
