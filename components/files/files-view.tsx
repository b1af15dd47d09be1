"use client";

import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { useDeleteFile, useFiles } from "@/lib/hooks/use-files";
import type { File as WireFile } from "@/lib/gemini/types";
import { AttachmentList } from "./attachment-list";
import { FileCard } from "./file-card";
import { FileTable } from "./file-table";
import { useNow } from "./expiry-countdown";
import { UploadDropZone } from "./upload-drop-zone";

/** Attachments scope of the Files page's upload panel. */
export const FILES_PAGE_SCOPE = "files-page";

/**
 * The Files page: the upload panel and the caller's files with their states and expiry. Its
 * sections in page order, sharing the page's state (the list, the file being deleted); the
 * table is file-table.tsx.
 */
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
          <FileTable files={list} now={now} onDelete={setPending} />
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

      <ConfirmDeleteFile
        file={pending}
        onConfirm={confirmDelete}
        onCancel={() => setPending(null)}
      />
    </div>
  );
}

function ConfirmDeleteFile({
  file,
  onConfirm,
  onCancel,
}: {
  file: WireFile | null;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <ConfirmDialog
      open={file !== null}
      title="Delete this file?"
      confirmLabel="Delete file"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        <strong>{file?.displayName || file?.name}</strong> will be deleted from the service. Prompts
        and caches that refer to it will no longer be able to use it.
      </p>
    </ConfirmDialog>
  );
}
