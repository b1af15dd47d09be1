import "server-only";
import {
  ZERO_USAGE,
  type UsageFilter,
  type UsageRow,
  type UsageTotals,
} from "@/lib/db/stores/usage-store";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { NANODOLLARS_PER_DOLLAR } from "@/lib/studio/key-limits";
import {
  DEFAULT_USAGE_DAYS,
  MAX_USAGE_DAYS,
  daysBetween,
  utcDay,
  type UsageAmounts,
  type UsageReport,
} from "@/lib/studio/usage-report";
import { readFilters } from "../http/query-filters";
import { dataStores } from "../persistence/database-handle";
import { personFilter, readScope } from "./usage-scope";

/**
 * The Usage page's report and its CSV export, read from the ledger within what the caller may
 * read (usage-scope.ts): the query's filters checked once, keys and people named as the pages
 * know them. An export is written a page of ledger rows at a time, never held whole.
 */

const USAGE_FILTERS = {
  from: { kind: "day" },
  to: { kind: "day" },
  model: { kind: "text", max: 200 },
  keyId: { kind: "text", max: 100 },
  personId: { kind: "text", max: 100 },
} as const;

/** The ledger filter a query asks for, within the caller's scope. */
export function usageQuery(caller: Caller, url: URL, now = Date.now()) {
  const scope = readScope(caller);
  const filters = readFilters(url, USAGE_FILTERS);
  const to = filters.to ?? utcDay(now);
  const from = filters.from ?? utcDay(Date.parse(`${to}T00:00:00Z`), 1 - DEFAULT_USAGE_DAYS);
  if (from > to)
    throw ApiError.invalidArgument("Invalid value for from: it is after to.", [
      { field: "from", description: "a day on or before to" },
    ]);
  if (daysBetween(from, to).length > MAX_USAGE_DAYS)
    throw ApiError.invalidArgument(`Invalid value for from: at most ${MAX_USAGE_DAYS} days.`, [
      { field: "from", description: `at most ${MAX_USAGE_DAYS} days before to` },
    ]);
  const personId = personFilter(scope, filters.personId);
  const filter: UsageFilter = {
    from,
    to,
    ...(personId !== undefined ? { personId } : {}),
    ...(filters.keyId !== undefined ? { keyId: filters.keyId } : {}),
    ...(filters.model !== undefined ? { model: filters.model.replace(/^models\//, "") } : {}),
  };
  return { scope, filter, asked: filters };
}

function amounts(totals: UsageTotals): UsageAmounts {
  const { nanodollars, ...tokens } = totals;
  return { ...tokens, cost: nanodollars / NANODOLLARS_PER_DOLLAR };
}

/** How people know a key: its name, `(STUDIO_API_KEYS)` ones by theirs, a browser as the pages. */
export async function keyLabels(ids: Iterable<string>): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const managed = await (
    await dataStores()
  ).usage.keyNames(unique.filter((id) => id !== "" && !id.startsWith("env:")));
  const labels = new Map<string, string>();
  for (const id of unique) {
    if (id === "") labels.set(id, "Studio pages");
    else if (id.startsWith("env:")) labels.set(id, `${id.slice(4)} (STUDIO_API_KEYS)`);
    else {
      const key = managed.get(id);
      labels.set(id, key ? `${key.name}${key.revoked ? " (revoked)" : ""}` : `key ${id}`);
    }
  }
  return labels;
}

/** People by id as `Name <email>`; '' is usage no person made. */
export async function personLabels(): Promise<Map<string, string>> {
  const people = await (await dataStores()).people.list();
  const labels = new Map(people.map((person) => [person.id, `${person.name} <${person.email}>`]));
  labels.set("", "No person (STUDIO_API_KEYS, shared workspace)");
  return labels;
}

export async function usageReport(caller: Caller, url: URL): Promise<UsageReport> {
  const { scope, filter, asked } = usageQuery(caller, url);
  const summary = await (await dataStores()).usage.summary(filter);
  const [keys, people] = await Promise.all([
    keyLabels(summary.byKey.map((row) => row.keyId)),
    personLabels(),
  ]);
  const days = new Map(summary.byDay.map((row) => [row.day, row]));
  return {
    from: filter.from,
    to: filter.to,
    scope: scope.everyone ? "everyone" : "own",
    filters: {
      ...(asked.model !== undefined ? { model: asked.model } : {}),
      ...(asked.keyId !== undefined ? { keyId: asked.keyId } : {}),
      ...(asked.personId !== undefined ? { personId: asked.personId } : {}),
    },
    total: amounts(summary.total),
    byDay: daysBetween(filter.from, filter.to).map((day) => ({
      day,
      ...amounts(days.get(day) ?? ZERO_USAGE),
    })),
    byModel: summary.byModel.map(({ model, ...totals }) => ({ model, ...amounts(totals) })),
    byKey: summary.byKey.map(({ keyId, personId, ...totals }) => ({
      keyId,
      personId,
      label: keys.get(keyId) ?? keyId,
      ...amounts(totals),
    })),
    byPerson: summary.byPerson.map(({ personId, ...totals }) => ({
      personId,
      label: people.get(personId) ?? `person ${personId}`,
      ...amounts(totals),
    })),
  };
}

/** A CSV field: quoted when it must be, and never read as a formula by a spreadsheet. */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const USAGE_CSV_COLUMNS = [
  "day",
  "workspace",
  "person",
  "key",
  "key_id",
  "model",
  "requests",
  "prompt_tokens",
  "cached_tokens",
  "output_tokens",
  "thought_tokens",
  "total_tokens",
  "cost_usd",
];

/** The export's lines (header first), read from the ledger a page at a time. */
export async function* usageCsv(caller: Caller, url: URL): AsyncGenerator<string> {
  const { filter } = usageQuery(caller, url);
  const { usage } = await dataStores();
  const people = await personLabels();
  yield USAGE_CSV_COLUMNS.join(",") + "\r\n";
  let after: UsageRow | null = null;
  for (;;) {
    const rows: UsageRow[] = await usage.rows(filter, after);
    if (rows.length === 0) return;
    const keys = await keyLabels(rows.map((row) => row.keyId));
    yield rows
      .map(
        (row) =>
          [
            row.day,
            row.ownerId,
            people.get(row.personId) ?? row.personId,
            keys.get(row.keyId) ?? row.keyId,
            row.keyId,
            row.model,
            row.requests,
            row.promptTokens,
            row.cachedTokens,
            row.outputTokens,
            row.thoughtTokens,
            row.totalTokens,
            (row.nanodollars / NANODOLLARS_PER_DOLLAR).toFixed(9),
          ]
            .map(csvField)
            .join(",") + "\r\n",
      )
      .join("");
    after = rows[rows.length - 1]!;
  }
}
