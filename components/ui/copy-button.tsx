"use client";

import { useState } from "react";
import { Button } from "./button";

/** Copies text to the clipboard and says so for a moment (announced to screen readers). */
export function CopyButton({
  text,
  label = "Copy",
  className = "",
}: {
  text: string | (() => string);
  label?: string;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(typeof text === "function" ? text() : text);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 1500);
  }
  return (
    <Button size="sm" variant="ghost" onClick={copy} aria-label={label} className={className}>
      <span aria-live="polite">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
      </span>
    </Button>
  );
}
