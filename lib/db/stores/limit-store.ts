import { randomBytes } from "node:crypto";
import type { SqlDatabase, SqlValue } from "../sql-database";

/**
 * Limits that hold across every instance of one service (migration 5): token buckets (the
 * per-caller request rate, and any other budget such as sign-in attempts, by bucket name) and
 * open-stream slots. A slot names the instance holding it and lives until its expiry, which
 * that instance keeps moving forward while it runs: the slots of an instance that died free
 * themselves within one lifetime.
 */

export interface RateSettings {
  requestsPerMinute: number;
  /** Tokens a bucket holds when full: requests that may come at once. */
  burst: number;
}

export interface RateDecision {
  taken: boolean;
  /** Seconds until the next token, when none was taken. */
  waitSeconds: number;
}

interface BucketRow {
  tokens: number;
  taken: number;
}

export class LimitStore {
  constructor(private readonly database: SqlDatabase) {}

  /**
   * What follows the inserted row of a take: refill `bucket` to now and take one token if there
   * is one, in the same statement, so two instances never spend one token twice.
   */
  private takeClause(rate: RateSettings, now: number): { sql: string; params: SqlValue[] } {
    const least = this.database.dialect === "sqlite" ? "MIN" : "LEAST";
    const greatest = this.database.dialect === "sqlite" ? "MAX" : "GREATEST";
    const refilled = `${least}(CAST(? AS DOUBLE PRECISION), rate_buckets.tokens + ${greatest}(0, ? - rate_buckets.updated_at) * CAST(? AS DOUBLE PRECISION))`;
    const refill: SqlValue[] = [rate.burst, now, rate.requestsPerMinute / 60_000];
    return {
      sql: `ON CONFLICT (bucket) DO UPDATE SET
          tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
          taken = CASE WHEN ${refilled} >= 1 THEN 1 ELSE 0 END,
          updated_at = ${greatest}(rate_buckets.updated_at, ?)
        RETURNING tokens, taken`,
      params: [...refill, ...refill, ...refill, ...refill, now],
    };
  }

  private decision(row: BucketRow, rate: RateSettings): RateDecision {
    if (row.taken === 1) return { taken: true, waitSeconds: 0 };
    const perMs = rate.requestsPerMinute / 60_000;
    return { taken: false, waitSeconds: (1 - row.tokens) / perMs / 1000 };
  }

  /** Takes one token from `bucket` (refilled at the rate, holding at most `burst`). */
  async take(bucket: string, rate: RateSettings, now: number): Promise<RateDecision> {
    const clause = this.takeClause(rate, now);
    const row = await this.database.get<BucketRow>(
      `INSERT INTO rate_buckets (bucket, tokens, taken, updated_at)
       VALUES (?, CAST(? AS DOUBLE PRECISION) - 1, 1, ?) ${clause.sql}`,
      [bucket, rate.burst, now, ...clause.params],
    );
    return this.decision(row!, rate);
  }

  /** Gives back the token a take spent (a sign-in that turned out right), never above `burst`. */
  async refund(bucket: string, rate: RateSettings): Promise<void> {
    const least = this.database.dialect === "sqlite" ? "MIN" : "LEAST";
    await this.database.run(
      `UPDATE rate_buckets SET tokens = ${least}(CAST(? AS DOUBLE PRECISION), tokens + 1) WHERE bucket = ?`,
      [rate.burst, bucket],
    );
  }

  /**
   * A browser session's owner and, when `rate` is given, a token from the owner's bucket: on
   * PostgreSQL one round trip for both (the hot path of every page request).
   */
  async findSessionOwnerAndTake(
    tokenHash: string,
    codeBinding: string,
    now: number,
    rate: RateSettings | null,
  ): Promise<{ ownerId: string | null; rate: RateDecision | null }> {
    const ownerSql =
      "SELECT owner_id FROM sessions WHERE token_hash = ? AND code_binding = ? AND expires_at > ?";
    if (rate === null || this.database.dialect === "sqlite") {
      const owner = await this.database.get<{ owner_id: string }>(ownerSql, [
        tokenHash,
        codeBinding,
        now,
      ]);
      if (!owner) return { ownerId: null, rate: null };
      return {
        ownerId: owner.owner_id,
        rate: rate === null ? null : await this.take(owner.owner_id, rate, now),
      };
    }
    const clause = this.takeClause(rate, now);
    const row = await this.database.get<{
      owner_id: string;
      tokens: number | null;
      taken: number | null;
    }>(
      `WITH session_owner AS (${ownerSql}),
        bucket AS (INSERT INTO rate_buckets (bucket, tokens, taken, updated_at)
          SELECT owner_id, CAST(? AS DOUBLE PRECISION) - 1, 1, ? FROM session_owner ${clause.sql})
       SELECT session_owner.owner_id, bucket.tokens, bucket.taken FROM session_owner LEFT JOIN bucket ON true`,
      [tokenHash, codeBinding, now, rate.burst, now, ...clause.params],
    );
    if (!row) return { ownerId: null, rate: null };
    return {
      ownerId: row.owner_id,
      rate: this.decision({ tokens: row.tokens ?? 0, taken: row.taken ?? 0 }, rate),
    };
  }

  /**
   * One more open stream for `ownerId`, held by `instanceId` until `expiresAt` unless renewed:
   * its id, or null when the owner already holds `limit` live slots on any instance.
   */
  async acquireStream(
    ownerId: string,
    limit: number,
    instanceId: string,
    now: number,
    expiresAt: number,
  ): Promise<string | null> {
    const id = randomBytes(12).toString("base64url");
    return this.database.transaction(async (transaction) => {
      await transaction.serialize(`streams:${ownerId}`);
      const inserted = await transaction.run(
        `INSERT INTO stream_slots (id, owner_id, instance_id, expires_at)
         SELECT ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM stream_slots WHERE owner_id = ? AND expires_at > ?) < ?`,
        [id, ownerId, instanceId, expiresAt, ownerId, now, limit],
      );
      return inserted.changes > 0 ? id : null;
    });
  }

  async releaseStream(id: string): Promise<void> {
    await this.database.run("DELETE FROM stream_slots WHERE id = ?", [id]);
  }

  /** Keeps this instance's slots alive until `expiresAt`, and forgets every expired slot. */
  async renewStreams(instanceId: string, now: number, expiresAt: number): Promise<void> {
    await this.database.run("UPDATE stream_slots SET expires_at = ? WHERE instance_id = ?", [
      expiresAt,
      instanceId,
    ]);
    await this.database.run("DELETE FROM stream_slots WHERE expires_at <= ?", [now]);
  }

  async openStreams(ownerId: string, now: number): Promise<number> {
    const row = await this.database.get<{ open: number }>(
      "SELECT COUNT(*) AS open FROM stream_slots WHERE owner_id = ? AND expires_at > ?",
      [ownerId, now],
    );
    return Number(row?.open ?? 0);
  }
}
