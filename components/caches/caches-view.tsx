"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { ExpiryCountdown, formatDateTime, useNow } from "@/components/files/expiry-countdown";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { useCachesPage, useDeleteCache } from "@/lib/hooks/use-caches";
import type { CachedContent } from "@/lib/gemini/types";
import { CreateCacheForm } from "./create-cache-form";
import { ExtendCacheDialog } from "./extend-cache-dialog";

const PAGE_SIZE = 10;

function CacheRow({
  cache,
  now,
  onExtend,
  onDelete,
}: {
  cache: CachedContent;
  now: number;
  onExtend(cache: CachedContent): void;
  onDelete(cache: CachedContent): void;
}) {
  const label = cache.displayName || cache.name;
  const expired = Date.parse(cache.expireTime) <= now;
  return (
    <tr
      aria-label={label}
      data-expired={expired ? "" : undefined}
      className={`border-t border-zinc-200 align-top dark:border-zinc-800 ${expired ? "opacity-70" : ""}`}
    >
      <th scope="row" className="max-w-64 px-2 py-2 text-left font-normal">
        <span className="block truncate font-medium" title={label}>
          {cache.displayName || (
            <span className="text-zinc-600 italic dark:text-zinc-400">no display name</span>
          )}
        </span>
        <span className="block font-mono text-xs text-zinc-600 dark:text-zinc-400">
          {cache.name}
        </span>
      </th>
      <td className="px-2 py-2 font-mono text-xs">{cache.model.replace(/^models\//, "")}</td>
      <td
        className="px-2 py-2 text-right tabular-nums text-xs"
        data-cache-tokens={cache.usageMetadata.totalTokenCount}
      >
        {cache.usageMetadata.totalTokenCount.toLocaleString("en")}
      </td>
      <td className="px-2 py-2 text-xs">{formatDateTime(cache.createTime)}</td>
      <td className="px-2 py-2 text-xs">
        <span className="block">{formatDateTime(cache.expireTime)}</span>
        <ExpiryCountdown expireTime={cache.expireTime} now={now} />
      </td>
      <td className="px-2 py-2">
        <div className="flex flex-wrap justify-end gap-1">
          {expired ? (
            <span className="rounded-full bg-red-100 px-2 py-0.5 text-[11px] font-semibold text-red-900 dark:bg-red-900/40 dark:text-red-100">
              Expired
            </span>
          ) : (
            <>
              <Link
                href={`/chat?cache=${encodeURIComponent(cache.name)}`}
                aria-label={`Use in a new chat: ${label}`}
                className="rounded-md border border-zinc-300 px-2 py-1 text-xs font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:hover:bg-zinc-800"
              >
                Use in a new chat
              </Link>
              <Button
                size="sm"
                onClick={() => onExtend(cache)}
                aria-label={`Extend: ${label}`}
                title="Extend or set the expiry"
              >
                Extend
              </Button>
            </>
          )}
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onDelete(cache)}
            aria-label={`Delete ${label}`}
          >
            Delete
          </Button>
        </div>
      </td>
    </tr>
  );
}

/** The Cache manager: create, list page by page, extend, delete, and use in a new chat. */
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
      {created && (
        <p
          role="status"
          className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100"
        >
          Created <span className="font-mono">{created.name}</span> (
          {created.usageMetadata.totalTokenCount.toLocaleString("en")} tokens), expires{" "}
          {formatDateTime(created.expireTime)}.{" "}
          <Link className="underline" href={`/chat?cache=${encodeURIComponent(created.name)}`}>
            Use it in a new chat
          </Link>
        </p>
      )}

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
          <div className="overflow-x-auto">
            <table className="w-full min-w-[44rem] text-sm">
              <caption className="sr-only">Your cached contents, newest first</caption>
              <thead>
                <tr className="text-left text-xs text-zinc-600 dark:text-zinc-400">
                  <th scope="col" className="px-2 py-1 font-medium">
                    Display name
                  </th>
                  <th scope="col" className="px-2 py-1 font-medium">
                    Model
                  </th>
                  <th scope="col" className="px-2 py-1 text-right font-medium">
                    Tokens
                  </th>
                  <th scope="col" className="px-2 py-1 font-medium">
                    Created
                  </th>
                  <th scope="col" className="px-2 py-1 font-medium">
                    Expires
                  </th>
                  <th scope="col" className="px-2 py-1 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {caches.map((cache) => (
                  <CacheRow
                    key={cache.name}
                    cache={cache}
                    now={now}
                    onExtend={setExtending}
                    onDelete={setDeleting}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav aria-label="Cache pages" className="flex items-center justify-center gap-2">
          <Button
            size="sm"
            disabled={tokens.length === 1}
            onClick={() => setTokens((list) => list.slice(0, -1))}
          >
            Previous page
          </Button>
          <span className="text-xs text-zinc-600 dark:text-zinc-400">Page {tokens.length}</span>
          <Button
            size="sm"
            disabled={!page.data?.nextPageToken || page.isPlaceholderData}
            onClick={() => setTokens((list) => [...list, page.data!.nextPageToken!])}
          >
            Next page
          </Button>
        </nav>
      </section>

      <ExtendCacheDialog cache={extending} onClose={() => setExtending(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this cache?"
        confirmLabel="Delete cache"
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        <p>
          <strong>{deleting?.displayName || deleting?.name}</strong> will be deleted. Chats that use
          it will no longer be able to send.
        </p>
      </ConfirmDialog>
    </div>
  );
}
