import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import { requestReferencesSteps, type ReferencingRequest } from "@/lib/gemini/references";
import { runInSlices } from "@/lib/engine/time-slices";
import { fileDenied } from "@/lib/gemini/resource-errors";
import { ownershipDenied } from "../persistence/ownership";
import type { NamedResource } from "./gone-resources";

/**
 * The gateway's check of a canonical request's references (every place lib/gemini/references
 * lists): each file and cached content named must belong to the caller, or the request is
 * refused with the service's 403 before anything goes upstream. File references are then
 * written in the upstream's own form, so what is forwarded is exactly what was checked.
 */

export interface ReferenceCheck {
  ownerId: string;
  ownership: OwnershipStore;
  /** The upstream's base URL: file references are forwarded as its file URIs. */
  upstreamBaseUrl: string;
}

function originOf(uri: string): string | null {
  try {
    return new URL(uri.trim()).origin;
  } catch {
    return null;
  }
}

/**
 * Checks every reference of `input.request` against the caller (their owners read in one
 * query) and writes file references for the upstream, in place. Throws the service's 403
 * for a reference the caller does not own, and for any other address on the upstream's own
 * origin (which only the upstream could interpret). Answers the resources named, so an
 * upstream answer saying one is gone can end its record.
 */
export async function checkReferences(
  input: ReferencingRequest,
  check: ReferenceCheck,
): Promise<NamedResource[]> {
  const upstreamOrigin = new URL(check.upstreamBaseUrl).origin;
  // In slices: a request of megabytes has a great many parts to look through (issue 14).
  const references = await runInSlices(requestReferencesSteps(input));
  const named: NamedResource[] = [];
  for (const reference of references) {
    if (reference.name !== null) named.push({ kind: reference.kind, name: reference.name });
    else if (originOf(reference.value) === upstreamOrigin)
      throw fileDenied(reference.value.slice(0, 200));
  }
  const owners = await check.ownership.ownersOf(named);
  for (const { kind, name } of named) {
    if (owners.get(`${kind}:${name}`) !== check.ownerId) throw ownershipDenied(kind, name);
  }
  for (const reference of references) {
    if (reference.kind === "file" && reference.name !== null)
      reference.replace(
        reference.spelling === "name"
          ? reference.name
          : `${check.upstreamBaseUrl}/v1beta/${reference.name}`,
      );
  }
  return named;
}
