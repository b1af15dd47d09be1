"use client";

import {
  previewKindOf,
  TEXT_SNIPPET_CHARACTERS,
  type AttachmentPreview,
} from "@/lib/studio/attachment-model";
import { imageThumbnail, mediaDuration } from "./media-facts";

/**
 * An attachment's preview from its local bytes: at once what is known (the kind, an object URL
 * for media), then, as the browser reads them, an image's thumbnail, a recording's length, a
 * PDF's page count or a text's first lines.
 */

/** Largest PDF whose pages are counted in the browser (pdf-lib parses it whole). */
const PREVIEW_PDF_LIMIT_BYTES = 50 * 1024 * 1024;

async function pdfPageCount(blob: Blob): Promise<number | null> {
  if (blob.size > PREVIEW_PDF_LIMIT_BYTES) return null;
  try {
    const { PDFDocument } = await import("pdf-lib");
    const document = await PDFDocument.load(await blob.arrayBuffer(), {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
    return document.getPageCount();
  } catch {
    return null;
  }
}

export interface PreviewUpdates {
  /** Adds facts to the preview shown now (when the attachment is still there). */
  merge(facts: Partial<AttachmentPreview>): void;
  /** Replaces the preview. */
  replace(preview: AttachmentPreview): void;
}

/** The preview to show at once; what is read later arrives through `later`. */
export function localPreview(
  blob: Blob,
  mimeType: string,
  later: PreviewUpdates,
): AttachmentPreview {
  const kind = previewKindOf(mimeType);
  if (kind === "image" || kind === "audio" || kind === "video") {
    const objectUrl = URL.createObjectURL(blob);
    if (kind === "image")
      void imageThumbnail(objectUrl).then((thumbnail) => thumbnail && later.merge({ thumbnail }));
    else
      void mediaDuration(objectUrl, kind).then(
        (durationSeconds) => durationSeconds && later.merge({ durationSeconds }),
      );
    return { kind, objectUrl };
  }
  if (kind === "pdf") {
    void pdfPageCount(blob).then((pages) => later.replace({ kind, pdfPages: pages }));
    return { kind };
  }
  if (kind === "text") {
    void blob
      .slice(0, TEXT_SNIPPET_CHARACTERS * 4)
      .text()
      .then((text) => later.replace({ kind, textSnippet: text.slice(0, TEXT_SNIPPET_CHARACTERS) }))
      .catch(() => undefined);
  }
  return { kind };
}
