"use client";

import { createContext, useCallback, useContext, useEffect, type ReactNode } from "react";
import { useDropzone } from "react-dropzone";
import { useShallow } from "zustand/react/shallow";
import { Button } from "@/components/ui/button";
import { useUploader } from "@/lib/hooks/use-upload";
import { useAttachmentsStore } from "@/lib/stores/attachments-store";
import { INLINE_IMAGE_LIMIT_BYTES, formatBytes } from "@/lib/studio/attachment-model";

interface DropZoneApi {
  /** Opens the file picker. */
  open(): void;
}

const DropZoneContext = createContext<DropZoneApi | null>(null);

/** The file picker of the enclosing drop zone (for an "Attach files" button inside it). */
export function useFilePicker(): DropZoneApi {
  const api = useContext(DropZoneContext);
  if (!api) throw new Error("useFilePicker must be used inside UploadDropZone");
  return api;
}

export interface UploadDropZoneProps {
  /** The attachments scope files dropped here join. */
  scope: string;
  /**
   * "panel": a visible area with its own picker button (the Files page). "overlay": wraps
   * its children (the composer) and shows a drop target only while files are dragged over.
   */
  variant: "panel" | "overlay";
  /** Which of the files dropped or chosen join (the chat refuses what its model cannot take). */
  admit?: (files: readonly File[]) => readonly File[];
  children?: ReactNode;
  className?: string;
}

/**
 * Where files come in: dropped (react-dropzone) or chosen with the picker (the chat's prompt
 * box takes pasted ones too). Every file `admit` lets through goes to the uploader.
 */
export function UploadDropZone({
  scope,
  variant,
  admit,
  children,
  className = "",
}: UploadDropZoneProps) {
  const uploader = useUploader();
  const onDrop = useCallback(
    (files: File[]) => {
      const admitted = admit ? admit(files) : files;
      if (admitted.length) uploader.addFiles(scope, admitted);
    },
    [uploader, scope, admit],
  );
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop,
    noClick: true,
    noKeyboard: true,
    useFsAccessApi: false,
    multiple: true,
  });
  const uploading = useAttachmentsStore((state) =>
    state.attachments.some((item) => item.status === "uploading"),
  );

  // Closing the tab would drop the bytes in flight: ask first.
  useEffect(() => {
    if (!uploading) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [uploading]);

  const input = <input {...getInputProps({ "aria-label": "Choose files to upload" })} />;
  if (variant === "overlay") {
    return (
      <DropZoneContext.Provider value={{ open }}>
        <div
          {...getRootProps({ className: `relative ${className}` })}
          data-testid={`drop-zone-${scope}`}
        >
          {input}
          {children}
          {isDragActive && (
            <div className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center rounded-xl border-2 border-dashed border-blue-600 bg-blue-50/90 text-sm font-medium text-blue-900 dark:bg-blue-950/90 dark:text-blue-100">
              Drop files to attach them
            </div>
          )}
        </div>
      </DropZoneContext.Provider>
    );
  }
  return (
    <DropZoneContext.Provider value={{ open }}>
      <div
        {...getRootProps({
          className: `flex flex-col items-center gap-2 rounded-xl border-2 border-dashed p-6 text-center text-sm ${isDragActive ? "border-blue-600 bg-blue-50 dark:bg-blue-950/40" : "border-zinc-300 dark:border-zinc-700"} ${className}`,
        })}
        data-testid={`drop-zone-${scope}`}
      >
        {input}
        <p className="text-zinc-700 dark:text-zinc-300">
          {isDragActive
            ? "Drop the files to upload them"
            : "Drag and drop files here, paste them, or"}
        </p>
        <Button variant="primary" onClick={open}>
          Choose files…
        </Button>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          Uploaded with the resumable protocol, in 8 MiB chunks; up to 2 GB per file, kept 48 hours.
        </p>
        {children}
      </div>
    </DropZoneContext.Provider>
  );
}

/** The person's choice to send small images inline (inline_data) instead of uploading them. */
export function InlineImagesToggle() {
  const inline = useAttachmentsStore((state) => state.inlineSmallImages);
  const setInline = useAttachmentsStore((state) => state.setInlineSmallImages);
  return (
    <label className="inline-flex items-center gap-1.5 text-xs text-zinc-700 dark:text-zinc-300">
      <input
        type="checkbox"
        checked={inline}
        onChange={(event) => setInline(event.target.checked)}
      />
      Send images under {formatBytes(INLINE_IMAGE_LIMIT_BYTES)} inline
    </label>
  );
}

/** The attachments of one scope, shallow-compared so the list re-renders only when it changes. */
export function useScopeAttachments(scope: string) {
  return useAttachmentsStore(
    useShallow((state) => state.attachments.filter((item) => item.scope === scope)),
  );
}
