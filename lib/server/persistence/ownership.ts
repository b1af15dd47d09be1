import "server-only";
import type { Db } from "@/lib/db/database";
import { ApiError } from "@/lib/gemini/api-error";

/**
 * Who created which file and cached content through the gateway. The upstream sees one
 * project (the server's key); this table is what keeps one studio key from listing, reading,
 * deleting or using another's resources. Anything not recorded here is nobody's, so it is
 * refused exactly like a resource that does not exist.
 */

export type OwnedKind = "file" | "cachedContent";

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

function denied(kind: OwnedKind, name: string): ApiError {
  return kind === "file" ? fileDenied(name) : cachedContentDenied();
}

/** Files live 48 hours upstream; a record older than that (plus slack) names nothing. */
const FILE_RECORD_LIFETIME_MS = 49 * 3_600_000;

export class OwnershipStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records that `ownerId` created `name`; idempotent. Forgets files that have expired by now. */
  record(kind: OwnedKind, name: string, ownerId: string): void {
    this.db
      .prepare("DELETE FROM resource_owners WHERE kind = 'file' AND created_at < ?")
      .run(this.now() - FILE_RECORD_LIFETIME_MS);
    this.db
      .prepare(
        "INSERT INTO resource_owners (kind, name, owner_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (kind, name) DO NOTHING",
      )
      .run(kind, name, ownerId, this.now());
  }

  ownerOf(kind: OwnedKind, name: string): string | null {
    const row = this.db
      .prepare("SELECT owner_id FROM resource_owners WHERE kind = ? AND name = ?")
      .get(kind, name) as { owner_id: string } | undefined;
    return row?.owner_id ?? null;
  }

  owns(kind: OwnedKind, name: string, ownerId: string): boolean {
    return this.ownerOf(kind, name) === ownerId;
  }

  /** Throws the service's 403 unless `ownerId` created `name`. */
  assertOwner(kind: OwnedKind, name: string, ownerId: string): void {
    if (!this.owns(kind, name, ownerId)) throw denied(kind, name);
  }

  forget(kind: OwnedKind, name: string): void {
    this.db.prepare("DELETE FROM resource_owners WHERE kind = ? AND name = ?").run(kind, name);
  }
}
