"use client";

import { Button } from "@/components/ui/button";
import { useSession, useSwitchWorkspace } from "@/lib/hooks/use-session";

/** Says plainly when an admin's browser acts on someone else's workspace, with the way back. */
export function WorkspaceBanner() {
  const session = useSession();
  const switchWorkspace = useSwitchWorkspace();
  const workspace = session.data?.workspace;
  if (!workspace || workspace.own) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-2 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <span>
        Acting on the workspace of <strong>{workspace.label}</strong>: its chats, files, caches and
        keys.
      </span>
      <Button
        size="sm"
        onClick={() => switchWorkspace.mutate(null)}
        disabled={switchWorkspace.isPending}
      >
        Back to my workspace
      </Button>
    </div>
  );
}
