"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useUsageReport, usageQueryString, type UsageFilters } from "@/lib/hooks/use-usage";
import { BreakdownBars, DailyChart, formatMeasure, type Measure } from "./usage-charts";

const inputClassName =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/**
 * The Usage page: tokens and cost per day, model, key and person over a range of days, with
 * filters and a CSV export of the same rows. A member sees their own usage; an admin (and the
 * single-person modes) everyone's, and may filter by person.
 */
export function UsageView() {
  const [filters, setFilters] = useState<UsageFilters>({});
  const [measure, setMeasure] = useState<Measure>("tokens");
  const report = useUsageReport(filters);
  const data = report.data;
  const set = (name: keyof UsageFilters) => (value: string) =>
    setFilters((current) => ({ ...current, [name]: value || undefined }));

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-lg font-semibold">Usage</h1>
        {data && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {data.scope === "everyone" ? "Everyone's usage" : "Your usage"}, {data.from} to{" "}
            {data.to} (UTC days)
          </p>
        )}
      </div>
      <form
        className="flex flex-wrap items-end gap-3"
        aria-label="Filters"
        onSubmit={(event) => event.preventDefault()}
      >
        <Field label="From">
          {(props) => (
            <input
              {...props}
              type="date"
              className={inputClassName}
              value={filters.from ?? data?.from ?? ""}
              onChange={(event) => set("from")(event.target.value)}
            />
          )}
        </Field>
        <Field label="To">
          {(props) => (
            <input
              {...props}
              type="date"
              className={inputClassName}
              value={filters.to ?? data?.to ?? ""}
              onChange={(event) => set("to")(event.target.value)}
            />
          )}
        </Field>
        <Field label="Model">
          {(props) => (
            <select
              {...props}
              className={inputClassName}
              value={filters.model ?? ""}
              onChange={(event) => set("model")(event.target.value)}
            >
              <option value="">All models</option>
              {(data?.byModel ?? []).map((row) => (
                <option key={row.model} value={row.model}>
                  {row.model}
                </option>
              ))}
              {filters.model && !data?.byModel.some((row) => row.model === filters.model) && (
                <option value={filters.model}>{filters.model}</option>
              )}
            </select>
          )}
        </Field>
        <Field label="Key">
          {(props) => (
            <select
              {...props}
              className={inputClassName}
              value={filters.keyId ?? ""}
              onChange={(event) => set("keyId")(event.target.value)}
            >
              <option value="">All keys and pages</option>
              {(data?.byKey ?? []).map((row) => (
                <option key={`${row.keyId}/${row.personId}`} value={row.keyId}>
                  {row.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {data?.scope === "everyone" && (
          <Field label="Person">
            {(props) => (
              <select
                {...props}
                className={inputClassName}
                value={filters.personId ?? ""}
                onChange={(event) => set("personId")(event.target.value)}
              >
                <option value="">Everyone</option>
                {data.byPerson.map((row) => (
                  <option key={row.personId} value={row.personId}>
                    {row.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field label="Show">
          {(props) => (
            <select
              {...props}
              className={inputClassName}
              value={measure}
              onChange={(event) => setMeasure(event.target.value as Measure)}
            >
              <option value="tokens">Tokens</option>
              <option value="cost">Cost (USD)</option>
            </select>
          )}
        </Field>
        <Button onClick={() => setFilters({})}>Clear filters</Button>
        <a
          href={`/api/usage/export${usageQueryString(filters)}`}
          download
          className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Export CSV
        </a>
      </form>
      {report.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {report.error.message}
        </p>
      )}
      {data && (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
            {[
              ["Answers", formatNumber(data.total.requests)],
              ["Tokens", formatNumber(data.total.totalTokens)],
              ["Cached tokens", formatNumber(data.total.cachedTokens)],
              ["Cost", formatMeasure(data.total.cost, "cost")],
            ].map(([term, value]) => (
              <div
                key={term}
                className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
              >
                <dt className="text-xs text-zinc-600 dark:text-zinc-400">{term}</dt>
                <dd className="text-lg font-semibold tabular-nums" data-usage-total={term}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <DailyChart days={data.byDay} measure={measure} />
          <div className="grid gap-6 md:grid-cols-2">
            <BreakdownBars
              title="By model"
              rows={data.byModel}
              label={(row) => row.model}
              measure={measure}
              testId="model"
            />
            <BreakdownBars
              title="By key"
              rows={data.byKey}
              label={(row) => row.label}
              measure={measure}
              testId="key"
            />
            {data.scope === "everyone" && (
              <BreakdownBars
                title="By person"
                rows={data.byPerson}
                label={(row) => row.label}
                measure={measure}
                testId="person"
              />
            )}
          </div>
        </>
      )}
    </div>
  );
}
