"use client";

import { useState } from "react";
import { useNow } from "@/components/files/expiry-countdown";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { useCachesPage, useDeleteCache } from "@/lib/hooks/use-caches";
import type { CachedContent } from "@/lib/gemini/types";
import { CacheTable } from "./cache-table";
import { ExtendCacheDialog } from "./extend-cache-dialog";

const PAGE_SIZE = 10;

/** Page tokens of the list: those of the pages before the current one and its own; "" is the first page. */
export function usePageTokens() {
  const [tokens, setTokens] = useState<string[]>([""]);
  return {
    pageToken: tokens[tokens.length - 1]!,
    /** The current page's number, from 1. */
    page: tokens.length,
    previous: () => setTokens((list) => list.slice(0, -1)),
    next: (token: string) => setTokens((list) => [...list, token]),
    /** Back to the first page (a cache was created). */
    reset: () => setTokens([""]),
  };
}

export type PageTokens = ReturnType<typeof usePageTokens>;

/**
 * "Your caches" on the Cache manager: the caller's caches page by page, refresh, extend and
 * delete (after a confirmation).
 */
export function CacheListSection({ pages }: { pages: PageTokens }) {
  const page = useCachesPage(PAGE_SIZE, pages.pageToken);
  const deleteCache = useDeleteCache();
  const [extending, setExtending] = useState<CachedContent | null>(null);
  const [deleting, setDeleting] = useState<CachedContent | null>(null);
  const now = useNow(1000);

  function confirmDelete() {
    const cache = deleting;
    setDeleting(null);
    if (cache) deleteCache.mutate(cache.name);
  }

  return (
    <>
      <section aria-labelledby="caches-heading" className="flex flex-col gap-2">
        <div className="flex items-center gap-2">
          <h2 id="caches-heading" className="text-base font-semibold">
            Your caches
          </h2>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => void page.refetch()}
            disabled={page.isFetching}
          >
            {page.isFetching ? "Refreshing…" : "Refresh"}
          </Button>
        </div>
        {deleteCache.isError && (
          <p
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950/50 dark:text-red-200"
          >
            Could not delete the cache: {deleteCache.error.message}
          </p>
        )}
        <CacheListBody
          page={page}
          firstPage={pages.page === 1}
          now={now}
          onExtend={setExtending}
          onDelete={setDeleting}
        />
        <PageNav
          page={pages.page}
          hasNext={Boolean(page.data?.nextPageToken) && !page.isPlaceholderData}
          onPrevious={pages.previous}
          onNext={() => pages.next(page.data!.nextPageToken!)}
        />
      </section>

      <ExtendCacheDialog cache={extending} onClose={() => setExtending(null)} />
      <ConfirmDeleteCache
        cache={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

/** The page as it stands: loading, failed (with a retry), empty, or the table. */
function CacheListBody({
  page,
  firstPage,
  now,
  onExtend,
  onDelete,
}: {
  page: ReturnType<typeof useCachesPage>;
  firstPage: boolean;
  now: number;
  onExtend(cache: CachedContent): void;
  onDelete(cache: CachedContent): void;
}) {
  const caches = page.data?.cachedContents ?? [];
  return page.isPending ? (
    <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
      Loading your caches…
    </p>
  ) : page.isError ? (
    <div role="alert" className="text-sm text-red-700 dark:text-red-400">
      Could not list the caches: {page.error.message}{" "}
      <Button size="sm" onClick={() => void page.refetch()}>
        Retry
      </Button>
    </div>
  ) : caches.length === 0 && firstPage ? (
    <p className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
      No caches yet. Create one above from a conversation or files.
    </p>
  ) : (
    <CacheTable caches={caches} now={now} onExtend={onExtend} onDelete={onDelete} />
  );
}

/** Pages of the list: back through the tokens already seen, on with the page's next token. */
function PageNav({
  page,
  hasNext,
  onPrevious,
  onNext,
}: {
  page: number;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
}) {
  return (
    <nav aria-label="Cache pages" className="flex items-center justify-center gap-2">
      <Button size="sm" disabled={page === 1} onClick={onPrevious}>
        Previous page
      </Button>
      <span className="text-xs text-zinc-600 dark:text-zinc-400">Page {page}</span>
      <Button size="sm" disabled={!hasNext} onClick={onNext}>
        Next page
      </Button>
    </nav>
  );
}

function ConfirmDeleteCache({
  cache,
  onConfirm,
  onCancel,
}: {
  cache: CachedContent | null;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <ConfirmDialog
      open={cache !== null}
      title="Delete this cache?"
      confirmLabel="Delete cache"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        <strong>{cache?.displayName || cache?.name}</strong> will be deleted. Chats that use it will
        no longer be able to send.
      </p>
    </ConfirmDialog>
  );
}
