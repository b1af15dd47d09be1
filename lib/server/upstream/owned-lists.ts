import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { OperationContext, PageQuery } from "@/lib/gemini/backend/contract";
import { PAGE_LIMITS, pageSizeWithin } from "@/lib/gemini/page-limits";
import { decodePageToken, encodePageToken, invalidPageToken } from "@/lib/gemini/page-token";
import type { UpstreamClient } from "./upstream-client";
import { API } from "./upstream-resources";

/**
 * Lists of the caller's own files, caches and batches: the upstream lists everyone's created
 * through the gateway's key, so its pages are read in order and filtered to the names recorded
 * for the caller, and the gateway's page token remembers where in them the next page starts.
 */

/** Upstream page sizes used while filtering lists down to one owner's items (the service's maxima). */
const UPSTREAM_PAGE = { file: 100, cachedContent: 1000, batch: 100, fileSearchStore: 20 } as const;
/** Upstream pages read for one list call before answering with what was found so far. */
const MAX_PAGES_PER_LIST = 20;

interface OwnedPagePosition {
  upstreamToken: string | null;
  skip: number;
}

function ownedPosition(value: unknown): OwnedPagePosition {
  if (!Array.isArray(value) || value.length !== 2) throw invalidPageToken();
  const [upstreamToken, skip] = value as unknown[];
  if (
    (upstreamToken !== null && typeof upstreamToken !== "string") ||
    !Number.isInteger(skip) ||
    (skip as number) < 0
  )
    throw invalidPageToken();
  return { upstreamToken: upstreamToken as string | null, skip: skip as number };
}

/**
 * One page of the caller's own items: upstream pages are read in order and filtered to the
 * names recorded for the caller; the page token remembers the upstream page and the
 * position in it where the next page starts.
 */
export async function listOwned<T extends { name: string }>(
  { client, ownership }: { client: UpstreamClient; ownership: OwnershipStore },
  kind: keyof typeof UPSTREAM_PAGE,
  collection: "files" | "cachedContents" | "batches" | "fileSearchStores",
  query: PageQuery & { filter?: string },
  context: OperationContext,
  /** The list's field in the upstream answer, when it is not the collection's name (`operations`). */
  itemsKey: string = collection,
): Promise<{ items: T[]; nextPageToken?: string }> {
  const wanted = pageSizeWithin(query.pageSize, PAGE_LIMITS[collection]);
  // Where in the upstream's list the next page starts: its page token (null: the first) and
  // how many of that page's items were looked at. Bound to the caller and the list.
  const scope = `owned:${collection}:${context.caller.ownerId}`;
  let position = query.pageToken
    ? ownedPosition(decodePageToken(query.pageToken, scope))
    : { upstreamToken: null, skip: 0 };
  const token = (next: OwnedPagePosition) =>
    encodePageToken([next.upstreamToken, next.skip], scope);
  const items: T[] = [];
  for (let pages = 0; pages < MAX_PAGES_PER_LIST; pages++) {
    const page = await client.json<Record<string, unknown>>({
      method: "GET",
      target: `${API}/${collection}`,
      query: {
        pageSize: String(UPSTREAM_PAGE[kind]),
        pageToken: position.upstreamToken ?? undefined,
        filter: query.filter,
      },
      signal: context.signal,
      safety: "idempotent",
    });
    const raw = Array.isArray(page[itemsKey]) ? (page[itemsKey] as T[]) : [];
    const upstreamNext =
      typeof page.nextPageToken === "string" && page.nextPageToken !== ""
        ? page.nextPageToken
        : null;
    const owners = await ownership.ownersOf(
      raw
        .slice(position.skip)
        .filter((item) => typeof item?.name === "string")
        .map((item) => ({ kind, name: item.name })),
    );
    for (let index = position.skip; index < raw.length; index++) {
      const item = raw[index]!;
      if (
        typeof item?.name !== "string" ||
        owners.get(`${kind}:${item.name}`) !== context.caller.ownerId
      )
        continue;
      items.push(item);
      if (items.length === wanted) {
        const rest =
          index + 1 < raw.length
            ? { upstreamToken: position.upstreamToken, skip: index + 1 }
            : upstreamNext
              ? { upstreamToken: upstreamNext, skip: 0 }
              : null;
        return rest ? { items, nextPageToken: token(rest) } : { items };
      }
    }
    if (!upstreamNext) return { items };
    position = { upstreamToken: upstreamNext, skip: 0 };
  }
  return { items, nextPageToken: token(position) };
}
