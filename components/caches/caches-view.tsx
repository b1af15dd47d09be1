"use client";

import { formatNumber } from "@/lib/studio/number-format";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { formatDateTime } from "@/components/files/expiry-countdown";
import { ApiError } from "@/lib/gemini/api-error";
import type { CachedContent } from "@/lib/gemini/types";
import { useCache } from "@/lib/hooks/use-caches";
import { CacheListSection, usePageTokens } from "./cache-list-section";
import { CreateCacheForm } from "./create-cache-form";

/**
 * The Cache manager: create, list page by page, extend, delete, and use in a new chat. Its
 * sections in page order: the form, the cache just created, and the list
 * (cache-list-section.tsx), which goes back to its first page when a cache is created.
 */
export function CachesView() {
  const pages = usePageTokens();
  const [created, setCreated] = useState<CachedContent | null>(null);
  // `?conversation=id` (from the chat's "Cache this chat") preselects that conversation.
  const initialConversation = useSearchParams().get("conversation");

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
          pages.reset();
        }}
      />
      {created && <CreatedNotice cache={created} />}

      <CacheListSection pages={pages} />
    </div>
  );
}

/**
 * The cache just created, with a link to use it; it follows the cache as it changes (an
 * extended expiry) and goes once the cache is deleted.
 */
function CreatedNotice({ cache: created }: { cache: CachedContent }) {
  const live = useCache(created.name);
  const deleted = live.error instanceof ApiError && [403, 404].includes(live.error.httpStatus);
  if (deleted) return null;
  const cache = live.data ?? created;
  return (
    <p
      role="status"
      className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100"
    >
      Created <span className="font-mono">{cache.name}</span> (
      {formatNumber(cache.usageMetadata.totalTokenCount)} tokens), expires{" "}
      {formatDateTime(cache.expireTime)}.{" "}
      <Link className="underline" href={`/chat?cache=${encodeURIComponent(cache.name)}`}>
        Use it in a new chat
      </Link>
    </p>
  );
}
