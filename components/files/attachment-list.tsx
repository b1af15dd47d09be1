"use client";

import { memo, useState } from "react";
import { Button } from "@/components/ui/button";
import { useOnline } from "@/lib/hooks/use-online";
import { useUploader } from "@/lib/hooks/use-upload";
import {
  formatBytes,
  percentSent,
  type Attachment,
  type AttachmentStatus,
} from "@/lib/studio/attachment-model";
import { PastedTextViewer } from "./pasted-text-viewer";
import { useScopeAttachments } from "./upload-drop-zone";

const STATUS_LABELS: Record<AttachmentStatus, string> = {
  uploading: "Uploading",
  processing: "PROCESSING",
  active: "ACTIVE",
  failed: "FAILED",
  interrupted: "Interrupted",
  inline: "Inline",
};

const STATUS_STYLES: Record<AttachmentStatus, string> = {
  uploading: "bg-blue-100 text-blue-900 dark:bg-blue-900/40 dark:text-blue-100",
  processing: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  active: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  failed: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100",
  interrupted: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100",
  inline: "bg-zinc-200 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100",
};

/** The small square beside the name: an image thumbnail, or the kind of file (PDF with its pages). */
function Thumbnail({ attachment, compact }: { attachment: Attachment; compact: boolean }) {
  const { preview } = attachment;
  const size = compact ? "h-12 w-12" : "h-16 w-16";
  switch (preview.kind) {
    case "image":
      return preview.objectUrl ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={preview.objectUrl}
          alt={`Preview of ${attachment.displayName}`}
          className={`${size} shrink-0 rounded-md object-cover`}
        />
      ) : (
        <TypeBadge label="Image" size={size} />
      );
    case "pdf":
      return (
        <TypeBadge
          label={
            preview.pdfPages === undefined
              ? "PDF"
              : preview.pdfPages === null
                ? "PDF (pages unknown)"
                : `PDF · ${preview.pdfPages} ${preview.pdfPages === 1 ? "page" : "pages"}`
          }
          size={size}
        />
      );
    case "audio":
      return <TypeBadge label="Audio" size={size} />;
    case "video":
      return <TypeBadge label="Video" size={size} />;
    case "text":
      return <TypeBadge label="Text" size={size} />;
    default:
      return <TypeBadge label="File" size={size} />;
  }
}

/** Below the name: a player for local audio and video, the start of a text file. */
function MediaPreview({ attachment, compact }: { attachment: Attachment; compact: boolean }) {
  const { preview } = attachment;
  if (preview.kind === "audio" && preview.objectUrl) {
    return (
      <audio
        controls
        src={preview.objectUrl}
        aria-label={`Play ${attachment.displayName}`}
        className="h-8 w-full max-w-72"
        preload="metadata"
      />
    );
  }
  if (preview.kind === "video" && preview.objectUrl) {
    return (
      <video
        controls
        src={preview.objectUrl}
        aria-label={`Play ${attachment.displayName}`}
        className={`${compact ? "max-h-24" : "max-h-40"} max-w-full rounded-md bg-black`}
        preload="metadata"
      />
    );
  }
  if (preview.kind === "text" && preview.textSnippet !== undefined) {
    return (
      <pre
        className={`${compact ? "max-h-12" : "max-h-20"} w-full overflow-hidden whitespace-pre-wrap break-words rounded-md bg-zinc-100 p-1 font-mono text-[10px] leading-tight text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300`}
        aria-label={`Start of ${attachment.displayName}`}
      >
        {preview.textSnippet}
      </pre>
    );
  }
  return null;
}

function TypeBadge({ label, size }: { label: string; size: string }) {
  return (
    <span
      className={`${size} flex shrink-0 items-center justify-center rounded-md bg-zinc-100 p-1 text-center text-[10px] font-medium text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300`}
    >
      {label}
    </span>
  );
}

/** One attached file: preview, name, state, progress of real bytes sent, and its controls. */
export const AttachmentCard = memo(function AttachmentCard({
  attachment,
  compact = false,
}: {
  attachment: Attachment;
  compact?: boolean;
}) {
  const online = useOnline();
  const percent = percentSent(attachment);
  const uploading = attachment.status === "uploading";
  const label = `${attachment.displayName}, ${STATUS_LABELS[attachment.status]}`;
  return (
    <li
      aria-label={label}
      data-status={attachment.status}
      className="flex min-w-0 items-start gap-2 rounded-lg border border-zinc-200 bg-white p-2 text-xs dark:border-zinc-800 dark:bg-zinc-950"
    >
      <Thumbnail attachment={attachment} compact={compact} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex min-w-0 items-center gap-2">
          <span className="min-w-0 flex-1 truncate font-medium" title={attachment.displayName}>
            {attachment.displayName}
          </span>
          <span
            className={`shrink-0 rounded-full px-2 py-0.5 text-[10px] font-semibold ${STATUS_STYLES[attachment.status]}`}
            aria-hidden="true"
          >
            {STATUS_LABELS[attachment.status]}
          </span>
        </div>
        <p className="break-words text-zinc-600 dark:text-zinc-400">
          {attachment.mimeType} · {formatBytes(attachment.sizeBytes)}
          {attachment.file ? (
            <>
              {" "}
              · <span className="font-mono">{attachment.file.name}</span>
            </>
          ) : null}
        </p>
        <MediaPreview attachment={attachment} compact={compact} />
        {(uploading || attachment.status === "interrupted") && (
          <UploadProgressBar attachment={attachment} percent={percent} />
        )}
        <p role="status" className="text-zinc-700 dark:text-zinc-300">
          {attachment.status === "uploading" &&
            (online
              ? `Uploading: ${formatBytes(attachment.sentBytes)} of ${formatBytes(attachment.sizeBytes)} sent.`
              : `Connection lost: ${formatBytes(attachment.sentBytes)} of ${formatBytes(attachment.sizeBytes)} sent; waiting for the network.`)}
          {attachment.status === "processing" &&
            "PROCESSING: the service is preparing the file; waiting until it is ACTIVE."}
          {attachment.status === "active" && "ACTIVE: ready to send."}
          {attachment.status === "inline" &&
            (attachment.text !== undefined
              ? "Sent as text with the prompt (not uploaded)."
              : "Sent inline with the prompt (not uploaded).")}
        </p>
        {attachment.error && (
          <p role="alert" className="break-words text-red-700 dark:text-red-400">
            {attachment.error}
          </p>
        )}
        <AttachmentControls attachment={attachment} />
      </div>
    </li>
  );
});

/** The bytes acknowledged so far, as a progress bar with its percentage. */
function UploadProgressBar({ attachment, percent }: { attachment: Attachment; percent: number }) {
  return (
    <div className="flex items-center gap-2">
      <div
        role="progressbar"
        aria-label={`Upload of ${attachment.displayName}`}
        aria-valuemin={0}
        aria-valuemax={attachment.sizeBytes}
        aria-valuenow={attachment.sentBytes}
        aria-valuetext={`${percent}%: ${formatBytes(attachment.sentBytes)} of ${formatBytes(attachment.sizeBytes)} sent`}
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className="h-full bg-blue-600 transition-[width] duration-100"
          style={{ width: `${percent}%` }}
        />
      </div>
      <span className="shrink-0 tabular-nums text-zinc-600 dark:text-zinc-400" aria-hidden="true">
        {percent}%
      </span>
    </div>
  );
}

/**
 * Open a pasted text; resume an interrupted upload; cancel one in flight, or take a finished
 * one off the list.
 */
function AttachmentControls({ attachment }: { attachment: Attachment }) {
  const uploader = useUploader();
  const [reading, setReading] = useState(false);
  const uploading = attachment.status === "uploading";
  return (
    <div className="flex flex-wrap gap-1">
      {attachment.text !== undefined && (
        <Button
          size="sm"
          onClick={() => setReading(true)}
          aria-label={`Open ${attachment.displayName}`}
          aria-haspopup="dialog"
        >
          Open
        </Button>
      )}
      {reading && attachment.text !== undefined && (
        <PastedTextViewer
          title={attachment.displayName}
          text={attachment.text}
          onClose={() => setReading(false)}
        />
      )}
      {attachment.status === "interrupted" && (
        <Button
          size="sm"
          onClick={() => uploader.resume(attachment.id)}
          aria-label={`Resume upload of ${attachment.displayName}`}
        >
          Resume
        </Button>
      )}
      {uploading ? (
        <Button
          size="sm"
          onClick={() => uploader.remove(attachment.id)}
          aria-label={`Cancel upload of ${attachment.displayName}`}
        >
          Cancel
        </Button>
      ) : (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => uploader.remove(attachment.id)}
          aria-label={
            attachment.text !== undefined
              ? `Remove ${attachment.displayName}`
              : `Remove ${attachment.displayName} (the file is kept)`
          }
          title={
            attachment.text !== undefined
              ? "Takes it off the prompt"
              : "Takes it off this list; the file stays in Files"
          }
        >
          Remove
        </Button>
      )}
    </div>
  );
}

/** The attachments of one scope, with their states. Renders nothing when there are none. */
export function AttachmentList({
  scope,
  compact = false,
  label,
}: {
  scope: string;
  compact?: boolean;
  label: string;
}) {
  const attachments = useScopeAttachments(scope);
  if (attachments.length === 0) return null;
  return (
    <ul
      aria-label={label}
      className={`grid gap-2 ${compact ? "sm:grid-cols-2" : "md:grid-cols-2"}`}
    >
      {attachments.map((attachment) => (
        <AttachmentCard key={attachment.id} attachment={attachment} compact={compact} />
      ))}
    </ul>
  );
}
