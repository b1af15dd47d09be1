import "server-only";
import type { OwnedKind, OwnershipStore } from "@/lib/db/stores/ownership-store";
import { ApiError } from "@/lib/gemini/api-error";
import {
  batchNotFound,
  cachedContentDenied,
  fileDenied,
  fileSearchStoreDenied,
} from "@/lib/gemini/resource-errors";
import { interactionNotFound } from "@/lib/gemini/interactions/errors";

/**
 * Who created which file, cached content, batch, file search store and interaction through the gateway (lib/db/stores/ownership-store):
 * anything not recorded is nobody's, so it is refused exactly like a resource that does not
 * exist.
 */

export type { OwnedKind };

export function ownershipDenied(kind: OwnedKind, name: string): ApiError {
  if (kind === "batch") return batchNotFound(name);
  if (kind === "interaction") return interactionNotFound(name.replace(/^interactions\//, ""));
  if (kind === "fileSearchStore") return fileSearchStoreDenied();
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
