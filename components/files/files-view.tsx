"use client";

import { useSearchParams } from "next/navigation";
import { AttachmentList } from "./attachment-list";
import { FileCard } from "./file-card";
import { FileListSection } from "./file-list-section";
import { UploadDropZone } from "./upload-drop-zone";

/** Attachments scope of the Files page's upload panel. */
export const FILES_PAGE_SCOPE = "files-page";

/**
 * The Files page: one file's card when linked to, the upload panel, and the caller's files
 * with their states and expiry (file-list-section.tsx), in page order.
 */
export function FilesView() {
  // `?file=files/{id}`: one file's card, linked from the attachments of a chat.
  const cardName = useSearchParams().get("file");

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

      <FileListSection />
    </div>
  );
}
