"use client";

import { useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { NativeModal } from "@/components/ui/dialog";
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
 * The change and its state are useExpiryChange, started afresh each time the dialog opens for a
 * cache; the form is ExpiryChangeForm.
 */
export function ExtendCacheDialog({
  cache,
  onClose,
}: {
  cache: CachedContent | null;
  onClose(): void;
}) {
  const titleId = useId();
  const change = useExpiryChange(cache, onClose);
  // The form starts afresh each time the dialog opens for a cache.
  useEffect(() => {
    if (cache) change.reset(cache);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cache?.name]);

  return (
    <NativeModal
      open={cache !== null}
      labelledBy={titleId}
      onCancel={onClose}
      widthClassName="w-[min(32rem,calc(100vw-2rem))]"
    >
      {cache && (
        <ExpiryChangeForm cache={cache} titleId={titleId} change={change} onClose={onClose} />
      )}
    </NativeModal>
  );
}

/**
 * A cache's new expiry: the choice in the form and why it cannot be used, the update sent, and
 * the three ways to send one (extend from the current expiry, or the form's time to live or time).
 */
function useExpiryChange(cache: CachedContent | null, onDone: () => void) {
  const update = useUpdateCache();
  const [choice, setChoice] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [problem, setProblem] = useState<string | null>(null);

  /** The form as it starts: an exact time an hour after the current expiry, no problem, no refusal. */
  function reset(opened: CachedContent) {
    setChoice({
      ...DEFAULT_EXPIRY,
      localDateTime: toLocalDateTimeValue(Date.parse(opened.expireTime) + 3_600_000),
    });
    setProblem(null);
    update.reset();
  }

  function apply(change: { ttl: string } | { expireTime: string }) {
    if (!cache) return;
    update.mutate({ name: cache.name, change }, { onSuccess: onDone });
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

  return { update, choice, setChoice, problem, reset, extendBy, submit };
}

/** The dialog's form: the cache's current expiry, the two extend buttons, the new expiry, the refusal. */
function ExpiryChangeForm({
  cache,
  titleId,
  change,
  onClose,
}: {
  cache: CachedContent;
  titleId: string;
  change: ReturnType<typeof useExpiryChange>;
  onClose(): void;
}) {
  const { update, extendBy } = change;
  return (
    <form onSubmit={change.submit} className="flex flex-col gap-3 p-4" aria-labelledby={titleId}>
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
      <ExpiryFields value={change.choice} onChange={change.setChoice} problem={change.problem} />
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
  );
}
