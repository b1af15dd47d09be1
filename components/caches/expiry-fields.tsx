"use client";

import { useId } from "react";
import { inputClassName } from "@/components/ui/field";
import type { ExpiryChoice, TtlUnit } from "@/lib/studio/expiry-input";

/** The two ways to say when a cache expires: a time to live from now, or a date and time. */
export function ExpiryFields({
  value,
  onChange,
  problem,
}: {
  value: ExpiryChoice;
  onChange(next: ExpiryChoice): void;
  problem: string | null;
}) {
  const id = useId();
  const problemId = `${id}-problem`;
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={problem ? problemId : undefined}>
      <legend className="text-xs font-medium text-zinc-700 dark:text-zinc-300">Expiration</legend>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label className="inline-flex items-center gap-1.5">
          <input
            type="radio"
            name={`${id}-mode`}
            checked={value.mode === "ttl"}
            onChange={() => onChange({ ...value, mode: "ttl" })}
          />
          Time to live
        </label>
        <input
          type="number"
          min="0"
          step="any"
          aria-label="Time to live amount"
          value={value.amount}
          onChange={(event) => onChange({ ...value, mode: "ttl", amount: event.target.value })}
          className={`${inputClassName} w-24`}
          aria-invalid={value.mode === "ttl" && problem ? true : undefined}
        />
        <select
          aria-label="Time to live unit"
          value={value.unit}
          onChange={(event) =>
            onChange({ ...value, mode: "ttl", unit: event.target.value as TtlUnit })
          }
          className={`${inputClassName} w-28`}
        >
          <option value="minutes">minutes</option>
          <option value="hours">hours</option>
          <option value="days">days</option>
        </select>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label className="inline-flex items-center gap-1.5">
          <input
            type="radio"
            name={`${id}-mode`}
            checked={value.mode === "expireTime"}
            onChange={() => onChange({ ...value, mode: "expireTime" })}
          />
          Expire at
        </label>
        <input
          type="datetime-local"
          aria-label="Expiry date and time"
          value={value.localDateTime}
          onChange={(event) =>
            onChange({ ...value, mode: "expireTime", localDateTime: event.target.value })
          }
          className={`${inputClassName} w-56`}
          aria-invalid={value.mode === "expireTime" && problem ? true : undefined}
        />
      </div>
      {problem && (
        <p id={problemId} className="text-xs text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
