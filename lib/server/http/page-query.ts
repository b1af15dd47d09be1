import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { PageQuery } from "@/lib/gemini/backend/contract";

/**
 * Reads `pageSize` and `pageToken` (camelCase or snake_case) from a list request's query.
 * Unset or 0 gives the default; larger than the maximum is coerced to it, as the service does.
 */
export function readPageQuery(
  url: URL,
  limits: { defaultSize: number; maxSize: number },
): Required<Pick<PageQuery, "pageSize">> & PageQuery {
  const rawSize = url.searchParams.get("pageSize") ?? url.searchParams.get("page_size");
  const pageToken =
    url.searchParams.get("pageToken") ?? url.searchParams.get("page_token") ?? undefined;
  let pageSize = limits.defaultSize;
  if (rawSize !== null && rawSize !== "") {
    if (!/^-?\d+$/.test(rawSize)) {
      throw ApiError.invalidArgument(
        `Invalid value at 'page_size' (TYPE_INT32), "${rawSize.slice(0, 40)}"`,
        [{ field: "page_size", description: `Invalid value "${rawSize.slice(0, 40)}"` }],
      );
    }
    const value = Number(rawSize);
    if (value < 0) {
      throw ApiError.invalidArgument("* page_size: page_size must not be negative.", [
        { field: "page_size", description: "must not be negative" },
      ]);
    }
    if (value > 0) pageSize = Math.min(value, limits.maxSize);
  }
  return pageToken ? { pageSize, pageToken } : { pageSize };
}
