import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { OriginOperationContext, PageQuery } from "@/lib/gemini/backend/contract";
import { fileNameOfUri } from "@/lib/gemini/references";
import type { File } from "@/lib/gemini/types";
import type { UpstreamResponse } from "./upstream-client";

/**
 * Names, times and files between the gateway and the upstream: the only paths ever sent
 * upstream, the upstream's expiries read on this server's clock, a file as the client sees it.
 */

export const API = "/v1beta";
/** Files live 48 hours upstream: the expiry of a file whose answer gives none. */
export const FILE_LIFETIME_MS = 48 * 3_600_000;

type Collection = "models" | "cachedContents" | "files" | "batches" | "fileSearchStores";

/** A name in each collection: its id the one segment after the collection's own. */
const NAME_PATTERNS = Object.fromEntries(
  (["models", "cachedContents", "files", "batches", "fileSearchStores"] as const).map(
    (collection) => [collection, new RegExp(`^${collection}/([A-Za-z0-9][A-Za-z0-9._-]*)$`)],
  ),
) as Record<Collection, RegExp>;

/** `models/x`, `cachedContents/x`, `files/x`, `batches/x`, `fileSearchStores/x`: the only names ever put in an upstream path. */
export function resourcePath(name: string, collection: Collection): string {
  const match = NAME_PATTERNS[collection].exec(name);
  if (!match) throw ApiError.invalidArgument(`Invalid resource name "${name.slice(0, 80)}".`);
  return `${API}/${collection}/${match[1]}`;
}

export function header(response: UpstreamResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Epoch ms of an upstream RFC 3339 time, or null when absent or unreadable. */
function upstreamTime(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

/**
 * When a resource the upstream just answered with ends, on this server's clock: the time left
 * is read in the upstream's own clock (its expiry less the answer's `updateTime`, the upstream's
 * "now" of that answer), so a clock that differs between the two never ends a record early or
 * late. Null when the answer gives no expiry.
 */
export function upstreamDeadline(expiry: unknown, answeredAt: unknown): number | null {
  const end = upstreamTime(expiry);
  if (end === null) return null;
  const reference = upstreamTime(answeredAt);
  return reference === null ? end : Date.now() + Math.max(0, end - reference);
}

export function pageQuery(query: PageQuery): Record<string, string | undefined> {
  return {
    pageSize: query.pageSize === undefined ? undefined : String(query.pageSize),
    pageToken: query.pageToken,
  };
}

/** A file as the client sees it: its `uri` on the studio, like the local engine's. */
export function clientFile(file: File, context: OriginOperationContext): File {
  const name = typeof file.name === "string" ? fileNameOfUri(file.name) : null;
  if (name === null) return file;
  const local: File = { ...file, uri: `${context.origin}/v1beta/${name}` };
  if (file.downloadUri !== undefined)
    local.downloadUri = `${context.origin}/download/v1beta/${name}:download?alt=media`;
  return local;
}
