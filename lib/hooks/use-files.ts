"use client";

import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { File as WireFile, ListFilesResponse } from "@/lib/gemini/types";

/** Server state of the caller's files (`/v1beta/files`), through react-query. */

export const fileKeys = {
  all: ["files"] as const,
  lists: () => [...fileKeys.all, "list"] as const,
  list: (pageSize: number) => [...fileKeys.lists(), pageSize] as const,
  detail: (name: string) => [...fileKeys.all, "detail", name] as const,
};

function filePath(name: string): string {
  const id = name.replace(/^files\//, "");
  return `/v1beta/files/${encodeURIComponent(id)}`;
}

/** `GET /v1beta/files/{id}`: the file with its current state. */
export async function getFileRequest(name: string, signal?: AbortSignal): Promise<WireFile> {
  const response = await fetch(filePath(name), {
    credentials: "same-origin",
    cache: "no-store",
    signal,
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as WireFile;
}

/** `DELETE /v1beta/files/{id}`. */
export async function deleteFileRequest(name: string): Promise<void> {
  const response = await fetch(filePath(name), { method: "DELETE", credentials: "same-origin" });
  if (!response.ok) throw await readApiError(response);
}

async function listFilesPage(
  pageSize: number,
  pageToken: string | undefined,
  signal: AbortSignal,
): Promise<ListFilesResponse> {
  const query = new URLSearchParams({ pageSize: String(pageSize) });
  if (pageToken) query.set("pageToken", pageToken);
  const response = await fetch(`/v1beta/files?${query}`, {
    credentials: "same-origin",
    cache: "no-store",
    signal,
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as ListFilesResponse;
}

/** Query options of the caller's files, page by page (newest first). */
export function filesInfiniteQueryOptions(pageSize = 20) {
  return infiniteQueryOptions({
    queryKey: fileKeys.list(pageSize),
    queryFn: ({ pageParam, signal }) => listFilesPage(pageSize, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextPageToken || undefined,
    staleTime: 5_000,
  });
}

/** Query options of one file. */
export function fileQueryOptions(name: string) {
  return queryOptions({
    queryKey: fileKeys.detail(name),
    queryFn: ({ signal }) => getFileRequest(name, signal),
    staleTime: 2_000,
  });
}

/**
 * The caller's files. While any listed file is PROCESSING the list refreshes itself (every
 * 2 s) so its state moves on the page without a reload.
 */
export function useFiles(pageSize = 20) {
  return useInfiniteQuery({
    ...filesInfiniteQueryOptions(pageSize),
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.files?.some((file) => file.state === "PROCESSING"),
      )
        ? 2_000
        : false,
  });
}

export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFileRequest,
    onSuccess: (_result, name) => {
      queryClient.removeQueries({ queryKey: fileKeys.detail(name) });
      void queryClient.invalidateQueries({ queryKey: fileKeys.lists() });
    },
  });
}
