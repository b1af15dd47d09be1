"use client";

import { Button } from "@/components/ui/button";
import { useSession, useSignOut } from "@/lib/hooks/use-session";

/**
 * Sign out of this browser, or of every browser at once (after an access code may have been
 * seen by someone else). Shown only where signing in takes a code: under the development
 * default a new session opens by itself.
 */
export function SignOutButtons() {
  const session = useSession();
  const signOut = useSignOut();
  if (!session.data?.authenticated || !session.data.accessCodeRequired) return null;
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate({ everywhere: false })}
      >
        Sign out
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={signOut.isPending}
        title="End every browser session of the studio, this one included"
        onClick={() => {
          if (window.confirm("Sign out every browser signed in to this studio?"))
            signOut.mutate({ everywhere: true });
        }}
      >
        Sign out everywhere
      </Button>
    </>
  );
}
