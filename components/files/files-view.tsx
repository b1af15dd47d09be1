"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { useDeleteFile, useFiles } from "@/lib/hooks/use-files";
import type { File as WireFile } from "@/lib/gemini/types";
import { AttachmentList } from "./attachment-list";
import { FileCard } from "./file-card";
import { formatBytes } from "@/lib/studio/attachment-model";
import { ExpiryCountdown, formatDateTime, useNow } from "./expiry-countdown";
import { UploadDropZone } from "./upload-drop-zone";

/** Attachments scope of the Files page's upload panel. */
export const FILES_PAGE_SCOPE = "files-page";

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

/** The chat link that attaches this file to a new chat. */
export function attachToChatHref(names: string[]): string {
  return `/chat?attach=${names.map(encodeURIComponent).join(",")}`;
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

/** The Files page: the upload panel and the caller's files with their states and expiry. */
export function FilesView() {
  const files = useFiles(20);
  const deleteFile = useDeleteFile();
  const [pending, setPending] = useState<WireFile | null>(null);
  const now = useNow(1000);
  const list = files.data?.pages.flatMap((page) => page.files ?? []) ?? [];
  // `?file=files/{id}`: one file's card, linked from the attachments of a chat.
  const cardName = useSearchParams().get("file");

  function confirmDelete() {
    const file = pending;
    setPending(null);
    if (file) deleteFile.mutate(file.name);
  }

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4">
      <header className="flex flex-col gap-1">
        <h1 className="text-xl font-semibold">Files</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Media and documents uploaded to the service. Audio and video stay PROCESSING while the
          service probes them; a file can be used in a prompt once it is ACTIVE.
        </p>
      </header>

      {cardName && /^files\/[A-Za-z0-9_-]+$/.test(cardName) && <FileCard name={cardName} />}

      <section aria-labelledby="upload-heading" className="flex flex-col gap-3">
        <h2 id="upload-heading" className="sr-only">
          Upload files
        </h2>
        <UploadDropZone scope={FILES_PAGE_SCOPE} variant="panel" />
        <AttachmentList scope={FILES_PAGE_SCOPE} label="Uploads" />
      </section>

      <section aria-labelledby="files-heading" className="flex flex-col gap-2">
        <div className="flex items-center gap-2">
          <h2 id="files-heading" className="text-base font-semibold">
            Your files
          </h2>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => void files.refetch()}
            disabled={files.isFetching}
          >
            {files.isFetching ? "Refreshing…" : "Refresh"}
          </Button>
        </div>
        {deleteFile.isError && (
          <p
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950/50 dark:text-red-200"
          >
            Could not delete the file: {deleteFile.error.message}
          </p>
        )}
        {files.isPending ? (
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            Loading your files…
          </p>
        ) : files.isError ? (
          <div role="alert" className="text-sm text-red-700 dark:text-red-400">
            Could not list the files: {files.error.message}{" "}
            <Button size="sm" onClick={() => void files.refetch()}>
              Retry
            </Button>
          </div>
        ) : list.length === 0 ? (
          <p className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            No files yet. Upload one above; it stays for 48 hours.
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Your files, newest first</caption>
              <thead>
                <tr className="text-left text-xs text-zinc-600 dark:text-zinc-400">
                  <th scope="col" className="px-2 py-1 font-medium">
                    Name
                  </th>
                  <th scope="col" className="hidden px-2 py-1 font-medium sm:table-cell">
                    Type
                  </th>
                  <th scope="col" className="px-2 py-1 text-right font-medium">
                    Size
                  </th>
                  <th scope="col" className="px-2 py-1 font-medium">
                    State
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
                {list.map((file) => (
                  <FileRow key={file.name} file={file} now={now} onDelete={setPending} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {files.hasNextPage && (
          <Button
            className="self-center"
            onClick={() => void files.fetchNextPage()}
            disabled={files.isFetchingNextPage}
          >
            {files.isFetchingNextPage ? "Loading…" : "Load more files"}
          </Button>
        )}
      </section>

      <ConfirmDialog
        open={pending !== null}
        title="Delete this file?"
        confirmLabel="Delete file"
        onConfirm={confirmDelete}
        onCancel={() => setPending(null)}
      >
        <p>
          <strong>{pending?.displayName || pending?.name}</strong> will be deleted from the service.
          Prompts and caches that refer to it will no longer be able to use it.
        </p>
      </ConfirmDialog>
    </div>
  );
}
