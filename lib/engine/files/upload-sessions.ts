/**
 * The resumable upload protocol of the spec (start, then chunks with `upload` / `upload,
 * finalize` and offsets, `query`, `cancel`): bytes stream to `DATA_DIR/uploads/{id}.part`
 * while SHA-256 is computed, and the file appears under `DATA_DIR/files/` only when whole.
 * Differs knowingly: non-final chunks need not be multiples of the advertised granularity,
 * and a finalize with fewer bytes than declared is refused rather than shortening the file.
 * This module is the session's state machine; one request at a time per session is
 * session-claims.ts, the bytes on disk session-bytes.ts, the refusals' words upload-errors.ts.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { ApiError } from "@/lib/gemini/api-error";
import type { FileRecord, FileStore, UploadSessionRecord } from "@/lib/db/stores/file-store";
import type { UploadChunkRequest } from "@/lib/gemini/backend/contract";
import { randomResourceId, randomUploadId } from "./random-id";
import { limitBytes, serviceSha256 } from "./part-file";
import { receiveBody, reconcile, type SessionFiles } from "./session-bytes";
import { SessionClaims, type LiveSession } from "./session-claims";
import {
  alreadyFinalized,
  cancelledSession,
  emptyFile,
  fileNameTaken,
  fileTooLarge,
  finalizeIncomplete,
  offsetMismatch,
  offsetRequired,
  quotaExceeded,
  quotaExhausted,
  quotaOutgrown,
  tooManyBytes,
  unknownSession,
} from "./upload-errors";
import { checkUploadStart, type UploadStartInput } from "./upload-start";

/** Largest file accepted: 2 GB, as the service. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024;
/** Default storage per owner (files plus open uploads): 20 GB, as the service's per-project limit. */
export const DEFAULT_FILE_QUOTA_BYTES = 20 * 1024 * 1024 * 1024;
/** An upload session, and any bytes it holds, is kept this long after it starts. */
export const UPLOAD_SESSION_LIFETIME_MS = 48 * 3_600_000;
/** Files expire 48 h after creation. */
export const FILE_LIFETIME_MS = 48 * 3_600_000;
/**
 * Id prefix of the sessions behind single-request (multipart) uploads. Issued upload ids are
 * base64url and never hold a dot, so no upload URL can reach one, and start-up can tell the
 * ones a crash interrupted (nobody can resume them) and drop them with their reservation.
 */
const WHOLE_UPLOAD_PREFIX = "whole.";
/**
 * Resumable sessions started without X-Goog-Upload-Header-Content-Length (the service accepts
 * that; recorded): they reserve what the owner may still store, up to the size limit, and the
 * file takes the size received when the client finalizes.
 */
const OPEN_LENGTH_PREFIX = "open.";

export interface WholeUploadInput extends Omit<UploadStartInput, "declaredSize"> {
  /** Most bytes the request's body can still hold, when it declared its length. */
  maxLength?: number;
}

export interface UploadState {
  status: "active" | "final" | "cancelled";
  sizeReceived: number;
  /** The stored file once final (absent if it was deleted since). */
  file?: FileRecord;
}

export interface UploadSessionsOptions {
  store: FileStore;
  dataDir: string;
  now: () => number;
  quotaBytes: number;
  maxFileBytes?: number;
  /** Called once a file is whole and recorded PROCESSING: starts the lifecycle step. */
  onFinalized: (file: FileRecord) => void;
}

/** Resumable upload sessions over the file store and the data directory. */
export class UploadSessions {
  private readonly claims: SessionClaims;
  private readonly store: FileStore;
  private readonly now: () => number;
  private readonly maxFileBytes: number;
  readonly uploadsDir: string;
  readonly filesDir: string;

  constructor(private readonly options: UploadSessionsOptions) {
    this.store = options.store;
    this.claims = new SessionClaims(options.store);
    this.now = options.now;
    this.maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
    this.uploadsDir = path.join(options.dataDir, "uploads");
    this.filesDir = path.join(options.dataDir, "files");
  }

  partPath(fileId: string): string {
    return path.join(this.uploadsDir, `${fileId}.part`);
  }

  filePath(fileId: string): string {
    return path.join(this.filesDir, fileId);
  }

  /** Opens a session after checking the declared size, type, name and the owner's quota. */
  async start(input: UploadStartInput, idPrefix = ""): Promise<UploadSessionRecord> {
    if (input.declaredSize === undefined) {
      const room =
        this.options.quotaBytes - (await this.store.usedBytes(input.ownerId, this.now()));
      const bound = Math.min(this.maxFileBytes, room);
      if (bound <= 0) throw quotaExhausted(this.options.quotaBytes);
      return this.start({ ...input, declaredSize: bound }, OPEN_LENGTH_PREFIX);
    }
    const { declaredSize, mimeType, fileId } = checkUploadStart(input, this.maxFileBytes);
    const now = this.now();
    const session: UploadSessionRecord = {
      id: idPrefix + randomUploadId(),
      ownerId: input.ownerId,
      fileId: fileId ?? "",
      displayName: input.displayName ?? null,
      mimeType,
      declaredSize,
      receivedSize: 0,
      status: "active",
      createdAt: now,
      updatedAt: now,
      expiresAt: now + UPLOAD_SESSION_LIFETIME_MS,
    };
    await fs.mkdir(this.uploadsDir, { recursive: true });
    const refusal = await this.store.reserveSession(session, {
      quotaBytes: this.options.quotaBytes,
      ...(fileId !== undefined ? { requestedFileId: fileId } : {}),
      drawFileId: randomResourceId,
    });
    if (refusal?.reason === "quota")
      throw quotaExceeded(refusal.usedBytes, declaredSize, this.options.quotaBytes);
    if (refusal?.reason === "name taken") throw fileNameTaken(fileId!);
    await fs.writeFile(this.partPath(session.fileId), new Uint8Array(0));
    this.claims.opened(session.id);
    return session;
  }

  /** Receives one chunk (and/or finalizes). Never leaves a partial file visible. */
  async chunk(
    uploadId: string,
    input: UploadChunkRequest,
    signal?: AbortSignal,
  ): Promise<UploadState> {
    const session = await this.activeSession(uploadId, input.upload ? "upload" : "finalize");
    if (input.offset === undefined) throw offsetRequired();
    const live = await this.claims.claim(session.id);
    try {
      await reconcile(session, live, this.sessionFiles(session));
      if (input.offset !== session.receivedSize)
        throw offsetMismatch(input.offset, session.receivedSize);
      if (
        input.contentLength !== undefined &&
        input.contentLength > session.declaredSize - session.receivedSize
      ) {
        throw tooManyBytes(session, session.receivedSize + input.contentLength);
      }
      if (input.upload && input.body)
        await receiveBody(session, live, input.body, this.sessionFiles(session), signal);
      if (!input.finalize) return { status: "active", sizeReceived: session.receivedSize };
      if (session.id.startsWith(OPEN_LENGTH_PREFIX)) {
        if (session.receivedSize === 0) throw emptyFile("X-Goog-Upload-Command");
        session.declaredSize = session.receivedSize;
      }
      if (session.receivedSize !== session.declaredSize) throw finalizeIncomplete(session);
      const file = await this.finalize(session, live);
      return { status: "final", sizeReceived: session.declaredSize, file };
    } finally {
      await this.claims.unclaim(live);
    }
  }

  /**
   * Stores a whole file sent in one request (multipart). A session no client can address
   * reserves the most the body can hold; the bytes stream in as a chunk's do (hashed, never
   * held whole), and the file is recorded at its real size. Any failure, a malformed body
   * included, removes the session and its bytes: nothing is half-stored.
   */
  async storeWhole(
    input: WholeUploadInput,
    body: ReadableStream<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<FileRecord> {
    const { maxLength, ...start } = input;
    let bound: number;
    let overflow: () => ApiError;
    if (maxLength !== undefined) {
      bound = Math.min(maxLength, this.maxFileBytes);
      overflow = () => fileTooLarge(this.maxFileBytes);
    } else {
      // No declared length: reserve what the owner may still store, up to the size limit.
      const room =
        this.options.quotaBytes - (await this.store.usedBytes(input.ownerId, this.now()));
      bound = Math.min(this.maxFileBytes, room);
      overflow =
        bound === this.maxFileBytes
          ? () => fileTooLarge(this.maxFileBytes)
          : () => quotaOutgrown(room, this.options.quotaBytes);
      if (bound <= 0) throw overflow();
    }
    if (bound <= 0) throw emptyFile("media");
    const session = await this.start({ ...start, declaredSize: bound }, WHOLE_UPLOAD_PREFIX);
    const live = await this.claims.claim(session.id);
    try {
      const limited = limitBytes(body, bound, overflow);
      await receiveBody(session, live, limited, this.sessionFiles(session), signal);
      if (session.receivedSize === 0) throw emptyFile("media");
      session.declaredSize = session.receivedSize;
      return await this.finalize(session, live);
    } catch (error) {
      await this.store.deleteSession(session.id);
      this.claims.forget(session.id);
      await fs.rm(this.partPath(session.fileId), { force: true });
      throw error;
    } finally {
      await this.claims.unclaim(live);
    }
  }

  /**
   * Start-up: drops the sessions of single-request uploads a stop interrupted (their client
   * got no answer and cannot resume), releasing their reservation and bytes.
   */
  async dropInterruptedWholeUploads(): Promise<void> {
    for (const session of await this.store.activeSessionsWithIdPrefix(WHOLE_UPLOAD_PREFIX)) {
      if (this.claims.known(session.id)) continue;
      // Still being received by another instance: its claim says so.
      const release = await this.store.claimSession(session.id);
      if (!release) continue;
      try {
        await this.store.deleteSession(session.id);
        await fs.rm(this.partPath(session.fileId), { force: true });
      } finally {
        await release();
      }
    }
  }

  /** The session's status and received size (and the file once final). */
  async query(uploadId: string): Promise<UploadState> {
    const session = await this.existingSession(uploadId);
    if (session.status === "cancelled") throw cancelledSession();
    if (session.status === "final") return this.finalState(session);
    // Once reconciled (or while a chunk is being received) the database's count is the truth.
    const known = this.claims.known(session.id);
    if (known && (known.busy || known.hash !== null))
      return { status: "active", sizeReceived: session.receivedSize };
    // Busy on another instance: the count it last recorded is the answer.
    const live = await this.claims.claimIfFree(session.id);
    if (!live) return { status: "active", sizeReceived: session.receivedSize };
    try {
      await reconcile(session, live, this.sessionFiles(session));
    } finally {
      await this.claims.unclaim(live);
    }
    return { status: "active", sizeReceived: session.receivedSize };
  }

  /** Ends a session and deletes its bytes. */
  async cancel(uploadId: string): Promise<UploadState> {
    const session = await this.activeSession(uploadId, "cancel");
    const live = await this.claims.claim(session.id);
    try {
      await this.store.setSessionStatus(session.id, "cancelled", this.now());
      this.claims.forget(session.id);
      await fs.rm(this.partPath(session.fileId), { force: true });
    } finally {
      await this.claims.unclaim(live);
    }
    return { status: "cancelled", sizeReceived: session.receivedSize };
  }

  /**
   * Start-up and periodic housekeeping: forgets expired sessions with their bytes, and
   * removes partial bytes no open session owns (a crash between two steps can leave some).
   */
  async sweep(): Promise<void> {
    const now = this.now();
    for (const session of await this.store.expiredSessions(now)) {
      const live = await this.claims.claimIfFree(session.id);
      if (!live) continue;
      try {
        await this.store.deleteSession(session.id);
        this.claims.forget(session.id);
        if (session.status === "active")
          await fs.rm(this.partPath(session.fileId), { force: true });
      } finally {
        await this.claims.unclaim(live);
      }
    }
    let entries: string[] = [];
    try {
      entries = await fs.readdir(this.uploadsDir);
    } catch {
      return;
    }
    // Read after the listing: a session's row is written before its bytes, so every part
    // file listed belongs to a row this sees.
    const open = await this.store.activeSessionFileIds();
    for (const entry of entries) {
      const fileId = entry.endsWith(".part") ? entry.slice(0, -".part".length) : null;
      if (fileId !== null && open.has(fileId)) continue;
      await fs.rm(path.join(this.uploadsDir, entry), { force: true });
    }
  }

  private sessionFiles(session: UploadSessionRecord): SessionFiles {
    return {
      store: this.store,
      now: this.now,
      part: this.partPath(session.fileId),
      whole: this.filePath(session.fileId),
    };
  }

  private async existingSession(uploadId: string): Promise<UploadSessionRecord> {
    const session =
      uploadId && !uploadId.startsWith(WHOLE_UPLOAD_PREFIX)
        ? await this.store.getSession(uploadId)
        : undefined;
    if (!session || session.expiresAt <= this.now()) throw unknownSession();
    return session;
  }

  private async activeSession(uploadId: string, command: string): Promise<UploadSessionRecord> {
    const session = await this.existingSession(uploadId);
    if (session.status === "cancelled") throw cancelledSession();
    if (session.status === "final") throw alreadyFinalized(session, command);
    return session;
  }

  private async finalize(session: UploadSessionRecord, live: LiveSession): Promise<FileRecord> {
    const now = this.now();
    const file: FileRecord = {
      id: session.fileId,
      ownerId: session.ownerId,
      displayName: session.displayName,
      mimeType: session.mimeType,
      sizeBytes: session.declaredSize,
      sha256Hash: serviceSha256(live.hash!),
      state: "PROCESSING",
      source: "UPLOADED",
      error: null,
      probe: null,
      createTime: now,
      updateTime: now,
      expireTime: now + FILE_LIFETIME_MS,
    };
    await fs.mkdir(this.filesDir, { recursive: true });
    const part = this.partPath(session.fileId);
    const whole = this.filePath(session.fileId);
    // Flushed before it is renamed and recorded: an ACTIVE file survives a power cut. Chunks
    // are not flushed one by one; after a crash, reconcile() trusts only what is on disk.
    const handle = await fs.open(part, "r+");
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await fs.rename(part, whole);
    try {
      await this.store.finalizeSession(session.id, file, now);
    } catch (error) {
      await fs.rename(whole, part).catch(() => undefined);
      throw error;
    }
    session.status = "final";
    this.claims.forget(session.id);
    this.options.onFinalized(file);
    // As recorded: PROCESSING. FileService waits briefly for quick probes and reads it again.
    return file;
  }

  private async finalState(session: UploadSessionRecord): Promise<UploadState> {
    const file = await this.store.getFile(session.fileId);
    return file
      ? { status: "final", sizeReceived: session.declaredSize, file }
      : { status: "final", sizeReceived: session.declaredSize };
  }
}
