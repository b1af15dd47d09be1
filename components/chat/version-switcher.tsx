"use client";

import { Button } from "@/components/ui/button";
import { useChatActions } from "@/lib/hooks/use-chat-actions";

export interface VersionSwitcherProps {
  /** 1-based position of the message shown among its versions. */
  index: number;
  count: number;
  previousId?: string;
  nextId?: string;
  disabled?: boolean;
  /** What the versions are of, for screen readers ("answer", "message"). */
  subject: string;
  onSwitch(messageId: string, direction: "previous" | "next"): void;
}

/**
 * "‹ 2 / 3 ›" under a message that has other versions (an edited prompt, a regenerated
 * answer). Plain buttons, so Tab reaches them and Enter or Space switches.
 */
export function VersionSwitcher({
  index,
  count,
  previousId,
  nextId,
  disabled,
  subject,
  onSwitch,
}: VersionSwitcherProps) {
  if (count < 2) return null;
  return (
    <div
      role="group"
      aria-label={`Versions of this ${subject}`}
      className="flex items-center gap-0.5 text-xs text-zinc-600 dark:text-zinc-400"
      data-versions=""
    >
      <Button
        size="sm"
        variant="ghost"
        aria-label="Previous version"
        disabled={disabled || !previousId}
        onClick={() => previousId && onSwitch(previousId, "previous")}
      >
        ‹
      </Button>
      <span className="tabular-nums" data-version-position="">
        {index} / {count}
      </span>
      <Button
        size="sm"
        variant="ghost"
        aria-label="Next version"
        disabled={disabled || !nextId}
        onClick={() => nextId && onSwitch(nextId, "next")}
      >
        ›
      </Button>
    </div>
  );
}

/**
 * After a switch the row is a new element: focus its matching control (or the other one, at
 * either end) so the keyboard stays put. The row appears after React's next commit, so this
 * looks for it over a few frames.
 */
export function focusVersionControl(messageId: string, direction: "previous" | "next"): void {
  const label = direction === "previous" ? "Previous version" : "Next version";
  let frames = 0;
  const attempt = () => {
    const row = document.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
    const target =
      row?.querySelector<HTMLButtonElement>(
        `[data-versions] button[aria-label="${label}"]:not(:disabled)`,
      ) ?? row?.querySelector<HTMLButtonElement>("[data-versions] button:not(:disabled)");
    if (target) target.focus();
    else if (++frames < 30) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/** Where a message stands among its versions, as a message row receives it. */
export interface VersionProps {
  versionIndex: number;
  versionCount: number;
  previousVersionId?: string;
  nextVersionId?: string;
}

/** Switches to another version of a message and keeps the focus on the switcher. */
export function useSwitchVersion(conversationId: string) {
  const actions = useChatActions();
  return (messageId: string, direction: "previous" | "next") => {
    actions.switchVersion(conversationId, messageId);
    focusVersionControl(messageId, direction);
  };
}
