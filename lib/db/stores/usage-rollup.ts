import type { UsageIncrement, UsageTotals } from "./usage-store";

/**
 * The rollups kept beside the usage ledger (migration 22), so a report of everyone's usage
 * reads a few thousand rows whatever its range, where the ledger holds a row per day, key and
 * model (90,000 rows for a month of a thousand keys):
 * - usage_daily_models: per UTC day and model (the report's days, models and total);
 * - usage_spans: per person, key and model over aligned spans of 2, 4, ... 256 days (a span
 *   of S days starts on a day whose number since 1970-01-01 is a multiple of S), so any range
 *   of days is a handful of spans plus at most a day at each end, read from the ledger (the
 *   report's keys and people).
 * Both are added to with the ledger's increments, in the ledger's transaction, by additive
 * upserts (never read-modify-write), so every instance keeps them equal to sums of the ledger.
 */

/** The sums of a ledger row (and of a rollup row), each added up on its own. */
export const USAGE_TOTAL_FIELDS = [
  "requests",
  "promptTokens",
  "cachedTokens",
  "outputTokens",
  "thoughtTokens",
  "totalTokens",
  "nanodollars",
] as const satisfies ReadonlyArray<keyof UsageTotals>;

export const SPAN_LENGTHS = [2, 4, 8, 16, 32, 64, 128, 256] as const;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` day. */
export function dayNumber(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
}

function dayText(number: number): string {
  return new Date(number * DAY_MS).toISOString().slice(0, 10);
}

/** The first day of the span of `length` days that holds `day`. */
export function spanStart(day: string, length: number): string {
  const number = dayNumber(day);
  return dayText(number - (number % length));
}

/** Where a range of days is read: whole spans of the rollup, and single days of the ledger. */
export interface RangePieces {
  spans: Array<{ length: number; firstDay: string }>;
  days: string[];
}

/**
 * `from`..`to` (both included) as the fewest aligned spans, longest first where they fit: at
 * most two of each length, and a single day (read from the ledger) only at either end.
 */
export function rangePieces(from: string, to: string): RangePieces {
  const pieces: RangePieces = { spans: [], days: [] };
  const last = dayNumber(to);
  for (let at = dayNumber(from); at <= last;) {
    let length = 1;
    for (const candidate of SPAN_LENGTHS)
      if (at % candidate === 0 && at + candidate - 1 <= last) length = candidate;
    if (length === 1) pieces.days.push(dayText(at));
    else pieces.spans.push({ length, firstDay: dayText(at) });
    at += length;
  }
  return pieces;
}

export type DailyModelIncrement = UsageTotals & { day: string; model: string };
export type SpanIncrement = UsageTotals & {
  length: number;
  firstDay: string;
  personId: string;
  keyId: string;
  model: string;
};

function totalsOf(increment: UsageTotals): UsageTotals {
  const totals = {} as UsageTotals;
  for (const field of USAGE_TOTAL_FIELDS) totals[field] = Math.round(increment[field]);
  return totals;
}

function addInto<Row extends UsageTotals>(rows: Map<string, Row>, name: string, row: Row) {
  const sum = rows.get(name);
  if (!sum) rows.set(name, row);
  else for (const field of USAGE_TOTAL_FIELDS) sum[field] += row[field];
}

/** A map's rows in the order of their names (JavaScript's, the same for every writer). */
function inOrder<Row>(rows: Map<string, Row>): Row[] {
  return [...rows.keys()].sort().map((name) => rows.get(name)!);
}

/**
 * Increments of the ledger and of the rollups, one per row they add to (an upsert statement
 * may touch a row once: increments of several workspaces or days that meet in one rollup row,
 * or of one ledger row, are added up here first), each list in the order of the rows'
 * identities, so writers that race lock rows in one order (PostgreSQL would otherwise find
 * two of them waiting on each other and fail one).
 */
export function rowIncrements(increments: readonly UsageIncrement[]): {
  ledger: UsageIncrement[];
  dailyModels: DailyModelIncrement[];
  spans: SpanIncrement[];
} {
  const ledger = new Map<string, UsageIncrement>();
  const dailyModels = new Map<string, DailyModelIncrement>();
  const spans = new Map<string, SpanIncrement>();
  for (const increment of increments) {
    const { day, ownerId, personId, keyId, model } = increment;
    addInto(ledger, [day, ownerId, personId, keyId, model].join("\n"), {
      day,
      ownerId,
      personId,
      keyId,
      model,
      ...totalsOf(increment),
    });
    addInto(dailyModels, `${day}\n${model}`, { day, model, ...totalsOf(increment) });
    for (const length of SPAN_LENGTHS) {
      const firstDay = spanStart(day, length);
      addInto(spans, [length, firstDay, personId, keyId, model].join("\n"), {
        length,
        firstDay,
        personId,
        keyId,
        model,
        ...totalsOf(increment),
      });
    }
  }
  return {
    ledger: inOrder(ledger),
    dailyModels: inOrder(dailyModels),
    spans: inOrder(spans),
  };
}
