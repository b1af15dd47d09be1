"use client";

import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";

export interface TabsProps {
  label: string;
  items: { id: string; label: string }[];
  selected: string;
  onSelect(id: string): void;
  /** The selected tab's panel. */
  children: ReactNode;
}

/** Tabs with one panel (the selected one): arrow keys, Home and End move between tabs. */
export function Tabs({ label, items, selected, onSelect, children }: TabsProps) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = items.findIndex((item) => item.id === selected);
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % items.length
        : event.key === "ArrowLeft"
          ? (index - 1 + items.length) % items.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? items.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(items[next]!.id);
    list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  }
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        className="flex flex-wrap gap-1 border-b border-zinc-200 dark:border-zinc-800"
        onKeyDown={onKeyDown}
      >
        {items.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`${id}-tab-${item.id}`}
            aria-selected={item.id === selected}
            aria-controls={`${id}-panel`}
            tabIndex={item.id === selected ? 0 : -1}
            onClick={() => onSelect(item.id)}
            className={`-mb-px rounded-t-md border-b-2 px-3 py-1.5 text-sm ${item.id === selected ? "border-zinc-900 font-medium dark:border-zinc-100" : "border-transparent text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"}`}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${selected}`}
        className="min-w-0"
      >
        {children}
      </div>
    </div>
  );
}
