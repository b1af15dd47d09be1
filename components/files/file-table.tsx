"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ListTableHead, type ListColumn } from "@/components/ui/list-table-head";
import type { File as WireFile } from "@/lib/gemini/types";
import { formatBytes } from "@/lib/studio/attachment-model";
import { ExpiryCountdown, formatDateTime } from "./expiry-countdown";

const FILE_COLUMNS: ListColumn[] = [
  { label: "Name" },
  { label: "Type", className: "hidden sm:table-cell" },
  { label: "Size", align: "right" },
  { label: "State" },
  { label: "Expires" },
  { label: "Actions", align: "right", visuallyHidden: true },
];

/** The chat link that attaches this file to a new chat. */
function attachToChatHref(names: string[]): string {
  return `/chat?attach=${names.map(encodeURIComponent).join(",")}`;
}

/** The caller's files: a row each, with its state, its expiry counting down and its actions. */
export function FileTable({
  files,
  now,
  onDelete,
}: {
  files: WireFile[];
  now: number;
  onDelete(file: WireFile): void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">Your files, newest first</caption>
        <ListTableHead columns={FILE_COLUMNS} />
        <tbody>
          {files.map((file) => (
            <FileRow key={file.name} file={file} now={now} onDelete={onDelete} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

const STATE_STYLES: Record<string, string> = {
  ACTIVE: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  PROCESSING: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  FAILED: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100",
};

function StateBadge({ file }: { file: WireFile }) {
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-[11px] font-semibold ${STATE_STYLES[file.state] ?? "bg-zinc-200 dark:bg-zinc-800"}`}
    >
      {file.state}
    </span>
  );
}

function FileRow({
  file,
  now,
  onDelete,
}: {
  file: WireFile;
  now: number;
  onDelete(file: WireFile): void;
}) {
  const label = file.displayName || file.name;
  const expired = Date.parse(file.expirationTime) <= now;
  return (
    <tr className="border-t border-zinc-200 align-top dark:border-zinc-800" aria-label={label}>
      <th scope="row" className="max-w-24 px-1 py-2 text-left font-normal sm:max-w-64 sm:px-2">
        <span className="block truncate font-medium" title={label}>
          {label}
        </span>
        <span className="block font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">
          {file.name}
        </span>
        {/* On a phone the type column is folded in here. */}
        <span className="block text-xs text-zinc-600 sm:hidden dark:text-zinc-400">
          {file.mimeType}
        </span>
      </th>
      <td className="hidden px-2 py-2 text-xs sm:table-cell">{file.mimeType}</td>
      <td className="px-1 py-2 sm:px-2 text-right tabular-nums text-xs">
        {formatBytes(Number(file.sizeBytes))}
      </td>
      <td className="px-1 py-2 sm:px-2 text-xs">
        <StateBadge file={file} />
        {file.state === "FAILED" && file.error?.message && (
          <p className="mt-1 max-w-56 break-words text-red-700 dark:text-red-400">
            {file.error.message}
          </p>
        )}
        {file.videoMetadata?.videoDuration && (
          <p className="mt-1 text-zinc-600 dark:text-zinc-400">
            {file.videoMetadata.videoDuration}
          </p>
        )}
      </td>
      <td className="px-1 py-2 sm:px-2 text-xs">
        <ExpiryCountdown expireTime={file.expirationTime} now={now} />
        <span className="hidden text-zinc-600 sm:block dark:text-zinc-400">
          created {formatDateTime(file.createTime)}
        </span>
      </td>
      <td className="px-1 py-2 sm:px-2">
        <div className="flex flex-col items-end gap-1 sm:flex-row sm:flex-wrap sm:justify-end">
          {file.state !== "FAILED" && !expired ? (
            <Link
              href={attachToChatHref([file.name])}
              aria-label={`Attach to chat: ${label}`}
              className="rounded-md border border-zinc-300 px-2 py-1 text-xs font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:hover:bg-zinc-800"
            >
              Attach to chat
            </Link>
          ) : null}
          <Button
            size="sm"
            variant="ghost"
            className="text-red-700! dark:text-red-400!"
            onClick={() => onDelete(file)}
            aria-label={`Delete ${label}`}
            title="Deletes the file from the server"
          >
            Delete
          </Button>
        </div>
      </td>
    </tr>
  );
}
