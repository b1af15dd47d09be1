"use client";

import { formatNumber } from "@/lib/studio/number-format";
import type { UsageAmounts } from "@/lib/studio/usage-report";

/**
 * The Usage page's charts, drawn as SVG and HTML (no chart library): a column per day and a bar
 * per model, key or person, of tokens or dollars. Each chart has a text equivalent: the day
 * chart a label with its total, the bars their values written beside them.
 */

export type Measure = "tokens" | "cost";

export function measureOf(amounts: UsageAmounts, measure: Measure): number {
  return measure === "tokens" ? amounts.totalTokens : amounts.cost;
}

export function formatMeasure(value: number, measure: Measure): string {
  if (measure === "tokens") return formatNumber(value);
  const digits = value >= 0.01 || value === 0 ? 2 : 6;
  return new Intl.NumberFormat("en", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

export function DailyChart({
  days,
  measure,
}: {
  days: Array<UsageAmounts & { day: string }>;
  measure: Measure;
}) {
  const values = days.map((day) => measureOf(day, measure));
  const top = Math.max(...values, 0);
  const total = values.reduce((sum, value) => sum + value, 0);
  const width = 720;
  const height = 160;
  const slot = width / Math.max(days.length, 1);
  return (
    <figure className="flex flex-col gap-1">
      <svg
        role="img"
        aria-label={`${measure === "tokens" ? "Tokens" : "Cost"} per day, ${days[0]?.day ?? ""} to ${days[days.length - 1]?.day ?? ""}: ${formatMeasure(total, measure)} in all`}
        viewBox={`0 0 ${width} ${height + 20}`}
        className="w-full"
        data-usage-chart="day"
      >
        <line
          x1={0}
          x2={width}
          y1={height}
          y2={height}
          className="stroke-zinc-300 dark:stroke-zinc-700"
        />
        {days.map((day, index) => {
          const value = values[index]!;
          const barHeight = top > 0 ? Math.max((value / top) * (height - 8), value > 0 ? 2 : 0) : 0;
          return (
            <rect
              key={day.day}
              x={index * slot + slot * 0.15}
              y={height - barHeight}
              width={slot * 0.7}
              height={barHeight}
              className="fill-blue-600 dark:fill-blue-400"
              data-day={day.day}
              data-value={value}
            >
              <title>{`${day.day}: ${formatMeasure(value, measure)}, ${formatNumber(day.requests)} answers`}</title>
            </rect>
          );
        })}
        <text x={0} y={height + 16} className="fill-zinc-600 text-[11px] dark:fill-zinc-400">
          {days[0]?.day}
        </text>
        <text
          x={width}
          y={height + 16}
          textAnchor="end"
          className="fill-zinc-600 text-[11px] dark:fill-zinc-400"
        >
          {days[days.length - 1]?.day}
        </text>
      </svg>
      <figcaption className="text-xs text-zinc-600 dark:text-zinc-400">
        Highest day: {formatMeasure(top, measure)}
      </figcaption>
    </figure>
  );
}

export function BreakdownBars<Row extends UsageAmounts>({
  title,
  rows,
  label,
  measure,
  testId,
}: {
  title: string;
  rows: Row[];
  label: (row: Row) => string;
  measure: Measure;
  testId: string;
}) {
  const top = Math.max(...rows.map((row) => measureOf(row, measure)), 0);
  return (
    <section aria-label={title} className="flex flex-col gap-2" data-usage-breakdown={testId}>
      <h2 className="text-sm font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No usage in this range.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {rows.slice(0, 20).map((row) => {
            const value = measureOf(row, measure);
            return (
              <li
                key={label(row)}
                className="grid grid-cols-[minmax(0,14rem)_1fr_auto] items-center gap-2 text-sm"
                data-usage-row={label(row)}
              >
                <span className="truncate" title={label(row)}>
                  {label(row)}
                </span>
                <span className="h-3 rounded-sm bg-zinc-100 dark:bg-zinc-800" aria-hidden="true">
                  <span
                    className="block h-3 rounded-sm bg-blue-600 dark:bg-blue-400"
                    style={{ width: `${top > 0 ? (value / top) * 100 : 0}%` }}
                  />
                </span>
                <span className="tabular-nums">{formatMeasure(value, measure)}</span>
              </li>
            );
          })}
        </ul>
      )}
      {rows.length > 20 && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          And {rows.length - 20} more: filter, or export the CSV.
        </p>
      )}
    </section>
  );
}
