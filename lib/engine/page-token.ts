/**
 * Opaque page tokens for the local engine's lists. A token carries the position of the
 * next page and a fingerprint of the list call's other parameters, so a token used with
 * different parameters is refused, as the spec requires.
 */
import { ApiError } from "@/lib/gemini/api-error";

interface TokenPayload {
  /** Position of the next page: an offset or the last key seen. */
  p: string | number;
  /** Fingerprint of the call's other parameters. */
  s: string;
}

function fingerprint(scope: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < scope.length; index++) {
    hash ^= scope.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

export function encodePageToken(position: string | number, scope: string): string {
  const payload: TokenPayload = { p: position, s: fingerprint(scope) };
  return Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
}

/** The position a token carries; 400 when it is malformed or was made for other parameters. */
export function decodePageToken(token: string, scope: string): string | number {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw invalidToken();
  }
  if (typeof payload !== "object" || payload === null) throw invalidToken();
  const { p, s } = payload as Partial<TokenPayload>;
  if ((typeof p !== "string" && typeof p !== "number") || typeof s !== "string")
    throw invalidToken();
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

function invalidToken(): ApiError {
  return ApiError.invalidArgument("Invalid page_token.", [
    { field: "page_token", description: "is not a token returned by a previous list call" },
  ]);
}

/** Slices an in-memory list by offset tokens; omits nextPageToken on the last page. */
export function pageByOffset<T>(
  items: readonly T[],
  pageSize: number,
  pageToken: string | undefined,
  scope: string,
): { items: T[]; nextPageToken?: string } {
  const start = pageToken ? Number(decodePageToken(pageToken, scope)) : 0;
  if (!Number.isInteger(start) || start < 0 || start > items.length) throw invalidToken();
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length
    ? { items: page, nextPageToken: encodePageToken(end, scope) }
    : { items: page };
}
