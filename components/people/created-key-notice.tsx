"use client";

import { CopyButton } from "@/components/ui/copy-button";

/** A new key's secret, shown this once. */
export function CreatedKeyNotice({ name, secret }: { name: string; secret: string }) {
  return (
    <div
      role="status"
      className="flex flex-col gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-100"
    >
      <p>
        Your new key <strong>{name}</strong>. Copy it now: this is the only time it is shown.
      </p>
      <div className="flex items-center gap-2">
        <code
          data-testid="new-key-secret"
          className="break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-zinc-900"
        >
          {secret}
        </code>
        <CopyButton text={secret} label={`Copy the key ${name}`} />
      </div>
    </div>
  );
}
