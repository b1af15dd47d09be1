"use client";

import { useId, type ReactNode } from "react";

/** A visible short label whose accessible name also says which node it belongs to. */
export function LabelledControl({
  label,
  of,
  className = "",
  children,
}: {
  label: string;
  of: string;
  className?: string;
  children(id: string): ReactNode;
}) {
  const id = useId();
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        {label}
        <span className="sr-only"> ({of})</span>
      </label>
      {children(id)}
    </div>
  );
}
