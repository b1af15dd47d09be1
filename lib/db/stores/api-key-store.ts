import { randomBytes } from "node:crypto";
import type { KeyLimits } from "@/lib/studio/key-limits";
import type { SqlDatabase } from "../sql-database";
import { bumpAuthVersion } from "./auth-state-store";

/**
 * API keys people make in the studio (migration 15). A key belongs to a workspace (`ownerId`:
 * a person's, or the shared one of the single-person modes) and to the person who made it; it
 * is stored only as a keyed hash of its secret, with the secret's first characters to tell
 * keys apart. Revoking keeps the row (its name and spend stay readable) and stops the key.
 * Every change bumps the auth version, so every instance's key cache lets go of it at once.
 */

export interface ApiKeyRecord {
  id: string;
  ownerId: string;
  personId: string | null;
  name: string;
  prefix: string;
  limits: KeyLimits;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

interface KeyRow {
  id: string;
  owner_id: string;
  person_id: string | null;
  name: string;
  prefix: string;
  limits_json: string;
  created_at: number | string;
  last_used_at: number | string | null;
  revoked_at: number | string | null;
}

const COLUMNS =
  "id, owner_id, person_id, name, prefix, limits_json, created_at, last_used_at, revoked_at";

function keyOf(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    personId: row.person_id,
    name: row.name,
    prefix: row.prefix,
    limits: JSON.parse(row.limits_json) as KeyLimits,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** Keys one workspace may hold at once (revoked ones do not count). */
export const MAX_KEYS_PER_WORKSPACE = 100;

export class ApiKeyStore {
  constructor(private readonly database: SqlDatabase) {}

  /** Stores a key; null when the workspace already holds MAX_KEYS_PER_WORKSPACE live keys. */
  async create(
    key: {
      ownerId: string;
      personId: string | null;
      name: string;
      prefix: string;
      secretHash: string;
      limits: KeyLimits;
    },
    now = Date.now(),
  ): Promise<ApiKeyRecord | null> {
    const id = randomBytes(9).toString("base64url");
    return this.database.transaction(async (transaction) => {
      await transaction.serialize(`api-keys:${key.ownerId}`);
      const live = await transaction.get<{ count: number | string }>(
        "SELECT COUNT(*) AS count FROM api_keys WHERE owner_id = ? AND revoked_at IS NULL",
        [key.ownerId],
      );
      if (Number(live?.count ?? 0) >= MAX_KEYS_PER_WORKSPACE) return null;
      await transaction.run(
        `INSERT INTO api_keys (id, owner_id, person_id, name, secret_hash, prefix, limits_json, created_at, last_used_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
        [
          id,
          key.ownerId,
          key.personId,
          key.name,
          key.secretHash,
          key.prefix,
          JSON.stringify(key.limits),
          now,
        ],
      );
      await bumpAuthVersion(transaction);
      return {
        id,
        ownerId: key.ownerId,
        personId: key.personId,
        name: key.name,
        prefix: key.prefix,
        limits: key.limits,
        createdAt: now,
        lastUsedAt: null,
        revokedAt: null,
      };
    });
  }

  /** The live (unrevoked) key with this secret hash, or null. */
  async findLive(secretHash: string): Promise<ApiKeyRecord | null> {
    const row = await this.database.get<KeyRow>(
      `SELECT ${COLUMNS} FROM api_keys WHERE secret_hash = ? AND revoked_at IS NULL`,
      [secretHash],
    );
    return row ? keyOf(row) : null;
  }

  /** A key of `ownerId`'s workspace by id (revoked ones too), or null. */
  async get(ownerId: string, id: string): Promise<ApiKeyRecord | null> {
    const row = await this.database.get<KeyRow>(
      `SELECT ${COLUMNS} FROM api_keys WHERE id = ? AND owner_id = ?`,
      [id, ownerId],
    );
    return row ? keyOf(row) : null;
  }

  /** A workspace's keys, newest first, revoked ones after the live ones. */
  async list(ownerId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.database.all<KeyRow>(
      `SELECT ${COLUMNS} FROM api_keys WHERE owner_id = ?
       ORDER BY CASE WHEN revoked_at IS NULL THEN 0 ELSE 1 END, created_at DESC, id`,
      [ownerId],
    );
    return rows.map(keyOf);
  }

  /** Every live key one person made, whichever workspace (an admin's view of a person). */
  async listByPerson(personId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.database.all<KeyRow>(
      `SELECT ${COLUMNS} FROM api_keys WHERE person_id = ? ORDER BY created_at DESC, id`,
      [personId],
    );
    return rows.map(keyOf);
  }

  /** Renames or re-limits a live key of `ownerId`; null when there is no such live key. */
  async update(
    ownerId: string,
    id: string,
    changes: { name?: string; limits?: KeyLimits },
  ): Promise<ApiKeyRecord | null> {
    return this.database.transaction(async (transaction) => {
      const row = await transaction.get<KeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE id = ? AND owner_id = ? AND revoked_at IS NULL`,
        [id, ownerId],
      );
      if (!row) return null;
      const key = keyOf(row);
      const name = changes.name ?? key.name;
      const limits = changes.limits ?? key.limits;
      await transaction.run("UPDATE api_keys SET name = ?, limits_json = ? WHERE id = ?", [
        name,
        JSON.stringify(limits),
        id,
      ]);
      await bumpAuthVersion(transaction);
      return { ...key, name, limits };
    });
  }

  /** Revokes a live key of `ownerId`; false when there was none. */
  async revoke(ownerId: string, id: string, now = Date.now()): Promise<boolean> {
    return this.database.transaction(async (transaction) => {
      const result = await transaction.run(
        "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND owner_id = ? AND revoked_at IS NULL",
        [now, id, ownerId],
      );
      if (result.changes > 0) await bumpAuthVersion(transaction);
      return result.changes > 0;
    });
  }

  /** Notes that keys were used (at most once a minute per key per instance; off the request's path). */
  async touch(ids: readonly string[], now = Date.now()): Promise<void> {
    if (ids.length === 0) return;
    await this.database.run(
      `UPDATE api_keys SET last_used_at = ? WHERE id IN (${ids.map(() => "?").join(", ")})`,
      [now, ...ids],
    );
  }
}
