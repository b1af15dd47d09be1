"use client";

import { useId } from "react";
import { useSession, useSwitchWorkspace } from "@/lib/hooks/use-session";
import { useWorkspaces } from "@/lib/hooks/use-people";

/** An admin chooses whose workspace this browser acts on: a person's, the shared one, a key's. */
export function WorkspaceSwitcher() {
  const session = useSession();
  const workspaces = useWorkspaces(session.data?.person?.role === "admin");
  const switchWorkspace = useSwitchWorkspace();
  const id = useId();
  const current = session.data?.workspace;
  const own = session.data?.person ? `person:${session.data.person.id}` : "";
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-2">
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        Workspace
      </h2>
      <label className="flex max-w-md flex-col gap-1 text-xs font-medium" htmlFor={id}>
        Act on the chats, files, caches and keys of
        <select
          id={id}
          className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700"
          value={current?.ownerId ?? own}
          disabled={switchWorkspace.isPending || !workspaces.data}
          onChange={(event) =>
            switchWorkspace.mutate(event.target.value === own ? null : event.target.value)
          }
        >
          {workspaces.data?.map((workspace) => (
            <option key={workspace.ownerId} value={workspace.ownerId}>
              {workspace.ownerId === own ? `${workspace.label} (yours)` : workspace.label}
            </option>
          ))}
        </select>
      </label>
      {switchWorkspace.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {switchWorkspace.error.message}
        </p>
      )}
    </section>
  );
}
