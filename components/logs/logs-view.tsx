"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { useMemo, useState } from "react";
import { InspectorDialog } from "@/components/devtools/inspector-dialog";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { type ListColumn, ListTableHead } from "@/components/ui/list-table-head";
import {
  logQueryString,
  useRequestLog,
  useRequestLogs,
  type LogFilters,
} from "@/lib/hooks/use-request-logs";
import { loggedExchangeTrace } from "@/lib/studio/logged-exchange-trace";
import { LogSettingsSection } from "./log-settings-section";

const inputClassName =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";
const linkClassName =
  "rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";

/** One entry opened in the studio's inspector (its request, headers, events and timing). */
function OpenedEntry({ id, onClose }: { id: string; onClose(): void }) {
  const entry = useRequestLog(id);
  const opened = useMemo(
    () => (entry.data ? loggedExchangeTrace(entry.data.exchange, Date.parse(entry.data.at)) : null),
    [entry.data],
  );
  if (entry.isError)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        {entry.error.message}
      </p>
    );
  if (!opened) return null;
  return (
    <InspectorDialog
      open
      onClose={onClose}
      trace={opened.trace}
      message={{
        id,
        role: "model",
        content: { role: "model", parts: [] },
        ...(opened.usageMetadata ? { usageMetadata: opened.usageMetadata } : {}),
      }}
    />
  );
}

/**
 * The Logs page: what keys and people asked to have logged, entries newest first with
 * filters (model, status, key, person, time), each opened in the inspector, and the filtered
 * entries exported as JSONL (a replay cassette of recorded exchanges) or CSV.
 */
/** The log table's columns; the person's only when everyone's requests are listed. */
function logColumns(withPerson: boolean): ListColumn[] {
  return [
    { label: "Time" },
    { label: "Operation" },
    { label: "Model" },
    { label: "Status" },
    { label: "Time taken" },
    { label: "Tokens" },
    { label: "Key" },
    ...(withPerson ? [{ label: "Person" }] : []),
    { label: "Open", visuallyHidden: true },
  ];
}

export function LogsView() {
  const [filters, setFilters] = useState<LogFilters>({});
  const [opened, setOpened] = useState<string | null>(null);
  const logs = useRequestLogs(filters);
  const entries = logs.data?.pages.flatMap((page) => page.entries) ?? [];
  const scope = logs.data?.pages[0]?.scope;
  const set = (name: keyof LogFilters) => (value: string) =>
    setFilters((current) => ({ ...current, [name]: value || undefined }));

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4">
      <h1 className="text-lg font-semibold">Request logs</h1>
      <LogSettingsSection />
      <form
        className="flex flex-wrap items-end gap-3"
        aria-label="Filters"
        onSubmit={(event) => event.preventDefault()}
      >
        <Field label="Model">
          {(props) => (
            <input
              {...props}
              className={inputClassName}
              placeholder="gemini-2.5-flash"
              value={filters.model ?? ""}
              onChange={(event) => set("model")(event.target.value.trim())}
            />
          )}
        </Field>
        <Field label="Status">
          {(props) => (
            <select
              {...props}
              className={inputClassName}
              value={filters.status ?? ""}
              onChange={(event) => set("status")(event.target.value)}
            >
              <option value="">Any</option>
              <option value="2xx">2xx (answered)</option>
              <option value="4xx">4xx (refused)</option>
              <option value="5xx">5xx (failed)</option>
              <option value="429">429 (limits)</option>
            </select>
          )}
        </Field>
        <Field label="Key id">
          {(props) => (
            <input
              {...props}
              className={inputClassName}
              value={filters.keyId ?? ""}
              onChange={(event) => set("keyId")(event.target.value.trim())}
            />
          )}
        </Field>
        <Field label="From">
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              className={inputClassName}
              value={filters.from ?? ""}
              onChange={(event) => set("from")(event.target.value)}
            />
          )}
        </Field>
        <Field label="To">
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              className={inputClassName}
              value={filters.to ?? ""}
              onChange={(event) => set("to")(event.target.value)}
            />
          )}
        </Field>
        <Button onClick={() => setFilters({})}>Clear filters</Button>
        <a
          className={linkClassName}
          download
          href={`/api/logs/export${logQueryString(filters, { format: "jsonl" })}`}
        >
          Export JSONL
        </a>
        <a
          className={linkClassName}
          download
          href={`/api/logs/export${logQueryString(filters, { format: "csv" })}`}
        >
          Export CSV
        </a>
      </form>
      {logs.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {logs.error.message}
        </p>
      )}
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {scope === "own" ? "Your requests." : scope === "everyone" ? "Everyone's requests." : ""}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm" aria-label="Logged requests">
          <ListTableHead columns={logColumns(scope === "everyone")} />
          <tbody>
            {entries.map((entry) => (
              <tr
                key={entry.id}
                className="border-t border-zinc-200 dark:border-zinc-800"
                data-log-entry={entry.id}
              >
                <td className="px-2 py-1 whitespace-nowrap tabular-nums">
                  {new Date(entry.at).toLocaleString("en")}
                </td>
                <td className="px-2 py-1">{entry.operation}</td>
                <td className="px-2 py-1">{entry.model || "—"}</td>
                <td
                  className={`px-2 py-1 tabular-nums ${entry.status >= 400 ? "text-red-700 dark:text-red-400" : ""}`}
                  data-log-status=""
                >
                  {entry.status}
                </td>
                <td className="px-2 py-1 tabular-nums">{formatNumber(entry.durationMs)} ms</td>
                <td className="px-2 py-1 tabular-nums">{formatNumber(entry.totalTokens)}</td>
                <td className="px-2 py-1">{entry.keyLabel}</td>
                {scope === "everyone" && <td className="px-2 py-1">{entry.personLabel}</td>}
                <td className="px-2 py-1">
                  <Button
                    size="sm"
                    onClick={() => setOpened(entry.id)}
                    aria-label={`Inspect the ${entry.operation} request of ${new Date(entry.at).toLocaleString("en")}`}
                  >
                    Inspect
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {logs.data && entries.length === 0 && (
          <p className="p-2 text-sm">No logged requests match.</p>
        )}
      </div>
      {logs.hasNextPage && (
        <Button onClick={() => void logs.fetchNextPage()} disabled={logs.isFetchingNextPage}>
          Older entries
        </Button>
      )}
      {opened && <OpenedEntry id={opened} onClose={() => setOpened(null)} />}
    </div>
  );
}
