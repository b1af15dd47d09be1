import "server-only";
import { randomBytes } from "node:crypto";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { UpstreamUploadStore } from "@/lib/db/stores/upstream-upload-store";
import { ApiError } from "@/lib/gemini/api-error";
import type {
  FileSearchUploadStartRequest,
  FileUploadRequest,
  OperationContext,
  OriginOperationContext,
  UploadChunkRequest,
  UploadStartRequest,
  UploadStatus,
} from "@/lib/gemini/backend/contract";
import type { FileSearchOperation } from "@/lib/gemini/file-search-types";
import type { File } from "@/lib/gemini/types";
import { readBodyPieces, type UpstreamClient, type UpstreamResponse } from "./upstream-client";
import { scrubbedJson } from "./scrubbed-json";
import { BatchFileScan, readsAsBatchInput } from "./batch-file-scan";
import { malformedUpstream } from "./upstream-errors";
import { clientFile, FILE_LIFETIME_MS, header, upstreamDeadline } from "./upstream-resources";

/**
 * Uploads through the gateway. A resumable session is the upstream's: the gateway hands out an
 * id of its own for the upstream's session URL (never shown), passes each command on, and keeps
 * the bytes the upstream confirmed so a query needs no upstream call. A multipart upload is
 * forwarded in a body of the gateway's own framing. A finished upload's file is recorded as the
 * uploader's. Every answer is scrubbed (scrubbed-json.ts) like the gateway's other answers.
 */

/** A bytes part's Content-Type worth passing on (type/subtype, optional parameters, one line). */
const MEDIA_TYPE = /^[\w!#$&^.+-]{1,127}\/[\w!#$&^.+-]{1,127}(?:\s*;[^\r\n]{0,200})?$/;
const UPLOAD_API = "/upload/v1beta/files";
/** Cut lines held in memory between an upload's chunks, all sessions together. */
const HELD_SCAN_BYTES = 64 * 1024 * 1024;
/** A store upload's session URL: its final answer is the document's operation, not a file. */
const STORE_UPLOAD = /\/fileSearchStores\/[^/?:]+:uploadToFileSearchStore(?:\?|$)/;

function uploadStatusOf(value: string | undefined): UploadStatus["status"] {
  const status = (value ?? "").toLowerCase();
  if (status === "final") return "final";
  if (status === "cancelled") return "cancelled";
  return "active";
}

export class UpstreamUploads {
  /** Readings of the uploads under way whose chunks come to this instance (batch-file-scan.ts). */
  private readonly scans = new Map<string, BatchFileScan>();

  constructor(
    private readonly client: UpstreamClient,
    private readonly sessions: UpstreamUploadStore,
    private readonly ownership: OwnershipStore,
  ) {}

  async startUpload(
    request: UploadStartRequest,
    context: OperationContext,
  ): Promise<{ uploadId: string }> {
    const session = await this.openSession(UPLOAD_API, { file: request.file }, request, context);
    // A file that may be a batch's input is read as it passes (batch-file-scan.ts).
    if (readsAsBatchInput(request.contentType ?? request.file.mimeType))
      await this.sessions.setScan(session.uploadId, BatchFileScan.start().saved());
    return session;
  }

  /**
   * Keeps a reading for the session's next chunk on this instance (what a cut line too long to
   * keep with the session needs), the oldest let go beyond HELD_SCAN_BYTES in all.
   */
  private holdScan(id: string, scan: BatchFileScan): void {
    this.scans.set(id, scan);
    let held = 0;
    for (const entry of this.scans.values()) held += entry.heldBytes;
    for (const [oldest, entry] of this.scans) {
      if (held <= HELD_SCAN_BYTES) break;
      held -= entry.heldBytes;
      this.scans.delete(oldest);
    }
  }

  /** The reading of a session's bytes that goes on at `offset`; null when none can. */
  private scanAt(session: { id: string; scan: string | null }, offset: number) {
    const held = this.scans.get(session.id);
    this.scans.delete(session.id);
    if (session.scan === null) return null;
    if (held && held.scanned === offset) return held;
    return BatchFileScan.resume(session.scan, offset);
  }

  /** A store upload: `storePath` is the store's checked upstream path (`/v1beta/fileSearchStores/x`). */
  async startStoreUpload(
    storePath: string,
    request: FileSearchUploadStartRequest,
    context: OperationContext,
  ): Promise<{ uploadId: string }> {
    const target = `/upload${storePath}:uploadToFileSearchStore`;
    return this.openSession(target, request.document, request, context);
  }

  private async openSession(
    target: string,
    json: unknown,
    request: { declaredSize?: number; contentType?: string },
    context: OperationContext,
  ): Promise<{ uploadId: string }> {
    const headers: Record<string, string> = {
      "x-goog-upload-protocol": "resumable",
      "x-goog-upload-command": "start",
    };
    if (request.declaredSize !== undefined)
      headers["x-goog-upload-header-content-length"] = String(request.declaredSize);
    if (request.contentType !== undefined)
      headers["x-goog-upload-header-content-type"] = request.contentType;
    // A start only opens a session; an unused one expires, so a retry cannot duplicate a file.
    const response = await this.client.open({
      method: "POST",
      target,
      json,
      headers,
      signal: context.signal,
      safety: "idempotent",
    });
    await response.body.dump().catch(() => undefined);
    const upstreamUrl = header(response, "x-goog-upload-url");
    if (!upstreamUrl || !this.client.isUpstreamUrl(upstreamUrl)) {
      throw malformedUpstream("an upload session URL outside its own origin");
    }
    return { uploadId: await this.sessions.create(context.caller.ownerId, upstreamUrl) };
  }

  private async session(uploadId: string) {
    const session = await this.sessions.find(uploadId);
    if (!session) throw ApiError.notFound("The upload session does not exist or has expired.");
    return session;
  }

  async uploadChunk(
    uploadId: string,
    chunk: UploadChunkRequest,
    context: OriginOperationContext,
  ): Promise<UploadStatus> {
    const session = await this.session(uploadId);
    // Until the upstream answers, what it holds is unknown (a query then asks it), and so is
    // what a reading of the bytes has seen: kept again once the upstream confirms them.
    const scan = this.scanAt(session, chunk.offset ?? session.sizeReceived ?? -1);
    await this.sessions.setReceived(session.id, null, session.scan === null ? undefined : null);
    const command = [chunk.upload ? "upload" : null, chunk.finalize ? "finalize" : null]
      .filter(Boolean)
      .join(", ");
    const headers: Record<string, string> = { "x-goog-upload-command": command };
    if (chunk.offset !== undefined) headers["x-goog-upload-offset"] = String(chunk.offset);
    let sent = 0;
    let body: AsyncIterable<Uint8Array> | undefined;
    if (chunk.body) {
      const reader = chunk.body.getReader();
      body = (async function* count() {
        let finished = false;
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) {
              finished = true;
              return;
            }
            sent += value.byteLength;
            await scan?.push(value);
            yield value;
          }
        } finally {
          // The upstream stopped listening: stop reading the client's bytes too.
          if (!finished) await reader.cancel().catch(() => undefined);
        }
      })();
      if (chunk.contentLength !== undefined)
        headers["content-length"] = String(chunk.contentLength);
    } else {
      headers["content-length"] = "0";
    }
    const response = await this.client.open({
      method: "POST",
      target: session.upstreamUrl,
      body,
      headers,
      signal: context.signal,
      safety: "never",
    });
    return this.uploadAnswer(session, response, (chunk.offset ?? 0) + sent, context, scan);
  }

  private async uploadAnswer(
    session: { id: string; ownerId: string; upstreamUrl: string },
    response: UpstreamResponse,
    fallbackReceived: number,
    context: OriginOperationContext,
    scan: BatchFileScan | null = null,
  ): Promise<UploadStatus> {
    const status = uploadStatusOf(header(response, "x-goog-upload-status"));
    const receivedHeader = Number(header(response, "x-goog-upload-size-received"));
    const answer = await this.scrubbedAnswer(response);
    const sizeReceived =
      Number.isFinite(receivedHeader) &&
      header(response, "x-goog-upload-size-received") !== undefined
        ? receivedHeader
        : fallbackReceived;
    // The reading goes on only where the upstream holds exactly the bytes it read.
    const reading = scan && !scan.broken && scan.scanned === sizeReceived ? scan : null;
    if (status === "active") {
      await this.sessions.setReceived(session.id, sizeReceived, reading?.saved());
      if (reading) this.holdScan(session.id, reading);
    }
    if (status !== "final") return { status, sizeReceived };
    if (STORE_UPLOAD.test(new URL(session.upstreamUrl).pathname + "?")) {
      await this.sessions.delete(session.id);
      return { status, sizeReceived, operation: storeUploadOperation(answer) };
    }
    const file = await this.recordUploadedFile(answer, session.ownerId, await reading?.finish());
    await this.sessions.delete(session.id);
    return {
      status,
      sizeReceived: Number(file.sizeBytes ?? sizeReceived),
      file: clientFile(file, context),
    };
  }

  /**
   * An upload command's answer (empty, a file, a store's operation) read and scrubbed like
   * every other answer of the upstream.
   */
  private async scrubbedAnswer(response: UpstreamResponse): Promise<unknown> {
    const pieces = await readBodyPieces(response.body, 16 * 1024 * 1024);
    return scrubbedJson<unknown>(pieces, this.client.scrub, "an upload answer that is not JSON");
  }

  /**
   * The file of a finished upload's answer `{"file": {...}}`, recorded as the owner's, with
   * what its lines name when they were read as a batch's input.
   */
  private async recordUploadedFile(
    answer: unknown,
    ownerId: string,
    mentions?: string[] | null,
  ): Promise<File> {
    const file = (answer as { file?: File } | null)?.file;
    if (!file || typeof file.name !== "string")
      throw malformedUpstream("a finished upload without its file");
    await this.recordFile(file, ownerId, mentions ?? undefined);
    return file;
  }

  /**
   * A multipart upload, forwarded as one: a multipart body of our own framing (the client's
   * metadata, then its bytes streamed as they arrive, never held whole), so the upstream
   * sees nothing of the client's request but these. When the client's body turns out
   * malformed the upstream request is cut off before its closing boundary (the upstream
   * stores nothing) and the client gets the 400.
   */
  async uploadFile(request: FileUploadRequest, context: OriginOperationContext): Promise<File> {
    const boundary = `genstudio-${randomBytes(18).toString("hex")}`;
    const mediaType =
      request.contentType && MEDIA_TYPE.test(request.contentType)
        ? request.contentType
        : "application/octet-stream";
    const head =
      `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n` +
      `${JSON.stringify({ file: request.file })}\r\n` +
      `--${boundary}\r\nContent-Type: ${mediaType}\r\n\r\n`;
    const reader = request.body.getReader();
    let clientFailure: unknown;
    const scan = readsAsBatchInput(request.contentType ?? request.file.mimeType)
      ? BatchFileScan.start()
      : null;
    const body = (async function* multipart() {
      yield Buffer.from(head, "utf8");
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read().catch((error: unknown) => {
            clientFailure = error;
            throw error;
          });
          if (done) break;
          await scan?.push(value);
          yield value;
        }
        finished = true;
      } finally {
        // The upstream stopped listening: stop reading the client's bytes too.
        if (!finished && clientFailure === undefined) await reader.cancel().catch(() => undefined);
      }
      yield Buffer.from(`\r\n--${boundary}--`, "utf8");
    })();
    let response: UpstreamResponse;
    try {
      response = await this.client.open({
        method: "POST",
        target: UPLOAD_API,
        body,
        headers: {
          "x-goog-upload-protocol": "multipart",
          "content-type": `multipart/related; boundary=${boundary}`,
        },
        signal: context.signal,
        safety: "never",
      });
    } catch (error) {
      throw clientFailure instanceof ApiError ? clientFailure : error;
    }
    const answer = await this.scrubbedAnswer(response);
    const mentions = await scan?.finish();
    return clientFile(
      await this.recordUploadedFile(answer, context.caller.ownerId, mentions),
      context,
    );
  }

  async uploadSessionOwner(uploadId: string): Promise<string | null> {
    return (await this.sessions.find(uploadId))?.ownerId ?? null;
  }

  /**
   * The session's status: answered from what the gateway knows (the bytes the upstream
   * confirmed) without an upstream call, unless a chunk is under way or broke off.
   */
  async queryUpload(uploadId: string, context: OriginOperationContext): Promise<UploadStatus> {
    const session = await this.session(uploadId);
    if (session.sizeReceived !== null)
      return { status: "active", sizeReceived: session.sizeReceived };
    const response = await this.client.open({
      method: "POST",
      target: session.upstreamUrl,
      headers: { "x-goog-upload-command": "query", "content-length": "0" },
      signal: context.signal,
      safety: "idempotent",
    });
    return this.uploadAnswer(session, response, 0, context);
  }

  async cancelUpload(uploadId: string, context: OperationContext): Promise<UploadStatus> {
    const session = await this.session(uploadId);
    const response = await this.client.open({
      method: "POST",
      target: session.upstreamUrl,
      headers: { "x-goog-upload-command": "cancel", "content-length": "0" },
      signal: context.signal,
      safety: "idempotent",
    });
    await response.body.dump().catch(() => undefined);
    this.scans.delete(session.id);
    await this.sessions.delete(session.id);
    return {
      status: "cancelled",
      sizeReceived: Number(header(response, "x-goog-upload-size-received") ?? 0) || 0,
    };
  }

  /** A file's record lasts until its `expirationTime` (48 hours when the answer gives none). */
  private async recordFile(file: File, ownerId: string, mentions?: string[]): Promise<void> {
    await this.ownership.record("file", file.name, ownerId, {
      expiresAt:
        upstreamDeadline(file.expirationTime, file.updateTime ?? file.createTime) ??
        Date.now() + FILE_LIFETIME_MS,
      ...(mentions ? { mentions } : {}),
    });
  }
}

/** A store upload's final answer: the document's operation (its store is already the uploader's). */
function storeUploadOperation(answer: unknown): FileSearchOperation {
  const operation = answer as FileSearchOperation | null;
  if (typeof operation?.name !== "string")
    throw malformedUpstream("a finished store upload without its operation");
  return operation;
}
