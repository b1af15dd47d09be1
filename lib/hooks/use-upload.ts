"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import type { StoreApi } from "zustand";
import {
  canSendInline,
  connectionLostText,
  fileErrorText,
  mimeTypeOf,
  pollDelayMs,
  previewKindOf,
  statusOfFile,
  TEXT_SNIPPET_CHARACTERS,
  type Attachment,
  type AttachmentPreview,
} from "@/lib/studio/attachment-model";
import { ApiError } from "@/lib/gemini/api-error";
import {
  isUploadAbort,
  uploadResumable,
  UploadConnectionError,
  UploadInterruptedError,
} from "@/lib/gemini/client/resumable-upload";
import type { File as WireFile } from "@/lib/gemini/types";
import { useAttachmentsStoreApi, type AttachmentsStore } from "@/lib/stores/attachments-store";
import { fileKeys, getFileRequest } from "./use-files";
import { imageThumbnail, mediaDuration } from "./media-facts";

/**
 * What happens to an attached file: its preview is made from the local bytes, the bytes go up
 * with the resumable protocol (progress into the store), and a PROCESSING file is polled with
 * backoff until it is ACTIVE or FAILED. The bytes, abort controllers and session URLs stay in
 * this closure, outside the store.
 */

export interface Uploader {
  /** Attaches local files: each is uploaded (or read inline when chosen and small enough). */
  addFiles(scope: string, files: readonly globalThis.File[]): void;
  /** Attaches a file that is already on the server (from the Files page). */
  attachExisting(scope: string, file: WireFile): void;
  /** Detaches; an upload in flight is cancelled (the server file, if any, is kept). */
  remove(id: string): void;
  /** Continues an interrupted upload from the bytes the session holds. */
  resume(id: string): void;
  /** Detaches every attachment of a scope (after the prompt was sent). */
  /**
   * Removes a scope's attachments. With `keepMedia` (after a send), the local bytes of uploaded
   * media stay playable in the transcript until the page closes.
   */
  clear(scope: string, options?: { keepMedia?: boolean }): void;
}

interface Runtime {
  blob?: Blob;
  controller?: AbortController;
  sessionUrl?: string;
  pollTimer?: ReturnType<typeof setTimeout>;
}

/** Store updates of upload progress at most this often (XHR reports every few ms at local speed). */
const PROGRESS_INTERVAL_MS = 80;

function newId(): string {
  return `attachment-${crypto.getRandomValues(new Uint32Array(2)).join("-")}`;
}

function errorText(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.httpStatus} ${error.rpcStatus})`;
  return error instanceof Error ? error.message : String(error);
}

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  const step = 0x8000;
  for (let index = 0; index < bytes.length; index += step)
    binary += String.fromCharCode(...bytes.subarray(index, index + step));
  return btoa(binary);
}

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

/** The uploader bound to one attachments store (exported for tests and the bench). */
export function createUploader(
  store: StoreApi<AttachmentsStore>,
  queryClient?: QueryClient,
): Uploader {
  const runtimes = new Map<string, Runtime>();

  const get = (id: string): Attachment | undefined =>
    store.getState().attachments.find((item) => item.id === id);
  const update = (id: string, change: Partial<Attachment>) => {
    if (get(id)) store.getState().update(id, change);
  };

  function forget(id: string): void {
    const runtime = runtimes.get(id);
    runtime?.controller?.abort();
    if (runtime?.pollTimer) clearTimeout(runtime.pollTimer);
    runtimes.delete(id);
    const preview = get(id)?.preview;
    if (preview?.objectUrl) URL.revokeObjectURL(preview.objectUrl);
    store.getState().remove(id);
  }

  function disposeAll(): void {
    for (const id of [...runtimes.keys()]) {
      const runtime = runtimes.get(id);
      runtime?.controller?.abort();
      if (runtime?.pollTimer) clearTimeout(runtime.pollTimer);
    }
    runtimes.clear();
    for (const attachment of store.getState().attachments) {
      if (attachment.preview.objectUrl) URL.revokeObjectURL(attachment.preview.objectUrl);
    }
    for (const url of Object.values(store.getState().sentMedia)) URL.revokeObjectURL(url);
  }

  function previewOf(id: string, blob: Blob, mimeType: string): AttachmentPreview {
    const kind = previewKindOf(mimeType);
    if (kind === "image" || kind === "audio" || kind === "video") {
      const objectUrl = URL.createObjectURL(blob);
      const keep = (facts: Partial<AttachmentPreview>) => {
        const preview = get(id)?.preview;
        if (preview) update(id, { preview: { ...preview, ...facts } });
      };
      if (kind === "image")
        void imageThumbnail(objectUrl).then((thumbnail) => thumbnail && keep({ thumbnail }));
      else
        void mediaDuration(objectUrl, kind).then(
          (durationSeconds) => durationSeconds && keep({ durationSeconds }),
        );
      return { kind, objectUrl };
    }
    if (kind === "pdf") {
      void pdfPageCount(blob).then((pages) => update(id, { preview: { kind, pdfPages: pages } }));
      return { kind };
    }
    if (kind === "text") {
      void blob
        .slice(0, TEXT_SNIPPET_CHARACTERS * 4)
        .text()
        .then((text) =>
          update(id, { preview: { kind, textSnippet: text.slice(0, TEXT_SNIPPET_CHARACTERS) } }),
        )
        .catch(() => undefined);
    }
    return { kind };
  }

  function applyFile(id: string, file: WireFile, pollAttempt: number): void {
    const status = statusOfFile(file);
    update(id, {
      file,
      status,
      sentBytes: Number(file.sizeBytes) || get(id)?.sizeBytes || 0,
      error: status === "failed" ? fileErrorText(file) : undefined,
    });
    if (status === "processing") poll(id, file.name, pollAttempt);
    else void queryClient?.invalidateQueries({ queryKey: fileKeys.lists() });
  }

  function poll(id: string, name: string, attempt: number): void {
    const runtime = runtimes.get(id);
    if (!runtime) return;
    runtime.pollTimer = setTimeout(async () => {
      const controller = new AbortController();
      runtime.controller = controller;
      try {
        const file = await getFileRequest(name, controller.signal);
        if (runtimes.get(id) !== runtime) return;
        applyFile(id, file, attempt + 1);
      } catch (error) {
        if (controller.signal.aborted || runtimes.get(id) !== runtime) return;
        if (error instanceof ApiError && (error.httpStatus === 403 || error.httpStatus === 404)) {
          update(id, {
            status: "failed",
            error: `The file is no longer available: ${error.message}`,
          });
          return;
        }
        poll(id, name, attempt + 1);
      }
    }, pollDelayMs(attempt));
  }

  async function upload(id: string): Promise<void> {
    const runtime = runtimes.get(id);
    const attachment = get(id);
    if (!runtime?.blob || !attachment) return;
    const controller = new AbortController();
    runtime.controller = controller;
    update(id, { status: "uploading", error: undefined });
    let lastUpdate = 0;
    try {
      const file = await uploadResumable({
        blob: runtime.blob,
        mimeType: attachment.mimeType,
        displayName: attachment.displayName,
        ...(runtime.sessionUrl ? { sessionUrl: runtime.sessionUrl } : {}),
        signal: controller.signal,
        onSession: (url) => {
          runtime.sessionUrl = url;
        },
        onProgress: ({ sentBytes, totalBytes }) => {
          const now = performance.now();
          if (sentBytes < totalBytes && now - lastUpdate < PROGRESS_INTERVAL_MS) return;
          lastUpdate = now;
          update(id, { sentBytes });
        },
      });
      runtime.sessionUrl = undefined;
      if (runtimes.get(id) !== runtime) return;
      void queryClient?.invalidateQueries({ queryKey: fileKeys.lists() });
      applyFile(id, file, 0);
    } catch (error) {
      if (isUploadAbort(error) || runtimes.get(id) !== runtime) return;
      if (error instanceof UploadInterruptedError) {
        const offline = typeof navigator !== "undefined" && navigator.onLine === false;
        const lost = offline || error.cause instanceof UploadConnectionError;
        update(id, {
          status: "interrupted",
          sentBytes: error.sentBytes,
          error: lost
            ? connectionLostText(error.sentBytes, runtime.blob.size, offline)
            : error.message,
        });
        // Offline: the upload goes on by itself once the network is back.
        if (offline)
          window.addEventListener("online", () => get(id)?.status === "interrupted" && upload(id), {
            once: true,
          });
        return;
      }
      runtime.sessionUrl = undefined;
      update(id, { status: "failed", error: `Upload refused: ${errorText(error)}` });
    }
  }

  async function addInline(id: string, blob: Blob): Promise<void> {
    try {
      const data = await base64Of(blob);
      update(id, { status: "inline", inlineData: data, sentBytes: blob.size });
    } catch (error) {
      update(id, { status: "failed", error: `Could not read the image: ${errorText(error)}` });
    }
  }

  return {
    addFiles(scope, files) {
      store.getState().onDispose(disposeAll);
      const inlineChosen = store.getState().inlineSmallImages;
      for (const local of files) {
        const id = newId();
        const mimeType = mimeTypeOf(local.name, local.type);
        const inline = inlineChosen && canSendInline(mimeType, local.size);
        runtimes.set(id, { blob: local });
        store.getState().add({
          id,
          scope,
          displayName: local.name || "pasted file",
          mimeType,
          sizeBytes: local.size,
          status: "uploading",
          sentBytes: 0,
          preview: previewOf(id, local, mimeType),
          startedAt: Date.now(),
        });
        void (inline ? addInline(id, local) : upload(id));
      }
    },
    attachExisting(scope, file) {
      store.getState().onDispose(disposeAll);
      const already = store
        .getState()
        .attachments.find((item) => item.scope === scope && item.file?.name === file.name);
      if (already) return;
      const id = newId();
      runtimes.set(id, {});
      store.getState().add({
        id,
        scope,
        displayName: file.displayName || file.name,
        mimeType: file.mimeType,
        sizeBytes: Number(file.sizeBytes) || 0,
        status: statusOfFile(file),
        sentBytes: Number(file.sizeBytes) || 0,
        preview: { kind: previewKindOf(file.mimeType) },
        startedAt: Date.now(),
      });
      applyFile(id, file, 0);
    },
    remove: forget,
    resume(id) {
      if (get(id)?.status === "interrupted") void upload(id);
    },
    clear(scope, options) {
      for (const item of store
        .getState()
        .attachments.filter((attachment) => attachment.scope === scope)) {
        const url = item.preview.objectUrl;
        if (options?.keepMedia && url && item.file) {
          store.getState().keepSentMedia(item.file.name, url);
          update(item.id, { preview: { ...item.preview, objectUrl: undefined } });
        }
        forget(item.id);
      }
    },
  };
}

const uploaders = new WeakMap<StoreApi<AttachmentsStore>, Uploader>();

/** The uploader of this page's attachments store: one per store. */
export function useUploader(): Uploader {
  const store = useAttachmentsStoreApi();
  const queryClient = useQueryClient();
  return useMemo(() => {
    let uploader = uploaders.get(store);
    if (!uploader) {
      uploader = createUploader(store, queryClient);
      uploaders.set(store, uploader);
    }
    return uploader;
    // The query client is stable for the page's life; the uploader must be too.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);
}
