"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import type { StoreApi } from "zustand";
import {
  canSendInline,
  mimeTypeOf,
  previewKindOf,
  statusOfFile,
  TEXT_SNIPPET_CHARACTERS,
  type Attachment,
  type AttachmentPreview,
} from "@/lib/studio/attachment-model";
import type { File as WireFile } from "@/lib/gemini/types";
import { useAttachmentsStoreApi, type AttachmentsStore } from "@/lib/stores/attachments-store";
import { localPreview } from "@/lib/client/attachment-preview";
import {
  applyFile,
  readInline,
  sendBytes,
  type UploadContext,
  type UploadRuntime,
} from "@/lib/client/attachment-upload";

/**
 * What happens to an attached file: its preview is made from the local bytes, the bytes go up
 * with the resumable protocol (progress into the store), and a PROCESSING file is polled with
 * backoff until it is ACTIVE or FAILED. The bytes, abort controllers and session URLs stay in
 * this closure, outside the store. Each attachment's steps (send, read inline, follow the file)
 * are attachment-upload.ts, its preview attachment-preview.ts.
 */

export interface Uploader {
  /** Attaches local files: each is uploaded (or read inline when chosen and small enough). */
  addFiles(scope: string, files: readonly globalThis.File[]): void;
  /** Attaches a file that is already on the server (from the Files page). */
  attachExisting(scope: string, file: WireFile): void;
  /** Attaches a long paste as text sent with the prompt (never uploaded). */
  addText(scope: string, text: string, displayName: string): void;
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

function newId(): string {
  return `attachment-${crypto.getRandomValues(new Uint32Array(2)).join("-")}`;
}

/**
 * The uploader bound to one attachments store. A factory whose closure is its state: each
 * attachment's runtime, shared by the entry points below.
 */
function createUploader(store: StoreApi<AttachmentsStore>, queryClient?: QueryClient): Uploader {
  const runtimes = new Map<string, UploadRuntime>();

  const get = (id: string): Attachment | undefined =>
    store.getState().attachments.find((item) => item.id === id);
  const update = (id: string, change: Partial<Attachment>) => {
    if (get(id)) store.getState().update(id, change);
  };
  const context: UploadContext = { runtimes, get, update, queryClient };

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
    return localPreview(blob, mimeType, {
      merge(facts) {
        const preview = get(id)?.preview;
        if (preview) update(id, { preview: { ...preview, ...facts } });
      },
      replace: (preview) => update(id, { preview }),
    });
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
        void (inline ? readInline(context, id, local) : sendBytes(context, id));
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
      applyFile(context, id, file, 0);
    },
    addText(scope, text, displayName) {
      const id = newId();
      runtimes.set(id, {});
      store.getState().add({
        id,
        scope,
        displayName,
        mimeType: "text/plain",
        sizeBytes: new TextEncoder().encode(text).length,
        status: "inline",
        sentBytes: 0,
        text,
        preview: { kind: "text", textSnippet: text.slice(0, TEXT_SNIPPET_CHARACTERS) },
        startedAt: Date.now(),
      });
    },
    remove: forget,
    resume(id) {
      if (get(id)?.status === "interrupted") void sendBytes(context, id);
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
