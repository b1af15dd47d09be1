import "server-only";
import type { OwnedKind } from "@/lib/db/stores/ownership-store";
import { UpstreamError } from "./upstream-errors";

/**
 * How the upstream says that a file, cached content or batch the gateway created no longer
 * exists (deleted outside the gateway, expired early): 404 NOT_FOUND, or the service's 403
 * for a file or cache "missing, expired or not yours" (api-notes.md, errors). The gateway
 * made the resource with its own key, so for it the 403 can only mean missing. Such an
 * answer ends the ownership record, so a name the upstream hands out again is free for its
 * next creator and never resolves to a previous one.
 */

export interface NamedResource {
  kind: OwnedKind;
  name: string;
}

const CACHE_GONE = "CachedContent not found (or permission denied)";
/** `You do not have permission to access the File <id> or it may not exist.` */
const FILE_GONE =
  /^You do not have permission to access the File ([a-z0-9-]{1,64}) or it may not exist\.$/;

/** The upstream answered (not a transport or gateway failure) with this status. */
function upstreamStatus(error: unknown): number | null {
  return error instanceof UpstreamError && error.failure === "status" ? error.httpStatus : null;
}

/** True when `error`, answered to an operation on `resource` itself (get, update, delete), says it is gone. */
export function saysGone(error: unknown, resource: NamedResource): boolean {
  const status = upstreamStatus(error);
  if (status === 404) return true;
  if (status !== 403) return false;
  const message = (error as UpstreamError).message;
  if (resource.kind === "cachedContent") return message === CACHE_GONE;
  if (resource.kind === "file")
    return FILE_GONE.exec(message)?.[1] === resource.name.slice("files/".length);
  return false;
}

/**
 * The resources among those a request referred to (`named`) that `error` says are gone. A
 * 404 to a generation names a model, not these; the file answer names its file; the cache
 * answer names none, so it is taken only when the request named one cache.
 */
export function goneReferences(error: unknown, named: readonly NamedResource[]): NamedResource[] {
  if (upstreamStatus(error) !== 403) return [];
  const message = (error as UpstreamError).message;
  if (message === CACHE_GONE) {
    const caches = named.filter((item) => item.kind === "cachedContent");
    return new Set(caches.map((item) => item.name)).size === 1 ? [caches[0]!] : [];
  }
  const id = FILE_GONE.exec(message)?.[1];
  return id === undefined
    ? []
    : named.filter((item) => item.kind === "file" && item.name === `files/${id}`).slice(0, 1);
}
