import type { SqlDatabase, SqlExecutor, SqlValue } from "../sql-database";
import { rangePieces, rowIncrements } from "./usage-rollup";

/**
 * The usage ledger (migration 21): answers' tokens and cost added up per UTC day, workspace,
 * person, key and model. Writers add increments (one statement for many, added in the
 * database, never read-modify-written, so instances share one ledger); readers sum a range of
 * days by day, model, key and person. '' stands for "no person" and "no key" (a browser).
 * Rollups kept with it (usage-rollup.ts) answer the sums of everyone's usage.
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

/** Nothing used: the start of a sum, and a day without answers. */
export const ZERO_USAGE: Readonly<UsageTotals> = {
  requests: 0,
  promptTokens: 0,
  cachedTokens: 0,
  outputTokens: 0,
  thoughtTokens: 0,
  totalTokens: 0,
  nanodollars: 0,
};

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

const KEY_ORDER = "total_tokens DESC, key_id, person_id";
const PERSON_ORDER = "total_tokens DESC, person_id";

/** What a rollup query reads of a row: its key and person, and its sums. */
const ROLLUP_COLUMNS = `key_id, person_id, requests, prompt_tokens, cached_tokens, output_tokens,
  thought_tokens, total_tokens, nanodollars`;

const SUM_COLUMNS = [
  "requests",
  "prompt_tokens",
  "cached_tokens",
  "output_tokens",
  "thought_tokens",
  "total_tokens",
  "nanodollars",
];

/** An increment's sums, in SUM_COLUMNS' order. */
function sums(row: UsageTotals): number[] {
  return [
    row.requests,
    row.promptTokens,
    row.cachedTokens,
    row.outputTokens,
    row.thoughtTokens,
    row.totalTokens,
    row.nanodollars,
  ].map(Math.round);
}

/** Rows an upsert writes at a time (their parameters stay within both engines' limits). */
const UPSERT_ROWS = 1000;

function* pages<Row>(rows: readonly Row[]): Generator<Row[]> {
  for (let at = 0; at < rows.length; at += UPSERT_ROWS) yield rows.slice(at, at + UPSERT_ROWS);
}

/** Adds rows (`identity` columns, then the sums) to `table`'s: made at the first, added after. */
async function upsert(
  executor: SqlExecutor,
  table: string,
  identity: readonly string[],
  rows: readonly SqlValue[][],
): Promise<void> {
  const columns = [...identity, ...SUM_COLUMNS];
  const row = `(${columns.map(() => "?").join(", ")})`;
  await executor.run(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${rows.map(() => row).join(", ")}
     ON CONFLICT (${identity.join(", ")}) DO UPDATE SET
     ${SUM_COLUMNS.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(", ")}`,
    rows.flat(),
  );
}

/** The report's sums from its four groupings (the total from the days'). */
function summaryOf([byDay, byModel, byKey, byPerson]: [
  Array<{ day: string } & TotalsRow>,
  Array<{ model: string } & TotalsRow>,
  Array<{ key_id: string; person_id: string } & TotalsRow>,
  Array<{ person_id: string } & TotalsRow>,
]): UsageSummary {
  const dayRows = byDay.map((row) => ({ day: row.day, ...totalsOf(row) }));
  const total: UsageTotals = { ...ZERO_USAGE };
  for (const row of dayRows)
    for (const field of Object.keys(total) as Array<keyof UsageTotals>) total[field] += row[field];
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

/** Rows of a CSV export read at a time. */
export const USAGE_PAGE_ROWS = 5000;

export class UsageStore {
  constructor(private readonly database: SqlDatabase) {}

  /**
   * Adds increments to their ledger rows (made at the first) and to the rollups
   * (usage-rollup.ts), in one transaction: additive upserts, a few statements for many.
   */
  async add(increments: readonly UsageIncrement[]): Promise<void> {
    if (increments.length === 0) return;
    const { ledger, dailyModels, spans } = rowIncrements(increments);
    await this.database.transaction(async (transaction) => {
      for (const page of pages(ledger))
        await upsert(
          transaction,
          "usage_daily",
          ["day", "owner_id", "person_id", "key_id", "model"],
          page.map((row) => [
            row.day,
            row.ownerId,
            row.personId,
            row.keyId,
            row.model,
            ...sums(row),
          ]),
        );
      for (const page of pages(dailyModels))
        await upsert(
          transaction,
          "usage_daily_models",
          ["day", "model"],
          page.map((row) => [row.day, row.model, ...sums(row)]),
        );
      for (const page of pages(spans))
        await upsert(
          transaction,
          "usage_spans",
          ["span", "first_day", "person_id", "key_id", "model"],
          page.map((row) => [
            row.length,
            row.firstDay,
            row.personId,
            row.keyId,
            row.model,
            ...sums(row),
          ]),
        );
    });
  }

  /**
   * The filter's sums: in all, and by day, model, key (with its person) and person. A person's
   * or a key's are read from the ledger (its indexes find their few rows); everyone's from the
   * rollups, which hold the same sums in far fewer rows.
   */
  summary(filter: UsageFilter): Promise<UsageSummary> {
    return filter.personId === undefined && filter.keyId === undefined
      ? this.summaryFromRollups(filter)
      : this.summaryFromLedger(filter);
  }

  /** summary() read from the ledger rows themselves. */
  async summaryFromLedger(filter: UsageFilter): Promise<UsageSummary> {
    const { sql, params } = where(filter);
    const grouped = <Row>(columns: string, order: string) =>
      this.database.all<Row & TotalsRow>(
        `SELECT ${columns}, ${SUMS} FROM usage_daily WHERE ${sql} GROUP BY ${columns} ORDER BY ${order}`,
        params,
      );
    return summaryOf(
      await Promise.all([
        grouped<{ day: string }>("day", "day"),
        grouped<{ model: string }>("model", "total_tokens DESC, model"),
        grouped<{ key_id: string; person_id: string }>("key_id, person_id", KEY_ORDER),
        grouped<{ person_id: string }>("person_id", PERSON_ORDER),
      ]),
    );
  }

  /**
   * summary() of everyone (a model at most) read from the rollups: days and models from
   * usage_daily_models, keys and people from the range's spans and the ledger's days at its
   * ends (rangePieces), grouped and ordered as the ledger's own are.
   */
  async summaryFromRollups(filter: UsageFilter): Promise<UsageSummary> {
    const modelClause = filter.model === undefined ? "" : " AND model = ?";
    const modelParams = filter.model === undefined ? [] : [filter.model];
    const daily = <Row>(column: string, order: string) =>
      this.database.all<Row & TotalsRow>(
        `SELECT ${column}, ${SUMS} FROM usage_daily_models WHERE day >= ? AND day <= ?${modelClause}
         GROUP BY ${column} ORDER BY ${order}`,
        [filter.from, filter.to, ...modelParams],
      );
    const { spans, days } = rangePieces(filter.from, filter.to);
    const parts: string[] = [];
    const params: SqlValue[] = [];
    for (const span of spans) {
      parts.push(
        `SELECT ${ROLLUP_COLUMNS} FROM usage_spans WHERE span = ? AND first_day = ?${modelClause}`,
      );
      params.push(span.length, span.firstDay, ...modelParams);
    }
    if (days.length > 0) {
      parts.push(
        `SELECT ${ROLLUP_COLUMNS} FROM usage_daily WHERE day IN (${days.map(() => "?").join(", ")})${modelClause}`,
      );
      params.push(...days, ...modelParams);
    }
    const grouped = <Row>(columns: string, order: string) =>
      this.database.all<Row & TotalsRow>(
        `SELECT ${columns}, ${SUMS} FROM (${parts.join(" UNION ALL ")}) AS pieces
         GROUP BY ${columns} ORDER BY ${order}`,
        params,
      );
    return summaryOf(
      await Promise.all([
        daily<{ day: string }>("day", "day"),
        daily<{ model: string }>("model", "total_tokens DESC, model"),
        grouped<{ key_id: string; person_id: string }>("key_id, person_id", KEY_ORDER),
        grouped<{ person_id: string }>("person_id", PERSON_ORDER),
      ]),
    );
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

  /** Marks `name` as an answer whose usage is recorded when it is first seen ended. */
  async awaitRecording(name: string, expiresAt: number): Promise<void> {
    await this.database.run(
      "INSERT INTO usage_awaited (name, expires_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
      [name, expiresAt],
    );
  }

  /** True once for a marked `name` (by any instance) not past its expiry: its usage is then recorded. */
  async claimAwaited(name: string, now = Date.now()): Promise<boolean> {
    const { changes } = await this.database.run(
      "DELETE FROM usage_awaited WHERE name = ? AND expires_at >= ?",
      [name, now],
    );
    return changes === 1;
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
