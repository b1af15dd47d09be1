"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { useDeleteFile, useFiles } from "@/lib/hooks/use-files";
import type { File as WireFile } from "@/lib/gemini/types";
import { FileTable } from "./file-table";
import { useNow } from "./expiry-countdown";

/**
 * "Your files" on the Files page: the caller's files page by page with their states and
 * expiry, refresh, and delete after a confirmation.
 */
export function FileListSection() {
  const files = useFiles(20);
  const deleteFile = useDeleteFile();
  const [pending, setPending] = useState<WireFile | null>(null);
  const now = useNow(1000);

  function confirmDelete() {
    const file = pending;
    setPending(null);
    if (file) deleteFile.mutate(file.name);
  }

  return (
    <>
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
        <FileListBody files={files} now={now} onDelete={setPending} />
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
    </>
  );
}

/** The list as it stands: loading, failed (with a retry), empty, or the table. */
function FileListBody({
  files,
  now,
  onDelete,
}: {
  files: ReturnType<typeof useFiles>;
  now: number;
  onDelete(file: WireFile): void;
}) {
  const list = files.data?.pages.flatMap((page) => page.files ?? []) ?? [];
  return files.isPending ? (
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
    <FileTable files={list} now={now} onDelete={onDelete} />
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
