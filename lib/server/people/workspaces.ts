import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import {
  personIdOfOwner,
  personOwnerId,
  type SessionState,
  type WorkspaceView,
} from "@/lib/studio/people";
import { serverEnv } from "../config/env";
import { dataStores } from "../persistence/database-handle";
import { BROWSER_OWNER_ID } from "../auth/sessions";
import { personById } from "../auth/identity-cache";

/**
 * Workspaces an admin may act on: every person's, the shared one of the access code (data left
 * from before people), and each STUDIO_API_KEYS key's. A switch is kept on the admin's session,
 * so every page and API call of that browser acts on the chosen workspace until switched back.
 */

export function assertAdmin(caller: Caller): void {
  if (caller.key || caller.person?.role !== "admin")
    throw ApiError.permissionDenied("Only an admin, signed in with a browser, may do this.");
}

export async function listWorkspaces(): Promise<WorkspaceView[]> {
  const people = await (await dataStores()).people.list();
  return [
    ...people.map((person) => ({
      ownerId: personOwnerId(person.id),
      label: `${person.name} <${person.email}>${person.disabledAt !== null ? " (disabled)" : ""}`,
      kind: "person" as const,
    })),
    { ownerId: BROWSER_OWNER_ID, label: "Shared workspace (access code)", kind: "shared" },
    ...serverEnv().studioKeys.map((key) => ({
      ownerId: `key:${key.name}`,
      label: `Key ${key.name} (STUDIO_API_KEYS)`,
      kind: "environment-key" as const,
    })),
  ];
}

/** The workspace a caller acts on, as the session state tells the pages. */
export async function workspaceOf(caller: Caller): Promise<SessionState["workspace"]> {
  const own = caller.person ? personOwnerId(caller.person.id) : caller.ownerId;
  if (caller.ownerId === own) return { ownerId: own, label: "Your workspace", own: true };
  const personId = personIdOfOwner(caller.ownerId);
  const person = personId === null ? null : await personById(personId);
  const label =
    person !== null
      ? `${person.name} <${person.email}>`
      : caller.ownerId === BROWSER_OWNER_ID
        ? "Shared workspace (access code)"
        : `Key ${caller.ownerId.slice("key:".length)} (STUDIO_API_KEYS)`;
  return { ownerId: caller.ownerId, label, own: false };
}

/** Checks a workspace an admin asks to switch to; null means their own. */
export async function checkedWorkspace(
  caller: Caller,
  ownerId: string | null,
): Promise<string | null> {
  assertAdmin(caller);
  if (ownerId === null || ownerId === personOwnerId(caller.person!.id)) return null;
  const known = (await listWorkspaces()).some((workspace) => workspace.ownerId === ownerId);
  if (!known) throw ApiError.notFound(`There is no workspace ${ownerId.slice(0, 100)}.`);
  return ownerId;
}
