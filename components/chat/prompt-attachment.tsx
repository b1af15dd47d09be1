"use client";

import Link from "next/link";
import { useNow } from "@/components/files/expiry-countdown";
import { formatBytes, previewKindOf } from "@/lib/studio/attachment-model";
import type { AttachmentRecord } from "@/lib/studio/conversation-schema";
import type { Part } from "@/lib/gemini/types";
import { useAttachmentsStore } from "@/lib/stores/attachments-store";

/** `files/{id}` of a file URI (`…/v1beta/files/{id}`), or null. */
function fileNameOf(uri: string): string | null {
  return /(?:^|\/)(files\/[A-Za-z0-9_-]+)$/.exec(uri)?.[1] ?? null;
}

function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
}

/** What the transcript knows of a part sent as an attachment: its record, else what the part says. */
function describe(part: Part, record: AttachmentRecord | undefined): AttachmentRecord {
  if (record) return record;
  if (part.fileData) {
    const name = fileNameOf(part.fileData.fileUri) ?? undefined;
    return {
      part: 0,
      displayName: name ?? part.fileData.fileUri,
      mimeType: part.fileData.mimeType ?? "application/octet-stream",
      ...(name ? { name } : {}),
    };
  }
  const inline = part.inlineData!;
  return {
    part: 0,
    displayName: "Inline data",
    mimeType: inline.mimeType,
    sizeBytes: Math.floor((inline.data.replace(/=+$/, "").length * 3) / 4),
  };
}

/**
 * One attachment of a sent prompt as the person knew it: name, type, size, a thumbnail of an
 * image, the pages of a PDF, a player for audio or video (inline bytes, or the file's local
 * copy from this visit), a link to the file's card, and "expired" once the service dropped it.
 */
export function PromptAttachment({ part, record }: { part: Part; record?: AttachmentRecord }) {
  const facts = describe(part, record);
  const kind = previewKindOf(facts.mimeType);
  const now = useNow(60_000);
  const localCopy = useAttachmentsStore((state) =>
    facts.name ? state.sentMedia[facts.name] : undefined,
  );
  const inlineUrl = part.inlineData
    ? `data:${part.inlineData.mimeType};base64,${part.inlineData.data}`
    : undefined;
  const expired = facts.expirationTime !== undefined && Date.parse(facts.expirationTime) <= now;
  const mediaUrl = inlineUrl ?? localCopy;
  const imageUrl = kind === "image" ? (inlineUrl ?? facts.thumbnail ?? localCopy) : undefined;
  const details = [
    facts.mimeType,
    facts.sizeBytes !== undefined ? formatBytes(facts.sizeBytes) : null,
    facts.pageCount !== undefined
      ? `${facts.pageCount} ${facts.pageCount === 1 ? "page" : "pages"}`
      : null,
    facts.durationSeconds !== undefined ? formatDuration(facts.durationSeconds) : null,
  ].filter(Boolean);
  return (
    <figure
      className="flex max-w-full flex-col gap-1 rounded-lg border border-zinc-300 bg-white p-2 text-left text-xs text-zinc-800 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
      aria-label={`Attachment ${facts.displayName}`}
      data-attachment={kind}
    >
      {imageUrl && (
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={imageUrl}
          alt={`Thumbnail of ${facts.displayName}`}
          className="max-h-40 max-w-full self-start rounded object-contain"
        />
      )}
      {(kind === "audio" || kind === "video") && mediaUrl && (
        <MediaPlayer kind={kind} url={mediaUrl} name={facts.displayName} />
      )}
      <figcaption className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
        <span className="font-medium break-all">{facts.displayName}</span>
        <span className="text-zinc-600 dark:text-zinc-400">{details.join(" · ")}</span>
        {expired && (
          <span className="font-semibold text-red-700 dark:text-red-300" data-expired="">
            expired — the service keeps files 48 hours
          </span>
        )}
        {facts.name && (
          <Link
            href={`/files?file=${encodeURIComponent(facts.name)}`}
            className="text-blue-800 underline underline-offset-2 dark:text-blue-300"
            aria-label={`File card of ${facts.displayName}`}
          >
            File card
          </Link>
        )}
      </figcaption>
    </figure>
  );
}

function MediaPlayer({ kind, url, name }: { kind: "audio" | "video"; url: string; name: string }) {
  return kind === "audio" ? (
    <audio controls src={url} aria-label={`Play ${name}`} className="max-w-full" />
  ) : (
    <video
      controls
      src={url}
      aria-label={`Play ${name}`}
      className="max-h-64 max-w-full rounded-md"
    />
  );
}
