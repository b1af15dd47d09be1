"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useChangePassword } from "@/lib/hooks/use-api-keys";

const INPUT =
  "rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700";

/** Changing one's own password; the account's other browsers are signed out. */
export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const change = useChangePassword();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const mismatch = again !== "" && again !== next;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (mismatch) return;
    change.mutate(
      { ...(hasPassword ? { currentPassword: current } : {}), newPassword: next },
      {
        onSuccess: () => {
          setCurrent("");
          setNext("");
          setAgain("");
        },
      },
    );
  }
  return (
    <section aria-labelledby="password-heading" className="flex flex-col gap-2">
      <h2 id="password-heading" className="text-base font-semibold">
        Password
      </h2>
      <form onSubmit={submit} aria-label="Change password" className="flex max-w-sm flex-col gap-2">
        {hasPassword && (
          <label className="flex flex-col gap-1 text-xs font-medium">
            Current password
            <input
              type="password"
              autoComplete="current-password"
              required
              className={INPUT}
              value={current}
              onChange={(event) => setCurrent(event.target.value)}
            />
          </label>
        )}
        <label className="flex flex-col gap-1 text-xs font-medium">
          New password (at least 12 characters)
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            className={INPUT}
            value={next}
            onChange={(event) => setNext(event.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium">
          New password again
          <input
            type="password"
            autoComplete="new-password"
            required
            className={INPUT}
            aria-invalid={mismatch || undefined}
            value={again}
            onChange={(event) => setAgain(event.target.value)}
          />
        </label>
        {mismatch && <p className="text-xs text-red-700 dark:text-red-400">The two differ.</p>}
        <div>
          <Button type="submit" variant="primary" disabled={change.isPending || mismatch}>
            Change password
          </Button>
        </div>
        {change.isSuccess && (
          <p role="status" className="text-sm">
            Password changed. Your other browsers are signed out.
          </p>
        )}
        {change.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {change.error.message}
          </p>
        )}
      </form>
    </section>
  );
}
