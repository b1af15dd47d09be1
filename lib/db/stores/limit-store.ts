import { randomBytes } from "node:crypto";
import type { SqlDatabase, SqlTransaction, SqlValue } from "../sql-database";

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

/** A take of several tokens at once: how many it got (0 when refused). */
export interface BatchDecision extends RateDecision {
  count: number;
}

/**
 * The most of a bucket's tokens one take of several may hold: a tenth of what the bucket has
 * then. So a batch never leaves another instance short while the bucket is far from empty, and
 * near empty every take is of one token, exactly as a single take.
 */
export const BATCH_SHARE = 0.1;

/** What a take asking for `wanted` tokens gets from a bucket holding `tokens` (at least 1). */
export function batchCount(tokens: number, wanted: number): number {
  return Math.max(1, Math.min(wanted, Math.floor(tokens * BATCH_SHARE)));
}

interface BucketRow {
  tokens: number;
  taken: number;
}

/** The decision of a take of one token. */
function single({ taken, waitSeconds }: BatchDecision): RateDecision {
  return { taken, waitSeconds };
}

/** A live browser session as authentication reads it. */
export interface SessionFound {
  ownerId: string;
  /** The signed-in person (people mode); null for the access code and the development default. */
  personId: string | null;
  /** The workspace an admin switched this session to; null: the session's own. */
  workspaceOwnerId: string | null;
}

interface SessionRow {
  owner_id: string;
  person_id: string | null;
  workspace_owner_id: string | null;
}

function sessionOf(row: SessionRow): SessionFound {
  return {
    ownerId: row.owner_id,
    personId: row.person_id,
    workspaceOwnerId: row.workspace_owner_id,
  };
}

/** What one key has spent in the current UTC day and month (lib/studio/key-limits). */
export interface KeySpend {
  dayTokens: number;
  dayNanodollars: number;
  monthTokens: number;
  monthNanodollars: number;
}

/** Which spend to read: a key's, for the periods of now. */
export interface SpendQuery {
  keyId: string;
  day: string;
  month: string;
}

/** Spend to add to one key's period. */
export interface SpendIncrement {
  keyId: string;
  period: string;
  tokens: number;
  nanodollars: number;
}

interface SpendColumns {
  day_tokens: number | string | null;
  day_nanodollars: number | string | null;
  month_tokens: number | string | null;
  month_nanodollars: number | string | null;
}

/** A key's spend of a day and a month: one row (of NULLs when it has none), one index range. */
const SPEND_ROW = `SELECT SUM(CASE WHEN period = ? THEN tokens END) AS day_tokens,
  SUM(CASE WHEN period = ? THEN nanodollars END) AS day_nanodollars,
  SUM(CASE WHEN period = ? THEN tokens END) AS month_tokens,
  SUM(CASE WHEN period = ? THEN nanodollars END) AS month_nanodollars
  FROM key_spend WHERE key_id = ? AND period IN (?, ?)`;

function spendParams(query: SpendQuery): SqlValue[] {
  const { keyId, day, month } = query;
  return [day, day, month, month, keyId, day, month];
}

function spendOf(row: SpendColumns | undefined): KeySpend {
  return {
    dayTokens: Number(row?.day_tokens ?? 0),
    dayNanodollars: Number(row?.day_nanodollars ?? 0),
    monthTokens: Number(row?.month_tokens ?? 0),
    monthNanodollars: Number(row?.month_nanodollars ?? 0),
  };
}

export class LimitStore {
  constructor(private readonly database: SqlDatabase) {}

  /**
   * What follows the inserted row of a take: refill `bucket` to now and take up to `wanted`
   * tokens (batchCount's share of what it holds, at least one if it holds one), in the same
   * statement, so two instances never spend one token twice.
   */
  private takeClause(
    rate: RateSettings,
    now: number,
    wanted = 1,
  ): { sql: string; params: SqlValue[] } {
    const sqlite = this.database.dialect === "sqlite";
    const least = sqlite ? "MIN" : "LEAST";
    const greatest = sqlite ? "MAX" : "GREATEST";
    const refilled = `${least}(CAST(? AS DOUBLE PRECISION), rate_buckets.tokens + ${greatest}(0, ? - rate_buckets.updated_at) * CAST(? AS DOUBLE PRECISION))`;
    const refill: SqlValue[] = [rate.burst, now, rate.requestsPerMinute / 60_000];
    // SQLite's cast truncates, which for the positive share is the floor.
    const share = `${refilled} * ${BATCH_SHARE}`;
    const floorShare = sqlite ? `CAST(${share} AS INTEGER)` : `CAST(FLOOR(${share}) AS INTEGER)`;
    const count = `CASE WHEN ${refilled} >= 1 THEN ${greatest}(1, ${least}(CAST(? AS INTEGER), ${floorShare})) ELSE 0 END`;
    const countParams: SqlValue[] = [...refill, wanted, ...refill];
    return {
      sql: `ON CONFLICT (bucket) DO UPDATE SET
          tokens = ${refilled} - ${count},
          taken = ${count},
          updated_at = ${greatest}(rate_buckets.updated_at, ?)
        RETURNING tokens, taken`,
      params: [...refill, ...countParams, ...countParams, now],
    };
  }

  private decision(row: BucketRow, rate: RateSettings): BatchDecision {
    const count = Number(row.taken);
    if (count >= 1) return { taken: true, waitSeconds: 0, count };
    const perMs = rate.requestsPerMinute / 60_000;
    return { taken: false, waitSeconds: (1 - row.tokens) / perMs / 1000, count: 0 };
  }

  /** Takes one token from `bucket` (refilled at the rate, holding at most `burst`). */
  async take(bucket: string, rate: RateSettings, now: number): Promise<RateDecision> {
    return single(await this.takeBatch(bucket, rate, now, 1));
  }

  /**
   * Takes up to `wanted` tokens from `bucket` at once (never more than batchCount allows; one
   * when the bucket is nearly empty), for an instance that hands them out to the requests that
   * follow (lib/server/http/rate-tokens.ts).
   */
  async takeBatch(
    bucket: string,
    rate: RateSettings,
    now: number,
    wanted: number,
  ): Promise<BatchDecision> {
    const clause = this.takeClause(rate, now, wanted);
    const first = batchCount(rate.burst, wanted);
    const row = await this.database.get<BucketRow>(
      `INSERT INTO rate_buckets (bucket, tokens, taken, updated_at)
       VALUES (?, CAST(? AS DOUBLE PRECISION) - ?, ?, ?) ${clause.sql}`,
      [bucket, rate.burst, first, first, now, ...clause.params],
      { hot: true },
    );
    return this.decision(row!, rate);
  }

  /**
   * A token of `bucket` (when `rate` is given) and a key's spend (when `spend` is given): on
   * PostgreSQL one round trip for both (the hot path of every request with a managed key).
   */
  async takeWithSpend(
    bucket: string,
    rate: RateSettings | null,
    now: number,
    spend: SpendQuery | null,
  ): Promise<{ rate: RateDecision | null; spend: KeySpend | null }> {
    if (spend === null) {
      return { rate: rate === null ? null : await this.take(bucket, rate, now), spend: null };
    }
    if (rate === null || this.database.dialect === "sqlite") {
      const decision = rate === null ? null : await this.take(bucket, rate, now);
      const row = await this.database.get<SpendColumns>(SPEND_ROW, spendParams(spend), {
        hot: true,
      });
      return { rate: decision, spend: spendOf(row) };
    }
    const clause = this.takeClause(rate, now);
    const row = await this.database.get<BucketRow & SpendColumns>(
      `WITH bucket AS (INSERT INTO rate_buckets (bucket, tokens, taken, updated_at)
         VALUES (?, CAST(? AS DOUBLE PRECISION) - 1, 1, ?) ${clause.sql}),
       spend AS (${SPEND_ROW})
       SELECT bucket.tokens, bucket.taken, spend.* FROM bucket, spend`,
      [bucket, rate.burst, now, ...clause.params, ...spendParams(spend)],
      { hot: true },
    );
    return { rate: single(this.decision(row!, rate)), spend: spendOf(row) };
  }

  /** Keys' spend in the given periods, by key id (keys with none are absent). */
  async readSpend(
    keyIds: readonly string[],
    day: string,
    month: string,
  ): Promise<Map<string, KeySpend>> {
    const spends = new Map<string, KeySpend>();
    if (keyIds.length === 0) return spends;
    const rows = await this.database.all<{
      key_id: string;
      period: string;
      tokens: number | string;
      nanodollars: number | string;
    }>(
      `SELECT key_id, period, tokens, nanodollars FROM key_spend
       WHERE period IN (?, ?) AND key_id IN (${keyIds.map(() => "?").join(", ")})`,
      [day, month, ...keyIds],
    );
    for (const row of rows) {
      const spend = spends.get(row.key_id) ?? spendOf(undefined);
      if (row.period === day) {
        spend.dayTokens = Number(row.tokens);
        spend.dayNanodollars = Number(row.nanodollars);
      } else {
        spend.monthTokens = Number(row.tokens);
        spend.monthNanodollars = Number(row.nanodollars);
      }
      spends.set(row.key_id, spend);
    }
    return spends;
  }

  /** Adds spend to keys' periods in one statement; concurrent adds from any instance all count. */
  async addSpend(increments: readonly SpendIncrement[]): Promise<void> {
    if (increments.length === 0) return;
    await this.database.run(
      `INSERT INTO key_spend (key_id, period, tokens, nanodollars)
       VALUES ${increments.map(() => "(?, ?, ?, ?)").join(", ")}
       ON CONFLICT (key_id, period) DO UPDATE SET
         tokens = key_spend.tokens + excluded.tokens,
         nanodollars = key_spend.nanodollars + excluded.nanodollars`,
      increments.flatMap((increment) => [
        increment.keyId,
        increment.period,
        Math.round(increment.tokens),
        Math.round(increment.nanodollars),
      ]),
    );
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
   * A browser session (its owner, person and chosen workspace) and, when `rate` is given, a
   * token from the owner's bucket: on PostgreSQL one round trip for both (the hot path of every
   * page request).
   */
  async findSessionOwnerAndTake(
    tokenHash: string,
    codeBinding: string,
    now: number,
    rate: RateSettings | null,
  ): Promise<{ session: SessionFound | null; rate: RateDecision | null }> {
    const sessionSql =
      "SELECT owner_id, person_id, workspace_owner_id FROM sessions WHERE token_hash = ? AND code_binding = ? AND expires_at > ?";
    if (rate === null || this.database.dialect === "sqlite") {
      const row = await this.database.get<SessionRow>(sessionSql, [tokenHash, codeBinding, now]);
      if (!row) return { session: null, rate: null };
      return {
        session: sessionOf(row),
        rate: rate === null ? null : await this.take(row.owner_id, rate, now),
      };
    }
    const clause = this.takeClause(rate, now);
    const row = await this.database.get<
      SessionRow & {
        tokens: number | null;
        taken: number | null;
      }
    >(
      `WITH session_owner AS (${sessionSql}),
        bucket AS (INSERT INTO rate_buckets (bucket, tokens, taken, updated_at)
          SELECT owner_id, CAST(? AS DOUBLE PRECISION) - 1, 1, ? FROM session_owner ${clause.sql})
       SELECT session_owner.owner_id, session_owner.person_id, session_owner.workspace_owner_id,
         bucket.tokens, bucket.taken FROM session_owner LEFT JOIN bucket ON true`,
      [tokenHash, codeBinding, now, rate.burst, now, ...clause.params],
    );
    if (!row) return { session: null, rate: null };
    return {
      session: sessionOf(row),
      rate: single(this.decision({ tokens: row.tokens ?? 0, taken: row.taken ?? 0 }, rate)),
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
    const insert = async (executor: Pick<SqlTransaction, "run">) => {
      const inserted = await executor.run(
        `INSERT INTO stream_slots (id, owner_id, instance_id, expires_at)
         SELECT ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM stream_slots WHERE owner_id = ? AND expires_at > ?) < ?`,
        [id, ownerId, instanceId, expiresAt, ownerId, now, limit],
      );
      return inserted.changes > 0 ? id : null;
    };
    // On SQLite one statement is its own transaction, and a statement that writes takes the
    // file's write lock before it reads (waiting out another process's, busy_timeout): the
    // count and the insert cannot interleave with another instance's, with no BEGIN/COMMIT
    // around them. PostgreSQL reads the count before the insert locks anything: the owner's
    // slots are serialized for the transaction.
    if (this.database.dialect === "sqlite") return insert(this.database);
    return this.database.transaction(async (transaction) => {
      await transaction.serialize(`streams:${ownerId}`);
      return insert(transaction);
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
