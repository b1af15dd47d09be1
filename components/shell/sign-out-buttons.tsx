"use client";

import { Button } from "@/components/ui/button";
import { useSession, useSignOut } from "@/lib/hooks/use-session";

/**
 * Sign out of this browser, or of every browser at once (a person's own; with the access code,
 * every browser, after the code may have been seen by someone else). Not shown under the
 * development default, where a new session opens by itself.
 */
export function SignOutButtons() {
  const session = useSession();
  const signOut = useSignOut();
  if (!session.data?.authenticated || session.data.signIn === "development") return null;
  const people = session.data.signIn === "people";
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
        title={
          people
            ? "End every browser session of your account, this one included"
            : "End every browser session of the studio, this one included"
        }
        onClick={() => {
          if (
            window.confirm(
              people
                ? "Sign out every browser signed in to your account?"
                : "Sign out every browser signed in to this studio?",
            )
          )
            signOut.mutate({ everywhere: true });
        }}
      >
        Sign out everywhere
      </Button>
    </>
  );
}
