"use client";

import { useEffect, useSyncExternalStore } from "react";

/**
 * The colour scheme setting: System (follow the device, live), Light or Dark. Kept in
 * localStorage under `genstudio-theme` (absent = System), which the layout's start-up script
 * reads before first paint.
 */
export type ThemeChoice = "system" | "light" | "dark";

const STORAGE_KEY = "genstudio-theme";
const CHANGE_EVENT = "genstudio-theme-change";

function readChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

function systemPrefersDark(): boolean {
  return matchMedia("(prefers-color-scheme: dark)").matches;
}

function apply(choice: ThemeChoice): void {
  const dark = choice === "dark" || (choice === "system" && systemPrefersDark());
  document.documentElement.classList.toggle("dark", dark);
}

export function ThemeToggle() {
  const choice = useSyncExternalStore(subscribe, readChoice, () => "system" as ThemeChoice);
  // With System, a change of the device's scheme applies at once.
  useEffect(() => {
    apply(choice);
    if (choice !== "system") return;
    const query = matchMedia("(prefers-color-scheme: dark)");
    const follow = () => apply("system");
    query.addEventListener("change", follow);
    return () => query.removeEventListener("change", follow);
  }, [choice]);
  function choose(next: ThemeChoice) {
    try {
      if (next === "system") localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage refused (private mode): the choice holds for this page only.
    }
    apply(next);
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }
  return (
    <select
      aria-label="Theme"
      value={choice}
      onChange={(event) => choose(event.target.value as ThemeChoice)}
      className="rounded-md border border-zinc-300 bg-white px-1 py-1 text-xs text-zinc-700 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-300"
    >
      <option value="system">System theme</option>
      <option value="light">Light</option>
      <option value="dark">Dark</option>
    </select>
  );
}
