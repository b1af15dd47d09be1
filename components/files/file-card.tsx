"use client";

import { useQuery } from "@tanstack/react-query";
import { ApiError } from "@/lib/gemini/api-error";
import { getFileRequest } from "@/lib/client/file-requests";
import { fileKeys } from "@/lib/studio/query-keys";
import { formatBytes } from "@/lib/studio/attachment-model";
import { ExpiryCountdown, formatDateTime, useNow } from "./expiry-countdown";

/**
 * One file's card (`/files?file=files/{id}`), the target of an attachment's link in a chat: its
 * name, type, size, state and expiry, or plainly that the service no longer has it.
 */
export function FileCard({ name }: { name: string }) {
  const file = useQuery({
    queryKey: fileKeys.detail(name),
    queryFn: ({ signal }) => getFileRequest(name, signal),
    retry: false,
  });
  const now = useNow(1000);
  const gone = file.error instanceof ApiError && [403, 404].includes(file.error.httpStatus);
  return (
    <section
      aria-label={`File card ${name}`}
      className="flex flex-col gap-1 rounded-lg border border-zinc-300 p-4 text-sm dark:border-zinc-700"
    >
      {file.isPending ? (
        <p role="status">Loading {name}…</p>
      ) : gone ? (
        <p role="status" data-file-gone="">
          <span className="font-mono">{name}</span> has expired or was deleted: the service keeps
          files for 48 hours. Conversations that refer to it still show its name, type and size.
        </p>
      ) : file.isError ? (
        <p role="alert">
          Could not load {name}: {file.error.message}
        </p>
      ) : (
        <>
          <h2 className="text-base font-semibold">{file.data.displayName || file.data.name}</h2>
          <p className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{file.data.name}</p>
          <p>
            {file.data.mimeType} · {formatBytes(Number(file.data.sizeBytes))} · {file.data.state}
          </p>
          <p className="text-xs">
            Expires <ExpiryCountdown expireTime={file.data.expirationTime} now={now} /> · created{" "}
            {formatDateTime(file.data.createTime)}
          </p>
        </>
      )}
    </section>
  );
}
