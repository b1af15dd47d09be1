/**
 * Pure rules of attachments: what each one sends, whether the prompt may be sent yet and why
 * not, the polling backoff while a file is PROCESSING, and how files are described. Shared by
 * the chat composer, the Files page and the token counter.
 */
import type { File as WireFile, Part } from "@/lib/gemini/types";
import type { AttachmentRecord } from "./conversation-schema";

export type AttachmentStatus =
  /** Bytes are being sent with the resumable protocol. */
  | "uploading"
  /** Uploaded; the service is probing it (polled until ACTIVE). */
  | "processing"
  | "active"
  | "failed"
  /** The connection failed repeatedly; the session is kept and can be resumed. */
  | "interrupted"
  /** A small image sent as inline_data, never uploaded. */
  | "inline";

export type PreviewKind = "image" | "audio" | "video" | "pdf" | "text" | "other";

export interface AttachmentPreview {
  kind: PreviewKind;
  /** `blob:` URL of the local bytes (images, audio, video). */
  objectUrl?: string;
  /** Pages of a local PDF; null when it could not be read. */
  pdfPages?: number | null;
  /** The first characters of a local text file. */
  textSnippet?: string;
  /** A small JPEG data URL of a local image, kept with the sent prompt. */
  thumbnail?: string;
  /** Length of local audio or video, once the browser has read it. */
  durationSeconds?: number;
}

export interface Attachment {
  /** Local id (not the file's name). */
  id: string;
  /** Which composer owns it: a conversation id, the new chat, or the Files page. */
  scope: string;
  displayName: string;
  mimeType: string;
  sizeBytes: number;
  status: AttachmentStatus;
  sentBytes: number;
  /** The File resource once the upload finished (or when attached from the Files page). */
  file?: WireFile;
  /** base64 bytes of an inline image. */
  inlineData?: string;
  /** A long paste kept as an attachment (the prompt box stays light): sent as a text part. */
  text?: string;
  error?: string;
  preview: AttachmentPreview;
  /** When the upload started (ms), for the transfer rate. */
  startedAt: number;
}

/** Images up to this size may be sent inline instead of uploaded. */
export const INLINE_IMAGE_LIMIT_BYTES = 1024 * 1024;

/**
 * A paste longer than this becomes an attachment the person can open, as AI Studio does: a
 * book in the prompt box would make every keystroke re-lay out megabytes.
 */
export const LONG_PASTE_CHARACTERS = 20_000;

/** Characters of a text file shown as its preview. */
export const TEXT_SNIPPET_CHARACTERS = 280;

const EXTENSION_TYPES: Record<string, string> = {
  txt: "text/plain",
  md: "text/markdown",
  markdown: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  xml: "application/xml",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/x-typescript",
  py: "text/x-python",
  yaml: "application/x-yaml",
  yml: "application/x-yaml",
  sql: "application/sql",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  heif: "image/heif",
  wav: "audio/wav",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  flac: "audio/flac",
  aac: "audio/aac",
  m4a: "audio/mp4",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  mkv: "video/x-matroska",
};

/** The MIME type to upload with: the browser's, else one from the extension, else octet-stream. */
export function mimeTypeOf(name: string, browserType: string): string {
  if (browserType) return browserType;
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return (extension && EXTENSION_TYPES[extension]) || "application/octet-stream";
}

/** How a file of this type is previewed. */
export function previewKindOf(mimeType: string): PreviewKind {
  const essence = mimeType.split(";")[0]!.trim().toLowerCase();
  if (essence.startsWith("image/")) return "image";
  if (essence.startsWith("audio/")) return "audio";
  if (essence.startsWith("video/")) return "video";
  if (essence === "application/pdf") return "pdf";
  if (
    essence.startsWith("text/") ||
    /^application\/(json|xml|x-yaml|yaml|sql|javascript|x-sh)$/.test(essence)
  )
    return "text";
  return "other";
}

/** Whether an image this big may be sent inline. */
export function canSendInline(mimeType: string, sizeBytes: number): boolean {
  return (
    previewKindOf(mimeType) === "image" && sizeBytes > 0 && sizeBytes <= INLINE_IMAGE_LIMIT_BYTES
  );
}

/** The part an attachment adds to the prompt, or null while it cannot be sent. */
export function attachmentPart(attachment: Attachment): Part | null {
  if (attachment.status === "inline" && attachment.text !== undefined)
    return { text: attachment.text };
  if (attachment.status === "inline" && attachment.inlineData !== undefined) {
    return { inlineData: { mimeType: attachment.mimeType, data: attachment.inlineData } };
  }
  if (attachment.status === "active" && attachment.file) {
    return { fileData: { mimeType: attachment.file.mimeType, fileUri: attachment.file.uri } };
  }
  return null;
}

/** The parts of every sendable attachment, in the order they were added. */
export function attachmentParts(attachments: readonly Attachment[]): Part[] {
  return attachments.map(attachmentPart).filter((part): part is Part => part !== null);
}

/**
 * What the transcript keeps of each attachment sent, by the index of its part in the prompt
 * (attachments come first, in order): name, type, size, pages, length, a thumbnail, the file.
 */
export function attachmentRecords(attachments: readonly Attachment[]): AttachmentRecord[] {
  const records: AttachmentRecord[] = [];
  for (const attachment of attachments) {
    if (!attachmentPart(attachment)) continue;
    const record: AttachmentRecord = {
      part: records.length,
      displayName: attachment.displayName,
      mimeType: attachment.file?.mimeType ?? attachment.mimeType,
    };
    const size = attachment.file ? Number(attachment.file.sizeBytes) : attachment.sizeBytes;
    if (Number.isFinite(size) && size > 0) record.sizeBytes = size;
    if (attachment.file) {
      record.name = attachment.file.name;
      record.expirationTime = attachment.file.expirationTime;
    }
    const { pdfPages, durationSeconds, thumbnail } = attachment.preview;
    if (typeof pdfPages === "number") record.pageCount = pdfPages;
    if (durationSeconds !== undefined && Number.isFinite(durationSeconds))
      record.durationSeconds = Math.round(durationSeconds * 10) / 10;
    // Inline images carry their own bytes; an uploaded one cannot be read back from the service.
    if (thumbnail && attachment.status !== "inline") record.thumbnail = thumbnail;
    records.push(record);
  }
  return records;
}

/** Whole-percent progress of an upload. */
export function percentSent(attachment: Pick<Attachment, "sentBytes" | "sizeBytes">): number {
  if (attachment.sizeBytes <= 0) return 0;
  return Math.min(100, Math.floor((attachment.sentBytes / attachment.sizeBytes) * 100));
}

function listNames(names: string[]): string {
  if (names.length <= 2) return names.join(" and ");
  return `${names.slice(0, 2).join(", ")} and ${names.length - 2} more`;
}

/**
 * Why the prompt cannot be sent yet because of its attachments, or null when every one is
 * ready (ACTIVE or inline). Uploads and PROCESSING files are waited for; failed ones must be
 * removed (or resumed) first.
 */
export function sendBlockReason(attachments: readonly Attachment[]): string | null {
  const failed = attachments.filter((item) => item.status === "failed");
  if (failed.length) {
    return `Remove ${failed.length === 1 ? "the file that failed" : `the ${failed.length} files that failed`} (${listNames(failed.map((item) => item.displayName))}) before sending.`;
  }
  const interrupted = attachments.filter((item) => item.status === "interrupted");
  if (interrupted.length)
    return `The upload of ${listNames(interrupted.map((item) => item.displayName))} was interrupted: resume or remove it before sending.`;
  const uploading = attachments.filter((item) => item.status === "uploading");
  const processing = attachments.filter((item) => item.status === "processing");
  const waiting: string[] = [];
  if (uploading.length) {
    waiting.push(
      `${listNames(uploading.map((item) => `${item.displayName} (${percentSent(item)}%)`))} ${uploading.length === 1 ? "is" : "are"} uploading`,
    );
  }
  if (processing.length) {
    waiting.push(
      `${listNames(processing.map((item) => item.displayName))} ${processing.length === 1 ? "is" : "are"} still processing`,
    );
  }
  if (!waiting.length) return null;
  const count = uploading.length + processing.length;
  return `Waiting for ${count === 1 ? "1 file" : `${count} files`} to become ACTIVE: ${waiting.join("; ")}.`;
}

/**
 * Delay before poll `attempt` (0-based) of a PROCESSING file: quick at first (small media
 * finish in well under a second), then doubling up to 10 s so a long video costs few requests.
 */
export function pollDelayMs(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** Math.max(0, attempt));
}

/** The attachment status a File resource's state maps to. */
export function statusOfFile(file: WireFile): AttachmentStatus {
  if (file.state === "ACTIVE") return "active";
  if (file.state === "FAILED") return "failed";
  return "processing";
}

/** A File's failure in words. */
export function fileErrorText(file: WireFile): string {
  return file.error?.message
    ? `FAILED: ${file.error.message}`
    : "FAILED: the service could not process this file.";
}

/** Bytes in the units people read (KB = 1000 bytes, as file managers show). */
/** What an upload cut off by the network says: how much the session holds and what happens next. */
export function connectionLostText(
  sentBytes: number,
  totalBytes: number,
  offline: boolean,
): string {
  const held = `${formatBytes(sentBytes)} of ${formatBytes(totalBytes)} are on the server`;
  return offline
    ? `Connection lost: ${held}. The upload continues when the connection is back.`
    : `Connection lost: ${held}. Resume continues from there.`;
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  if (bytes < 1000) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}
