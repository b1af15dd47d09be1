"use client";

import type { QueryClient } from "@tanstack/react-query";
import { ApiError } from "@/lib/gemini/api-error";
import { uploadResumable, UploadInterruptedError } from "@/lib/gemini/client/resumable-upload";
import { isUploadAbort, UploadConnectionError } from "@/lib/gemini/client/upload-transport";
import type { File as WireFile } from "@/lib/gemini/types";
import {
  connectionLostText,
  fileErrorText,
  pollDelayMs,
  statusOfFile,
  type Attachment,
} from "@/lib/studio/attachment-model";
import { getFileRequest } from "./file-requests";
import { fileKeys } from "@/lib/studio/query-keys";

/**
 * The steps of one attachment after it is added: its bytes sent with the resumable protocol
 * (progress into the store; an interrupted upload keeps its session to resume), or read inline;
 * then its file followed until ACTIVE or FAILED, polling with backoff while PROCESSING.
 */

/** What the uploader keeps of an attachment outside the store. */
export interface UploadRuntime {
  blob?: Blob;
  controller?: AbortController;
  sessionUrl?: string;
  pollTimer?: ReturnType<typeof setTimeout>;
}

/** The uploader's state the steps work on. */
export interface UploadContext {
  runtimes: Map<string, UploadRuntime>;
  get(id: string): Attachment | undefined;
  /** Changes an attachment still attached (a removed one is left alone). */
  update(id: string, change: Partial<Attachment>): void;
  queryClient?: QueryClient;
}

/** Store updates of upload progress at most this often (XHR reports every few ms at local speed). */
const PROGRESS_INTERVAL_MS = 80;

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

/** Shows the file's state; a PROCESSING one is polled until it is ACTIVE or FAILED. */
export function applyFile(
  context: UploadContext,
  id: string,
  file: WireFile,
  pollAttempt: number,
): void {
  const { get, update, queryClient } = context;
  const status = statusOfFile(file);
  update(id, {
    file,
    status,
    sentBytes: Number(file.sizeBytes) || get(id)?.sizeBytes || 0,
    error: status === "failed" ? fileErrorText(file) : undefined,
  });
  if (status === "processing") poll(context, id, file.name, pollAttempt);
  else void queryClient?.invalidateQueries({ queryKey: fileKeys.lists() });
}

function poll(context: UploadContext, id: string, name: string, attempt: number): void {
  const { runtimes, update } = context;
  const runtime = runtimes.get(id);
  if (!runtime) return;
  runtime.pollTimer = setTimeout(async () => {
    const controller = new AbortController();
    runtime.controller = controller;
    try {
      const file = await getFileRequest(name, controller.signal);
      if (runtimes.get(id) !== runtime) return;
      applyFile(context, id, file, attempt + 1);
    } catch (error) {
      if (controller.signal.aborted || runtimes.get(id) !== runtime) return;
      if (error instanceof ApiError && (error.httpStatus === 403 || error.httpStatus === 404)) {
        update(id, {
          status: "failed",
          error: `The file is no longer available: ${error.message}`,
        });
        return;
      }
      poll(context, id, name, attempt + 1);
    }
  }, pollDelayMs(attempt));
}

/** Sends an attachment's bytes (resuming its session when it has one), then follows the file. */
export async function sendBytes(context: UploadContext, id: string): Promise<void> {
  const { runtimes, get, update, queryClient } = context;
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
    applyFile(context, id, file, 0);
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
        window.addEventListener(
          "online",
          () => get(id)?.status === "interrupted" && sendBytes(context, id),
          { once: true },
        );
      return;
    }
    runtime.sessionUrl = undefined;
    update(id, { status: "failed", error: `Upload refused: ${errorText(error)}` });
  }
}

/** Reads a small image to be sent inline (base64) rather than uploaded. */
export async function readInline(context: UploadContext, id: string, blob: Blob): Promise<void> {
  const { update } = context;
  try {
    const data = await base64Of(blob);
    update(id, { status: "inline", inlineData: data, sentBytes: blob.size });
  } catch (error) {
    update(id, { status: "failed", error: `Could not read the image: ${errorText(error)}` });
  }
}
