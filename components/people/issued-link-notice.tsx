"use client";

import { CopyButton } from "@/components/ui/copy-button";
import type { IssuedLink } from "@/lib/hooks/use-people";

/** A link an admin just made, shown this once to pass on. */
export function IssuedLinkNotice({ issued }: { issued: IssuedLink }) {
  const what = issued.link.kind === "invitation" ? "Invitation" : "Password reset link";
  return (
    <div
      role="status"
      className="flex flex-col gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-100"
    >
      <p>
        {what} for <strong>{issued.link.email}</strong>, usable once until{" "}
        {issued.link.expiresAt.slice(0, 16).replace("T", " ")} UTC. Send it to them; it is not shown
        again.
      </p>
      <div className="flex items-center gap-2">
        <code
          data-testid="issued-link"
          className="break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-zinc-900"
        >
          {issued.url}
        </code>
        <CopyButton text={issued.url} label={`Copy the link for ${issued.link.email}`} />
      </div>
    </div>
  );
}
