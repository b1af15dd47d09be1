import type { SqlDatabase } from "../sql-database";

/**
 * The prompt prefixes each owner sent recently, per model (migration 14), as fingerprints:
 * one row per prefix hash with its expiry. Nothing of a prompt's text is kept. Read and
 * written by lib/engine/caches/implicit-cache.ts; every instance sharing the database sees
 * the same prefixes.
 */

/** Parameters per statement, well under SQLite's and PostgreSQL's limits. */
const BATCH = 400;

export class ImplicitCacheStore {
  constructor(private readonly database: SqlDatabase) {}

  /** Which of `hashes` the owner sent for `model` and are not expired at `now`. */
  async present(
    ownerId: string,
    model: string,
    hashes: readonly string[],
    now: number,
  ): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < hashes.length; start += BATCH) {
      const slice = hashes.slice(start, start + BATCH);
      const rows = await this.database.all<{ prefix_hash: string }>(
        `SELECT prefix_hash FROM implicit_cache_prefixes
          WHERE owner_id = ? AND model = ? AND expire_time > ?
            AND prefix_hash IN (${slice.map(() => "?").join(", ")})`,
        [ownerId, model, now, ...slice],
      );
      for (const row of rows) found.add(row.prefix_hash);
    }
    return found;
  }

  /** Records `hashes` for the owner and model until `expireTime` (a repeat moves its expiry). */
  async remember(
    ownerId: string,
    model: string,
    hashes: readonly string[],
    expireTime: number,
  ): Promise<void> {
    // PostgreSQL refuses one upsert that names a row twice, so repeats are written once.
    const unique = [...new Set(hashes)];
    for (let start = 0; start < unique.length; start += BATCH) {
      const slice = unique.slice(start, start + BATCH);
      await this.database.run(
        `INSERT INTO implicit_cache_prefixes (owner_id, model, prefix_hash, expire_time)
          VALUES ${slice.map(() => "(?, ?, ?, ?)").join(", ")}
          ON CONFLICT (owner_id, model, prefix_hash)
          DO UPDATE SET expire_time = excluded.expire_time`,
        slice.flatMap((hash) => [ownerId, model, hash, expireTime]),
      );
    }
  }

  /** Removes every prefix expired at `now`, whoever sent it. */
  async sweep(now: number): Promise<number> {
    const { changes } = await this.database.run(
      "DELETE FROM implicit_cache_prefixes WHERE expire_time <= ?",
      [now],
    );
    return changes;
  }
}
