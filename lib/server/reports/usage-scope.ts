import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";

/**
 * Whose usage and request logs a caller may read: an admin's browser, everyone's; the browser
 * of the single-person modes (access code, development default: one person, the studio's
 * operator), everyone's; a member's browser, their own (their person id, whichever workspace
 * they acted in). A key reads none: these are read from a signed-in browser only. Every
 * reader of usage and logs asks here and nowhere else.
 */

export type ReadScope = { everyone: true } | { everyone: false; personId: string };

export function readScope(caller: Caller): ReadScope {
  if (caller.key)
    throw ApiError.permissionDenied(
      "Usage and request logs are read from a signed-in browser, not with a key.",
    );
  if (!caller.person || caller.person.role === "admin") return { everyone: true };
  return { everyone: false, personId: caller.person.id };
}

/**
 * The person filter a reader may use: anyone's (or none) for everyone's scope; for a member,
 * only their own, and theirs when none is asked for. Asking for another's is refused by name.
 */
export function personFilter(scope: ReadScope, asked: string | undefined): string | undefined {
  if (scope.everyone) return asked;
  if (asked !== undefined && asked !== scope.personId)
    throw new ApiError(403, "PERMISSION_DENIED", "You may read only your own usage and logs.", [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "NOT_YOURS",
        domain: "genstudio",
        metadata: { field: "personId" },
      },
    ]);
  return scope.personId;
}
