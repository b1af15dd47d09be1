"use client";

import { formatNumber } from "@/lib/studio/number-format";
import Link from "next/link";
import { ExpiryCountdown, formatDateTime } from "@/components/files/expiry-countdown";
import { Button } from "@/components/ui/button";
import { ListTableHead, type ListColumn } from "@/components/ui/list-table-head";
import type { CachedContent } from "@/lib/gemini/types";

const CACHE_COLUMNS: ListColumn[] = [
  { label: "Display name" },
  { label: "Model" },
  { label: "Tokens", align: "right" },
  { label: "Created" },
  { label: "Expires" },
  { label: "Actions", align: "right", visuallyHidden: true },
];

/** One page of the caller's caches: a row each, with its expiry counting down and its actions. */
export function CacheTable({
  caches,
  now,
  onExtend,
  onDelete,
}: {
  caches: CachedContent[];
  now: number;
  onExtend(cache: CachedContent): void;
  onDelete(cache: CachedContent): void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[44rem] text-sm">
        <caption className="sr-only">Your cached contents, newest first</caption>
        <ListTableHead columns={CACHE_COLUMNS} />
        <tbody>
          {caches.map((cache) => (
            <CacheRow
              key={cache.name}
              cache={cache}
              now={now}
              onExtend={onExtend}
              onDelete={onDelete}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

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
      <th scope="row" className="px-2 py-2 text-left font-normal">
        {/* A table cell ignores max-width: the box inside holds the width, so a long name is cut. */}
        <div className="w-56 lg:w-64">
          <span className="block truncate font-medium" title={label}>
            {cache.displayName || (
              <span className="text-zinc-600 italic dark:text-zinc-400">no display name</span>
            )}
          </span>
          <span
            className="block truncate font-mono text-xs text-zinc-600 dark:text-zinc-400"
            title={cache.name}
          >
            {cache.name}
          </span>
        </div>
      </th>
      <td className="px-2 py-2 font-mono text-xs">{cache.model.replace(/^models\//, "")}</td>
      <td
        className="px-2 py-2 text-right tabular-nums text-xs"
        data-cache-tokens={cache.usageMetadata.totalTokenCount}
      >
        {formatNumber(cache.usageMetadata.totalTokenCount)}
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
