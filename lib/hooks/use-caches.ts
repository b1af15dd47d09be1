"use client";

import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type {
  CachedContent,
  CachedContentCreate,
  CachedContentUpdate,
  ListCachedContentsResponse,
} from "@/lib/gemini/types";

/** Server state of the caller's cached contents (`/v1beta/cachedContents`), through react-query. */

export const cacheKeys = {
  all: ["cachedContents"] as const,
  lists: () => [...cacheKeys.all, "list"] as const,
  page: (pageSize: number, pageToken: string) =>
    [...cacheKeys.lists(), pageSize, pageToken] as const,
  detail: (name: string) => [...cacheKeys.all, "detail", name] as const,
};

function cachePath(name: string): string {
  const id = name.replace(/^cachedContents\//, "");
  return `/v1beta/cachedContents/${encodeURIComponent(id)}`;
}

async function requestJson<Result>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<Result> {
  const response = await fetch(path, {
    method: init.method ?? "GET",
    headers: init.body !== undefined ? { "Content-Type": "application/json" } : undefined,
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    credentials: "same-origin",
    cache: "no-store",
    signal: init.signal,
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as Result;
}

/** Query options of one page of caches; `pageToken` "" is the first page. */
export function cachesPageQueryOptions(pageSize: number, pageToken: string) {
  return queryOptions({
    queryKey: cacheKeys.page(pageSize, pageToken),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ pageSize: String(pageSize) });
      if (pageToken) query.set("pageToken", pageToken);
      return requestJson<ListCachedContentsResponse>(`/v1beta/cachedContents?${query}`, { signal });
    },
    staleTime: 5_000,
  });
}

/** Query options of one cache. */
export function cacheQueryOptions(name: string) {
  return queryOptions({
    queryKey: cacheKeys.detail(name),
    queryFn: ({ signal }) => requestJson<CachedContent>(cachePath(name), { signal }),
    staleTime: 5_000,
    retry: false,
  });
}

export function useCachesPage(pageSize: number, pageToken: string) {
  return useQuery({
    ...cachesPageQueryOptions(pageSize, pageToken),
    placeholderData: keepPreviousData,
  });
}

export function useCache(name: string | null) {
  return useQuery({ ...cacheQueryOptions(name ?? ""), enabled: name !== null });
}

export function createCacheRequest(body: CachedContentCreate): Promise<CachedContent> {
  return requestJson<CachedContent>("/v1beta/cachedContents", { method: "POST", body });
}

export function updateCacheRequest(
  name: string,
  change: CachedContentUpdate,
): Promise<CachedContent> {
  return requestJson<CachedContent>(cachePath(name), { method: "PATCH", body: change });
}

export function deleteCacheRequest(name: string): Promise<object> {
  return requestJson<object>(cachePath(name), { method: "DELETE" });
}

function useInvalidateCaches() {
  const queryClient = useQueryClient();
  return (cache?: CachedContent) => {
    if (cache) queryClient.setQueryData(cacheKeys.detail(cache.name), cache);
    void queryClient.invalidateQueries({ queryKey: cacheKeys.lists() });
  };
}

export function useCreateCache() {
  const invalidate = useInvalidateCaches();
  return useMutation({ mutationFn: createCacheRequest, onSuccess: (cache) => invalidate(cache) });
}

export function useUpdateCache() {
  const invalidate = useInvalidateCaches();
  return useMutation({
    mutationFn: ({ name, change }: { name: string; change: CachedContentUpdate }) =>
      updateCacheRequest(name, change),
    onSuccess: (cache) => invalidate(cache),
  });
}

export function useDeleteCache() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCacheRequest,
    onSuccess: (_result, name) => {
      queryClient.removeQueries({ queryKey: cacheKeys.detail(name) });
      void queryClient.invalidateQueries({ queryKey: cacheKeys.lists() });
    },
  });
}
