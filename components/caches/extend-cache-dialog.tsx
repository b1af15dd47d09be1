"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { formatDateTime } from "@/components/files/expiry-countdown";
import { useUpdateCache } from "@/lib/hooks/use-caches";
import type { CachedContent } from "@/lib/gemini/types";
import { formatTimestamp } from "@/lib/gemini/wire-time";
import { ExpiryFields } from "./expiry-fields";
import {
  DEFAULT_EXPIRY,
  expiryFields,
  toLocalDateTimeValue,
  type ExpiryChoice,
} from "@/lib/studio/expiry-input";

/**
 * Changes a cache's expiration (the only field that can change): +1 hour or +1 day from its
 * current expiry, a new time to live from now, or an exact time. Service errors are shown as sent.
 * One dialog, kept whole: its reset on opening, the three ways to set the expiry and the refusal
 * share one state.
 */
export function ExtendCacheDialog({
  cache,
  onClose,
}: {
  cache: CachedContent | null;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const update = useUpdateCache();
  const [choice, setChoice] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [problem, setProblem] = useState<string | null>(null);
  const open = cache !== null;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      setChoice({
        ...DEFAULT_EXPIRY,
        localDateTime: toLocalDateTimeValue(Date.parse(cache.expireTime) + 3_600_000),
      });
      setProblem(null);
      update.reset();
    }
    if (!open && element.open) element.close();
    // Reset only when the dialog opens for a cache.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, cache?.name]);

  function apply(change: { ttl: string } | { expireTime: string }) {
    if (!cache) return;
    update.mutate({ name: cache.name, change }, { onSuccess: onClose });
  }

  function extendBy(milliseconds: number) {
    if (!cache) return;
    const from = Math.max(Date.parse(cache.expireTime), Date.now());
    apply({ expireTime: formatTimestamp(from + milliseconds) });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const fields = expiryFields(choice);
    if ("problem" in fields) {
      setProblem(fields.problem);
      return;
    }
    setProblem(null);
    apply(fields);
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      {cache && (
        <form onSubmit={submit} className="flex flex-col gap-3 p-4" aria-labelledby={titleId}>
          <h2 id={titleId} className="text-base font-semibold">
            Change the expiry of {cache.displayName || cache.name}
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Now expires {formatDateTime(cache.expireTime)}.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => extendBy(3_600_000)} disabled={update.isPending}>
              Extend by 1 hour
            </Button>
            <Button onClick={() => extendBy(86_400_000)} disabled={update.isPending}>
              Extend by 1 day
            </Button>
          </div>
          <ExpiryFields value={choice} onChange={setChoice} problem={problem} />
          {update.isError && (
            <p
              role="alert"
              className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950/50 dark:text-red-200"
            >
              The service refused the change: {update.error.message}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={update.isPending}>
              {update.isPending ? "Saving…" : "Set expiry"}
            </Button>
          </div>
        </form>
      )}
    </dialog>
  );
}
