import "server-only";
import type { OwnedKind, OwnershipStore } from "@/lib/db/stores/ownership-store";
import { ApiError } from "@/lib/gemini/api-error";

/**
 * Who created which file and cached content through the gateway (lib/db/stores/ownership-store):
 * anything not recorded is nobody's, so it is refused exactly like a resource that does not
 * exist.
 */

export type { OwnedKind };

/** The service's answer for a cached content that is missing, expired or someone else's. */
export function cachedContentDenied(): ApiError {
  return ApiError.permissionDenied("CachedContent not found (or permission denied)");
}

/** The service's answer for a file that is missing, expired or someone else's. */
export function fileDenied(name: string): ApiError {
  const id = name.startsWith("files/") ? name.slice("files/".length) : name;
  return ApiError.permissionDenied(
    `You do not have permission to access the File ${id} or it may not exist.`,
  );
}

export function ownershipDenied(kind: OwnedKind, name: string): ApiError {
  return kind === "file" ? fileDenied(name) : cachedContentDenied();
}

/** Throws the service's 403 unless `ownerId` created `name`. */
export async function assertOwner(
  store: OwnershipStore,
  kind: OwnedKind,
  name: string,
  ownerId: string,
): Promise<void> {
  if (!(await store.owns(kind, name, ownerId))) throw ownershipDenied(kind, name);
}

/** A synchronous ownership check over owners looked up beforehand (one query per request). */
export interface OwnershipCheck {
  assertOwner(kind: OwnedKind, name: string, ownerId: string): void;
}

/**
 * Runs `walk` twice: once to learn every resource it names, then, with their owners read in
 * one query, to check them. `walk` is a synchronous reader of a request body.
 */
export async function withOwnersLoaded<T>(
  store: OwnershipStore,
  walk: (check: OwnershipCheck) => T,
): Promise<T> {
  const wanted: { kind: OwnedKind; name: string }[] = [];
  walk({ assertOwner: (kind, name) => void wanted.push({ kind, name }) });
  const owners = await store.ownersOf(wanted);
  return walk({
    assertOwner(kind, name, ownerId) {
      if (owners.get(`${kind}:${name}`) !== ownerId) throw ownershipDenied(kind, name);
    },
  });
}
