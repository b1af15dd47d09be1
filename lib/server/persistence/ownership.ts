import "server-only";
import type { OwnedKind, OwnershipStore } from "@/lib/db/stores/ownership-store";
import { batchNotFound } from "@/lib/engine/batches/batch-service";
import { ApiError } from "@/lib/gemini/api-error";

/**
 * Who created which file, cached content and batch through the gateway (lib/db/stores/ownership-store):
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
  if (kind === "batch") return batchNotFound(name);
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
