/**
 * The service's page sizes per list, part of the wire contract: the size a list answers with
 * when `pageSize` is unset or 0, and the maximum a larger size is coerced to. Both backends
 * read them here (the local engine for its own lists, the gateway for the lists it filters
 * to one owner); the request's edge only checks that a size is a non-negative integer.
 */
export interface PageLimits {
  defaultSize: number;
  maxSize: number;
}

export const PAGE_LIMITS = {
  files: { defaultSize: 10, maxSize: 100 },
  cachedContents: { defaultSize: 100, maxSize: 1000 },
  batches: { defaultSize: 10, maxSize: 100 },
  fileSearchStores: { defaultSize: 10, maxSize: 20 },
  documents: { defaultSize: 10, maxSize: 20 },
  models: { defaultSize: 50, maxSize: 1000 },
} as const satisfies Record<string, PageLimits>;

/** The page size a list answers with: the default when unset or 0, at most the maximum. */
export function pageSizeWithin(requested: number | undefined, limits: PageLimits): number {
  return Math.min(Math.max(requested || limits.defaultSize, 1), limits.maxSize);
}
