import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { PageQuery } from "@/lib/gemini/backend/contract";

const INT32_MAX = 2 ** 31 - 1;

/**
 * Reads `pageSize` and `pageToken` (camelCase or snake_case) from a list request's query.
 * The size is checked as the service's int32 field (a number, not negative); unset or 0 is
 * left unset. The list's own limits (lib/gemini/page-limits.ts) apply where the page is made.
 */
export function readPageQuery(url: URL): PageQuery {
  const rawSize = url.searchParams.get("pageSize") ?? url.searchParams.get("page_size");
  const pageToken =
    url.searchParams.get("pageToken") ?? url.searchParams.get("page_token") ?? undefined;
  const query: PageQuery = pageToken ? { pageToken } : {};
  if (rawSize === null || rawSize === "") return query;
  const value = /^-?\d{1,11}$/.test(rawSize) ? Number(rawSize) : Number.NaN;
  if (!(value <= INT32_MAX)) {
    throw ApiError.invalidArgument(
      `Invalid value at 'page_size' (TYPE_INT32), "${rawSize.slice(0, 40)}"`,
      [{ field: "page_size", description: `Invalid value "${rawSize.slice(0, 40)}"` }],
    );
  }
  if (value < 0) {
    throw ApiError.invalidArgument("* page_size: page_size must not be negative.", [
      { field: "page_size", description: "must not be negative" },
    ]);
  }
  if (value > 0) query.pageSize = value;
  return query;
}
