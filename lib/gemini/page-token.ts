/**
 * The one page-token codec of every list we answer (the local engine's files, caches and
 * models; the gateway's owner-filtered files and caches). A token is opaque to clients: it
 * carries the next page's position and a fingerprint of the list call's other parameters (its
 * scope: the list, the caller, the page size where positions depend on it), so a token used
 * with other parameters, or by another caller, is refused, as the spec requires.
 */
import { ApiError } from "./api-error";
import { hashString } from "./hash-string";
import { pageSizeWithin, type PageLimits } from "./page-limits";

interface TokenPayload {
  /** Position of the next page: an offset, the last key seen, or a list's own position. */
  p: unknown;
  /** Fingerprint of the call's other parameters. */
  s: string;
}

/** FNV-1a of the scope: short, and enough to tell two calls' parameters apart. */
function fingerprint(scope: string): string {
  return hashString(scope).toString(36);
}

export function invalidPageToken(): ApiError {
  return ApiError.invalidArgument("Invalid page_token.", [
    { field: "page_token", description: "is not a token returned by a previous list call" },
  ]);
}

export function encodePageToken(position: unknown, scope: string): string {
  const payload: TokenPayload = { p: position, s: fingerprint(scope) };
  return Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
}

/** The position a token carries; 400 when it is malformed or was made for other parameters. */
export function decodePageToken(token: string, scope: string): unknown {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw invalidPageToken();
  }
  if (typeof payload !== "object" || payload === null) throw invalidPageToken();
  const { p, s } = payload as Partial<TokenPayload>;
  if (p === undefined || typeof s !== "string") throw invalidPageToken();
  if (s !== fingerprint(scope)) {
    throw ApiError.invalidArgument(
      "Invalid page_token: the other list parameters must match the call that returned it.",
      [
        {
          field: "page_token",
          description: "must be used with the same other parameters as the call that returned it",
        },
      ],
    );
  }
  return p;
}

/** Where a keyset list (newest first) goes on: after the row created at `createTime` with `id`. */
export interface KeysetPosition {
  createTime: number;
  id: string;
}

export function encodeKeysetToken(position: KeysetPosition, scope: string): string {
  return encodePageToken(`${position.createTime}.${position.id}`, scope);
}

export function decodeKeysetToken(token: string, scope: string): KeysetPosition {
  const position = decodePageToken(token, scope);
  const match =
    typeof position === "string" ? /^(\d{1,16})\.([a-z0-9-]{1,64})$/.exec(position) : null;
  if (!match) throw invalidPageToken();
  return { createTime: Number(match[1]), id: match[2]! };
}

/** Slices an in-memory list by offset tokens; omits nextPageToken on the last page. */
export function pageByOffset<T>(
  items: readonly T[],
  pageSize: number,
  pageToken: string | undefined,
  scope: string,
): { items: T[]; nextPageToken?: string } {
  const start = pageToken ? Number(decodePageToken(pageToken, scope)) : 0;
  if (!Number.isInteger(start) || start < 0 || start > items.length) throw invalidPageToken();
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length
    ? { items: page, nextPageToken: encodePageToken(end, scope) }
    : { items: page };
}

/**
 * One page of a keyset list (newest first): the size within the list's limits, the token
 * bound to `scope` and the size, one row more than the page fetched to know whether another
 * page follows. `fetchRows(limit, after)` reads up to `limit` rows after the position.
 */
export async function keysetPage<Row extends KeysetPosition>(
  query: { pageSize?: number; pageToken?: string },
  limits: PageLimits,
  scope: string,
  fetchRows: (limit: number, after: KeysetPosition | null) => Promise<Row[]>,
): Promise<{ rows: Row[]; nextPageToken?: string }> {
  const pageSize = pageSizeWithin(query.pageSize, limits);
  const sizedScope = `${scope}:${pageSize}`;
  const after = query.pageToken ? decodeKeysetToken(query.pageToken, sizedScope) : null;
  const rows = await fetchRows(pageSize + 1, after);
  if (rows.length <= pageSize) return { rows };
  const page = rows.slice(0, pageSize);
  return { rows: page, nextPageToken: encodeKeysetToken(page[pageSize - 1]!, sizedScope) };
}
