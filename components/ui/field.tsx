"use client";

import { useId, type ReactNode } from "react";

export interface FieldProps {
  label: string;
  hint?: ReactNode;
  errors?: readonly string[];
  children(props: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean }): ReactNode;
}

/** A labelled form control with an optional hint and inline errors tied to it for assistive tech. */
export function Field({ label, hint, errors, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint ? hintId : null, errors?.length ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      {children({
        id,
        "aria-describedby": describedBy,
        "aria-invalid": errors?.length ? true : undefined,
      })}
      {hint && (
        <p id={hintId} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {errors?.length ? (
        <ul id={errorId} className="text-xs text-red-700 dark:text-red-400" data-field-error="">
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export const inputClassName =
  "w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 aria-[invalid=true]:border-red-600 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100 dark:aria-[invalid=true]:border-red-500";
