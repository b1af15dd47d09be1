"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { formatDateTime, useNow } from "@/components/files/expiry-countdown";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { useCachesPage, useDeleteCache } from "@/lib/hooks/use-caches";
import type { CachedContent } from "@/lib/gemini/types";
import { CacheTable } from "./cache-table";
import { CreateCacheForm } from "./create-cache-form";
import { ExtendCacheDialog } from "./extend-cache-dialog";

const PAGE_SIZE = 10;

/**
 * The Cache manager: create, list page by page, extend, delete, and use in a new chat. Its
 * sections in page order; they share the page's state (page tokens, the cache being extended
 * or deleted, the one just created).
 */
export function CachesView() {
  // Tokens of the pages before the current one; "" is the first page.
  const [tokens, setTokens] = useState<string[]>([""]);
  const pageToken = tokens[tokens.length - 1]!;
  const page = useCachesPage(PAGE_SIZE, pageToken);
  const deleteCache = useDeleteCache();
  const [extending, setExtending] = useState<CachedContent | null>(null);
  const [deleting, setDeleting] = useState<CachedContent | null>(null);
  const [created, setCreated] = useState<CachedContent | null>(null);
  // `?conversation=id` (from the chat's "Cache this chat") preselects that conversation.
  const initialConversation = useSearchParams().get("conversation");
  const now = useNow(1000);
  const caches = page.data?.cachedContents ?? [];

  function confirmDelete() {
    const cache = deleting;
    setDeleting(null);
    if (cache) deleteCache.mutate(cache.name);
  }

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4">
      <header className="flex flex-col gap-1">
        <h1 className="text-xl font-semibold">Caches</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Cached contents hold context a model reads again and again (a long conversation,
          documents, a system instruction). Requests that use one send only its name; its tokens are
          reported as cached.
        </p>
      </header>

      <CreateCacheForm
        initialConversationId={initialConversation}
        onCreated={(cache) => {
          setCreated(cache);
          setTokens([""]);
        }}
      />
      {created && <CreatedNotice cache={created} />}

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
        {page.isPending ? (
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
        ) : caches.length === 0 && tokens.length === 1 ? (
          <p className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            No caches yet. Create one above from a conversation or files.
          </p>
        ) : (
          <CacheTable caches={caches} now={now} onExtend={setExtending} onDelete={setDeleting} />
        )}
        <PageNav
          page={tokens.length}
          hasNext={Boolean(page.data?.nextPageToken) && !page.isPlaceholderData}
          onPrevious={() => setTokens((list) => list.slice(0, -1))}
          onNext={() => setTokens((list) => [...list, page.data!.nextPageToken!])}
        />
      </section>

      <ExtendCacheDialog cache={extending} onClose={() => setExtending(null)} />
      <ConfirmDeleteCache
        cache={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}

/** The cache just created, with a link to use it. */
function CreatedNotice({ cache }: { cache: CachedContent }) {
  return (
    <p
      role="status"
      className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100"
    >
      Created <span className="font-mono">{cache.name}</span> (
      {cache.usageMetadata.totalTokenCount.toLocaleString("en")} tokens), expires{" "}
      {formatDateTime(cache.expireTime)}.{" "}
      <Link className="underline" href={`/chat?cache=${encodeURIComponent(cache.name)}`}>
        Use it in a new chat
      </Link>
    </p>
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
