"use client";

import type { KeyLimits } from "@/lib/studio/key-limits";

/** The limits form's text, field by field (empty: no limit). */
export interface LimitsDraft {
  models: string;
  requestsPerMinute: string;
  tokensPerDay: string;
  tokensPerMonth: string;
  dollarsPerDay: string;
  dollarsPerMonth: string;
}

const NUMERIC = [
  ["requestsPerMinute", "Requests per minute"],
  ["tokensPerDay", "Tokens per day"],
  ["tokensPerMonth", "Tokens per month"],
  ["dollarsPerDay", "Dollars per day"],
  ["dollarsPerMonth", "Dollars per month"],
] as const;

export function draftOf(limits: KeyLimits | null | undefined): LimitsDraft {
  const text = (value: number | null | undefined) => (value == null ? "" : String(value));
  return {
    models: limits?.models?.join(", ") ?? "",
    requestsPerMinute: text(limits?.requestsPerMinute),
    tokensPerDay: text(limits?.tokensPerDay),
    tokensPerMonth: text(limits?.tokensPerMonth),
    dollarsPerDay: text(limits?.dollarsPerDay),
    dollarsPerMonth: text(limits?.dollarsPerMonth),
  };
}

/** The limits a draft says (the server checks them again, and names any field it refuses). */
export function limitsOf(draft: LimitsDraft): KeyLimits {
  const number = (value: string) => (value.trim() === "" ? null : Number(value));
  const models = draft.models
    .split(/[\s,]+/)
    .map((model) => model.trim())
    .filter(Boolean);
  return {
    models: models.length > 0 ? models : null,
    requestsPerMinute: number(draft.requestsPerMinute),
    tokensPerDay: number(draft.tokensPerDay),
    tokensPerMonth: number(draft.tokensPerMonth),
    dollarsPerDay: number(draft.dollarsPerDay),
    dollarsPerMonth: number(draft.dollarsPerMonth),
  };
}

/** A one-line reading of limits, for tables. */
export function describeLimits(limits: KeyLimits | null | undefined): string {
  if (!limits) return "No limits";
  const parts = [
    limits.models ? `models ${limits.models.join(", ")}` : null,
    ...NUMERIC.map(([field, label]) =>
      limits[field] == null ? null : `${label.toLowerCase()} ${limits[field]}`,
    ),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join("; ") : "No limits";
}

const INPUT =
  "w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700";

/** The fields of a key's limits (or a person's allowance); empty fields mean no limit. */
export function KeyLimitsFields({
  draft,
  onChange,
  idPrefix,
}: {
  draft: LimitsDraft;
  onChange(draft: LimitsDraft): void;
  idPrefix: string;
}) {
  return (
    <div className="grid gap-2 sm:grid-cols-3">
      <label
        className="flex flex-col gap-1 text-xs font-medium sm:col-span-3"
        htmlFor={`${idPrefix}-models`}
      >
        Models (ids or prefixes ending in *, separated by commas; empty: any)
        <input
          id={`${idPrefix}-models`}
          className={INPUT}
          value={draft.models}
          placeholder="gemini-2.5-flash, gemini-2.5-*"
          onChange={(event) => onChange({ ...draft, models: event.target.value })}
        />
      </label>
      {NUMERIC.map(([field, label]) => (
        <label
          key={field}
          className="flex flex-col gap-1 text-xs font-medium"
          htmlFor={`${idPrefix}-${field}`}
        >
          {label}
          <input
            id={`${idPrefix}-${field}`}
            className={INPUT}
            type="number"
            min={0}
            step={field.startsWith("dollars") ? "0.01" : "1"}
            value={draft[field]}
            onChange={(event) => onChange({ ...draft, [field]: event.target.value })}
          />
        </label>
      ))}
    </div>
  );
}
