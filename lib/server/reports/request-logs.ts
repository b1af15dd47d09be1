import "server-only";
import type {
  RequestLogEntry,
  RequestLogFilter,
  StoredRequestLog,
} from "@/lib/db/stores/request-log-store";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { NANODOLLARS_PER_DOLLAR } from "@/lib/studio/key-limits";
import { personOwnerId } from "@/lib/studio/people";
import type {
  LogSettingsView,
  Logging,
  LoggedExchange,
  RequestLogDetail,
  RequestLogPage,
  RequestLogView,
} from "@/lib/studio/request-logs";
import { forgetIdentities } from "../auth/identity-cache";
import { recordAudit } from "../audit/audit-log";
import { readFilters } from "../http/query-filters";
import { dataStores } from "../persistence/database-handle";
import { keyLabels, personLabels, csvField } from "./usage-report";
import { personFilter, readScope } from "./usage-scope";

/**
 * Reading request logs within what the caller may read (usage-scope.ts: a member their own, an
 * admin and the single-person modes everyone's): pages of entries by filter, one entry's
 * exchange, exports as JSONL (each line a recorded exchange, so a log is a replay cassette) or
 * CSV. An entry another may not read is "not found" to them, never "forbidden". And the
 * logging keys and people ask for, changed from a signed-in browser and audited.
 */

const LOG_FILTERS = {
  model: { kind: "text", max: 200 },
  status: { kind: "text", max: 3 },
  from: { kind: "time" },
  to: { kind: "time" },
  keyId: { kind: "text", max: 100 },
  personId: { kind: "text", max: 100 },
  before: { kind: "text", max: 200 },
  limit: { kind: "integer", min: 1, max: 500 },
  format: { kind: "choice", values: ["jsonl", "csv"] },
} as const;

const EXPORT_PAGE = 200;

function badFilter(field: string, description: string): ApiError {
  return ApiError.invalidArgument(`Invalid value for ${field}: ${description}.`, [
    { field, description },
  ]);
}

/** `200`, or a class `2xx` / `4xx` / `5xx`. */
function statusFilter(value: string | undefined): Pick<RequestLogFilter, "status" | "statusClass"> {
  if (value === undefined) return {};
  const exact = /^[1-5]\d\d$/.exec(value);
  if (exact) return { status: Number(value) };
  const range = /^([1-5])xx$/i.exec(value);
  if (range) return { status: Number(range[1]) * 100, statusClass: true };
  throw badFilter("status", "an HTTP status (429) or a class (2xx, 4xx, 5xx)");
}

/** `{at}.{id}` of the last entry of a page. */
function cursorOf(entry: RequestLogEntry): string {
  return `${entry.at}.${entry.id}`;
}

function readCursor(value: string | undefined): RequestLogFilter["before"] {
  if (value === undefined) return undefined;
  const match = /^(\d{1,15})\.([\w-]{1,100})$/.exec(value);
  if (!match) throw badFilter("before", "the nextBefore of the page before");
  return { at: Number(match[1]), id: match[2]! };
}

export function logQuery(caller: Caller, url: URL, defaultLimit = 50) {
  const scope = readScope(caller);
  const filters = readFilters(url, LOG_FILTERS);
  if (filters.from !== undefined && filters.to !== undefined && filters.from > filters.to)
    throw badFilter("from", "a time on or before to");
  const personId = personFilter(scope, filters.personId);
  const filter: RequestLogFilter = {
    ...(personId !== undefined ? { personId } : {}),
    ...(filters.keyId !== undefined ? { keyId: filters.keyId } : {}),
    ...(filters.model !== undefined ? { model: filters.model.replace(/^models\//, "") } : {}),
    ...statusFilter(filters.status),
    ...(filters.from !== undefined ? { from: filters.from } : {}),
    ...(filters.to !== undefined ? { to: filters.to } : {}),
    ...(filters.before !== undefined ? { before: readCursor(filters.before) } : {}),
    limit: filters.limit ?? defaultLimit,
  };
  return { scope, filter, format: filters.format ?? "jsonl" };
}

async function views(entries: RequestLogEntry[]): Promise<RequestLogView[]> {
  const [keys, people] = await Promise.all([
    keyLabels(entries.map((entry) => entry.keyId)),
    personLabels(),
  ]);
  return entries.map((entry) => ({
    id: entry.id,
    at: new Date(entry.at).toISOString(),
    operation: entry.operation,
    model: entry.model,
    status: entry.status,
    durationMs: entry.durationMs,
    totalTokens: entry.totalTokens,
    cost: entry.nanodollars / NANODOLLARS_PER_DOLLAR,
    keyId: entry.keyId,
    keyLabel: keys.get(entry.keyId) ?? entry.keyId,
    personId: entry.personId,
    personLabel: people.get(entry.personId) ?? entry.personId,
    expiresAt: new Date(entry.expiresAt).toISOString(),
  }));
}

export async function listLogs(caller: Caller, url: URL): Promise<RequestLogPage> {
  const { scope, filter } = logQuery(caller, url);
  const entries = await (await dataStores()).requestLogs.list(filter);
  return {
    entries: await views(entries),
    ...(entries.length === filter.limit
      ? { nextBefore: cursorOf(entries[entries.length - 1]!) }
      : {}),
    scope: scope.everyone ? "everyone" : "own",
  };
}

export async function readLog(caller: Caller, id: string): Promise<RequestLogDetail> {
  const scope = readScope(caller);
  const entry = id.length <= 100 ? await (await dataStores()).requestLogs.get(id) : null;
  if (entry === null || (!scope.everyone && entry.personId !== scope.personId))
    throw ApiError.notFound(`There is no request log entry ${id.slice(0, 100)}.`);
  const [view] = await views([entry]);
  return { ...view!, exchange: JSON.parse(entry.exchangeJson) as LoggedExchange };
}

const LOG_CSV_COLUMNS = [
  "time",
  "operation",
  "model",
  "status",
  "duration_ms",
  "total_tokens",
  "cost_usd",
  "key",
  "person",
  "method",
  "path",
  "request_body",
  "response_body",
];

function csvLine(view: RequestLogView, entry: StoredRequestLog): string {
  const exchange = JSON.parse(entry.exchangeJson) as LoggedExchange;
  return (
    [
      view.at,
      view.operation,
      view.model,
      view.status,
      view.durationMs,
      view.totalTokens,
      view.cost.toFixed(9),
      view.keyLabel,
      view.personLabel,
      exchange.method,
      exchange.path,
      exchange.requestBody === undefined ? "" : JSON.stringify(exchange.requestBody),
      exchange.responseBody,
    ]
      .map(csvField)
      .join(",") + "\r\n"
  );
}

/** The filter's entries, newest first, as JSONL (recorded exchanges) or CSV, a page at a time. */
export async function* exportLogs(caller: Caller, url: URL): AsyncGenerator<string> {
  const { filter, format } = logQuery(caller, url, EXPORT_PAGE);
  const { requestLogs } = await dataStores();
  if (format === "csv") yield LOG_CSV_COLUMNS.join(",") + "\r\n";
  let before = filter.before;
  for (;;) {
    const page = await requestLogs.listWithExchanges({ ...filter, before, limit: EXPORT_PAGE });
    if (page.length === 0) return;
    if (format === "jsonl") yield page.map((entry) => `${entry.exchangeJson}\n`).join("");
    else {
      const pageViews = await views(page);
      yield page.map((entry, index) => csvLine(pageViews[index]!, entry)).join("");
    }
    if (page.length < EXPORT_PAGE) return;
    const last = page[page.length - 1]!;
    before = { at: last.at, id: last.id };
  }
}

function assertBrowser(caller: Caller): void {
  if (caller.key)
    throw ApiError.permissionDenied("Logging is set from a signed-in browser, not with a key.");
}

function loggingOf(
  setting: { retentionDays: number; includeMedia: boolean } | null,
): Logging | null {
  return setting
    ? { retentionDays: setting.retentionDays, includeMedia: setting.includeMedia }
    : null;
}

export async function logSettings(caller: Caller): Promise<LogSettingsView> {
  assertBrowser(caller);
  const { apiKeys, requestLogs } = await dataStores();
  const keys = (await apiKeys.list(caller.ownerId)).filter((key) => key.revokedAt === null);
  return {
    ...(caller.person
      ? { person: loggingOf(await requestLogs.settings(`person:${caller.person.id}`)) }
      : {}),
    keys: await Promise.all(
      keys.map(async (key) => ({
        keyId: key.id,
        name: key.name,
        logging: loggingOf(await requestLogs.settings(`key:${key.id}`)),
      })),
    ),
  };
}

/**
 * Sets or clears the logging of `subject`: `person` (the caller), `key:{id}` (a live key of the
 * caller's workspace), `person:{id}` (an admin, for anyone). Every instance sees it at once.
 */
export async function changeLogSetting(
  caller: Caller,
  subject: string,
  logging: Logging | null,
): Promise<void> {
  assertBrowser(caller);
  const stores = await dataStores();
  let resolved: string;
  if (subject === "person") {
    if (!caller.person)
      throw badFilter("subject", "a key (key:{id}): the single-person modes have no person");
    resolved = `person:${caller.person.id}`;
  } else if (subject.startsWith("key:")) {
    const key = await stores.apiKeys.get(caller.ownerId, subject.slice(4));
    if (key === null || key.revokedAt !== null)
      throw ApiError.notFound(
        `There is no live API key ${subject.slice(4, 68)} in this workspace.`,
      );
    resolved = subject;
  } else if (subject.startsWith("person:")) {
    if (caller.person?.role !== "admin" && subject !== personOwnerId(caller.person?.id ?? ""))
      throw ApiError.permissionDenied("Only an admin sets another person's logging.");
    if ((await stores.people.get(subject.slice(7))) === null)
      throw ApiError.notFound(`There is no person ${subject.slice(7, 71)}.`);
    resolved = subject;
  } else {
    throw badFilter("subject", "person, key:{id} or person:{id}");
  }
  await stores.requestLogs.setSettings(resolved, logging);
  forgetIdentities();
  await recordAudit(caller, logging ? "logging.set" : "logging.clear", resolved, {
    ...(logging
      ? { retentionDays: logging.retentionDays, includeMedia: logging.includeMedia }
      : {}),
  });
}
