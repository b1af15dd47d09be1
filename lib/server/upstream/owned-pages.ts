import "server-only";
import { ApiError } from "@/lib/gemini/api-error";

/**
 * Page tokens of lists filtered to one owner: where in the upstream's list the next page
 * starts (the upstream page token, or null for the first page, and how many of that page's
 * items were already looked at). Opaque to clients; tampering with one only moves the
 * window, since every item is still filtered by owner.
 */

export interface OwnedPagePosition {
  upstreamToken: string | null;
  skip: number;
}

const PREFIX = "g1.";

export function encodeOwnedPageToken(position: OwnedPagePosition): string {
  return (
    PREFIX +
    Buffer.from(JSON.stringify([position.upstreamToken, position.skip])).toString("base64url")
  );
}

export function decodeOwnedPageToken(token: string): OwnedPagePosition {
  const invalid = () =>
    ApiError.invalidArgument("Invalid page token.", [
      { field: "page_token", description: "Invalid page token." },
    ]);
  if (!token.startsWith(PREFIX)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token.slice(PREFIX.length), "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [upstreamToken, skip] = value as unknown[];
  if (
    (upstreamToken !== null && typeof upstreamToken !== "string") ||
    !Number.isInteger(skip) ||
    (skip as number) < 0
  )
    throw invalid();
  return { upstreamToken: upstreamToken as string | null, skip: skip as number };
}
