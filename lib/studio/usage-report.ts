/**
 * The Usage page's report as `GET /api/usage` answers it, shared by the page and the server:
 * totals of a range of UTC days, by day (every day of the range, zeros included), by model,
 * by key and by person; costs in US dollars by the price table. `scope` says whose usage it
 * is: "everyone" (an admin, or the one person of the single-person modes) or "own".
 */

export interface UsageAmounts {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
  thoughtTokens: number;
  totalTokens: number;
  /** US dollars. */
  cost: number;
}

export interface UsageReport {
  from: string;
  to: string;
  scope: "everyone" | "own";
  filters: { model?: string; keyId?: string; personId?: string };
  total: UsageAmounts;
  byDay: Array<UsageAmounts & { day: string }>;
  byModel: Array<UsageAmounts & { model: string }>;
  /** `keyId` '' is the studio's pages (a browser session); `label` names the key as people know it. */
  byKey: Array<UsageAmounts & { keyId: string; label: string; personId: string }>;
  /** `personId` '' is usage no person made (STUDIO_API_KEYS, the single-person modes). */
  byPerson: Array<UsageAmounts & { personId: string; label: string }>;
}

/** Longest range of days one report or export covers. */
export const MAX_USAGE_DAYS = 366;
/** Days a report covers when no range is asked for (today included). */
export const DEFAULT_USAGE_DAYS = 30;

/** `YYYY-MM-DD` of a UTC day `offset` days from `now`'s. */
export function utcDay(now: number, offset = 0): string {
  const date = new Date(now);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + offset))
    .toISOString()
    .slice(0, 10);
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (
    let time = Date.parse(`${from}T00:00:00Z`);
    time <= Date.parse(`${to}T00:00:00Z`) && days.length <= MAX_USAGE_DAYS;
    time += 86_400_000
  )
    days.push(new Date(time).toISOString().slice(0, 10));
  return days;
}
