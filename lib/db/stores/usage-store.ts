import type { SqlDatabase, SqlValue } from "../sql-database";

/**
 * The usage ledger (migration 21): answers' tokens and cost added up per UTC day, workspace,
 * person, key and model. Writers add increments (one statement for many, added in the
 * database, never read-modify-written, so instances share one ledger); readers sum a range of
 * days by day, model, key and person. '' stands for "no person" and "no key" (a browser).
 */

export interface UsageTotals {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
  thoughtTokens: number;
  totalTokens: number;
  nanodollars: number;
}

export interface UsageIncrement extends UsageTotals {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  ownerId: string;
  personId: string;
  keyId: string;
  model: string;
}

/** Which ledger rows a reader sums: a range of days (both ends included) and any of the rest. */
export interface UsageFilter {
  from: string;
  to: string;
  personId?: string;
  keyId?: string;
  model?: string;
}

export interface UsageSummary {
  total: UsageTotals;
  byDay: Array<UsageTotals & { day: string }>;
  byModel: Array<UsageTotals & { model: string }>;
  byKey: Array<UsageTotals & { keyId: string; personId: string }>;
  byPerson: Array<UsageTotals & { personId: string }>;
}

export type UsageRow = UsageIncrement;

const SUMS = `COALESCE(SUM(requests), 0) AS requests, COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens,
  COALESCE(SUM(cached_tokens), 0) AS cached_tokens, COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(thought_tokens), 0) AS thought_tokens, COALESCE(SUM(total_tokens), 0) AS total_tokens,
  COALESCE(SUM(nanodollars), 0) AS nanodollars`;

interface TotalsRow {
  requests: number | string;
  prompt_tokens: number | string;
  cached_tokens: number | string;
  output_tokens: number | string;
  thought_tokens: number | string;
  total_tokens: number | string;
  nanodollars: number | string;
}

function totalsOf(row: TotalsRow): UsageTotals {
  return {
    requests: Number(row.requests),
    promptTokens: Number(row.prompt_tokens),
    cachedTokens: Number(row.cached_tokens),
    outputTokens: Number(row.output_tokens),
    thoughtTokens: Number(row.thought_tokens),
    totalTokens: Number(row.total_tokens),
    nanodollars: Number(row.nanodollars),
  };
}

function where(filter: UsageFilter): { sql: string; params: SqlValue[] } {
  const clauses = ["day >= ?", "day <= ?"];
  const params: SqlValue[] = [filter.from, filter.to];
  const equal = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    clauses.push(`${column} = ?`);
    params.push(value);
  };
  equal("person_id", filter.personId);
  equal("key_id", filter.keyId);
  equal("model", filter.model);
  return { sql: clauses.join(" AND "), params };
}

/** Rows of a CSV export read at a time. */
export const USAGE_PAGE_ROWS = 5000;

export class UsageStore {
  constructor(private readonly database: SqlDatabase) {}

  /** Adds increments to their rows (made at the first), in one statement. */
  async add(increments: readonly UsageIncrement[]): Promise<void> {
    if (increments.length === 0) return;
    await this.database.run(
      `INSERT INTO usage_daily (day, owner_id, person_id, key_id, model, requests, prompt_tokens,
         cached_tokens, output_tokens, thought_tokens, total_tokens, nanodollars)
       VALUES ${increments.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}
       ON CONFLICT (day, owner_id, person_id, key_id, model) DO UPDATE SET
         requests = usage_daily.requests + excluded.requests,
         prompt_tokens = usage_daily.prompt_tokens + excluded.prompt_tokens,
         cached_tokens = usage_daily.cached_tokens + excluded.cached_tokens,
         output_tokens = usage_daily.output_tokens + excluded.output_tokens,
         thought_tokens = usage_daily.thought_tokens + excluded.thought_tokens,
         total_tokens = usage_daily.total_tokens + excluded.total_tokens,
         nanodollars = usage_daily.nanodollars + excluded.nanodollars`,
      increments.flatMap((increment) => [
        increment.day,
        increment.ownerId,
        increment.personId,
        increment.keyId,
        increment.model,
        Math.round(increment.requests),
        Math.round(increment.promptTokens),
        Math.round(increment.cachedTokens),
        Math.round(increment.outputTokens),
        Math.round(increment.thoughtTokens),
        Math.round(increment.totalTokens),
        Math.round(increment.nanodollars),
      ]),
    );
  }

  /** The filter's sums: in all, and by day, model, key (with its person) and person. */
  async summary(filter: UsageFilter): Promise<UsageSummary> {
    const { sql, params } = where(filter);
    const grouped = <Row>(columns: string, order: string) =>
      this.database.all<Row & TotalsRow>(
        `SELECT ${columns}, ${SUMS} FROM usage_daily WHERE ${sql} GROUP BY ${columns} ORDER BY ${order}`,
        params,
      );
    const [byDay, byModel, byKey, byPerson] = await Promise.all([
      grouped<{ day: string }>("day", "day"),
      grouped<{ model: string }>("model", "total_tokens DESC, model"),
      grouped<{ key_id: string; person_id: string }>(
        "key_id, person_id",
        "total_tokens DESC, key_id, person_id",
      ),
      grouped<{ person_id: string }>("person_id", "total_tokens DESC, person_id"),
    ]);
    const dayRows = byDay.map((row) => ({ day: row.day, ...totalsOf(row) }));
    const total: UsageTotals = {
      requests: 0,
      promptTokens: 0,
      cachedTokens: 0,
      outputTokens: 0,
      thoughtTokens: 0,
      totalTokens: 0,
      nanodollars: 0,
    };
    for (const row of dayRows)
      for (const field of Object.keys(total) as Array<keyof UsageTotals>)
        total[field] += row[field];
    return {
      total,
      byDay: dayRows,
      byModel: byModel.map((row) => ({ model: row.model, ...totalsOf(row) })),
      byKey: byKey.map((row) => ({
        keyId: row.key_id,
        personId: row.person_id,
        ...totalsOf(row),
      })),
      byPerson: byPerson.map((row) => ({ personId: row.person_id, ...totalsOf(row) })),
    };
  }

  /**
   * The filter's ledger rows in order (day, then the rest of the row's identity), a page at a
   * time after `after` (the last row of the page before), for exports of any length.
   */
  async rows(filter: UsageFilter, after: UsageRow | null = null): Promise<UsageRow[]> {
    const { sql, params } = where(filter);
    const cursor =
      after === null ? "" : " AND (day, owner_id, person_id, key_id, model) > (?, ?, ?, ?, ?)";
    const rows = await this.database.all<
      TotalsRow & {
        day: string;
        owner_id: string;
        person_id: string;
        key_id: string;
        model: string;
      }
    >(
      `SELECT day, owner_id, person_id, key_id, model, requests, prompt_tokens, cached_tokens,
         output_tokens, thought_tokens, total_tokens, nanodollars
       FROM usage_daily WHERE ${sql}${cursor}
       ORDER BY day, owner_id, person_id, key_id, model LIMIT ${USAGE_PAGE_ROWS}`,
      after === null
        ? params
        : [...params, after.day, after.ownerId, after.personId, after.keyId, after.model],
    );
    return rows.map((row) => ({
      day: row.day,
      ownerId: row.owner_id,
      personId: row.person_id,
      keyId: row.key_id,
      model: row.model,
      ...totalsOf(row),
    }));
  }

  /** The names of managed keys by id (revoked ones too), for labels. */
  async keyNames(ids: readonly string[]): Promise<Map<string, { name: string; revoked: boolean }>> {
    const names = new Map<string, { name: string; revoked: boolean }>();
    for (let at = 0; at < ids.length; at += 500) {
      const page = ids.slice(at, at + 500);
      if (page.length === 0) break;
      const rows = await this.database.all<{ id: string; name: string; revoked_at: unknown }>(
        `SELECT id, name, revoked_at FROM api_keys WHERE id IN (${page.map(() => "?").join(", ")})`,
        page,
      );
      for (const row of rows)
        names.set(row.id, { name: row.name, revoked: row.revoked_at !== null });
    }
    return names;
  }

  /** True the first time `name` is claimed (by any instance): its usage is then recorded. */
  async claimRecording(name: string, now = Date.now()): Promise<boolean> {
    const { changes } = await this.database.run(
      "INSERT INTO usage_recorded (name, recorded_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
      [name, now],
    );
    return changes === 1;
  }
}
