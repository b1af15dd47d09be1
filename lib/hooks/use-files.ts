"use client";

import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { deleteFileRequest, getFileRequest, listFilesPage } from "@/lib/client/file-requests";
import { fileKeys } from "@/lib/studio/query-keys";

/** Server state of the caller's files (`/v1beta/files`), through react-query. */

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
