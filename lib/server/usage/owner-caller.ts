import "server-only";
import type { Caller } from "@/lib/gemini/backend/contract";

/**
 * The caller usage is recorded for when only a workspace is known (a batch's answers, given
 * long after the request that made it): the workspace, and its person when it is a person's
 * (`person:{id}`); no key.
 */
export function ownerCaller(ownerId: string): Caller {
  const personId = /^person:(.+)$/.exec(ownerId)?.[1];
  return personId ? { ownerId, person: { id: personId, role: "member" } } : { ownerId };
}
