/**
 * The resumable upload protocol of the spec (start, then chunks with `upload` / `upload,
 * finalize` and offsets, `query`, `cancel`): bytes stream to `DATA_DIR/uploads/{id}.part`
 * while SHA-256 is computed, and the file appears under `DATA_DIR/files/` only when whole.
 * Differs knowingly: non-final chunks need not be multiples of the advertised granularity,
 * and a finalize with fewer bytes than declared is refused rather than shortening the file.
 */
import { createHash, type Hash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { ApiError } from "@/lib/gemini/api-error";
import type { FileRecord, FileStore, UploadSessionRecord } from "@/lib/db/stores/file-store";
import type { UploadChunkRequest } from "@/lib/gemini/backend/contract";
import { randomResourceId, randomUploadId } from "./random-id";
import { drainStream } from "./drain-stream";
import { exists, hashFileRange, limitBytes, serviceSha256, sizeOf, writeAll } from "./part-file";
import { checkUploadStart, invalid, LENGTH_HEADER, type UploadStartInput } from "./upload-start";

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

const OFFSET_HEADER = "X-Goog-Upload-Offset (or X-Svc-Upload-Offset)";
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

interface LiveSession {
  /** Bytes `hash` covers; another instance may have taken the session further since. */
  hashedSize: number;
  /** The session's claim across instances while `busy`. */
  release: (() => Promise<void>) | null;
  /** SHA-256 of the bytes received so far; null until needed after a restart. */
  hash: Hash | null;
  busy: boolean;
}

function unknownSession(): ApiError {
  return invalid(
    "Unknown upload session: this upload_id was never issued, has expired or belongs to a deleted upload. Start a new upload with the command `start`.",
    "upload_id",
  );
}

const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const WRITE_BATCH_BYTES = 1024 * 1024;

/** Resumable upload sessions over the file store and the data directory. */
export class UploadSessions {
  private readonly live = new Map<string, LiveSession>();
  private readonly store: FileStore;
  private readonly now: () => number;
  private readonly maxFileBytes: number;
  readonly uploadsDir: string;
  readonly filesDir: string;

  constructor(private readonly options: UploadSessionsOptions) {
    this.store = options.store;
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
      if (bound <= 0) {
        throw new ApiError(
          429,
          "RESOURCE_EXHAUSTED",
          `File storage quota exceeded: nothing is left of the ${this.options.quotaBytes}-byte limit. Delete files or let them expire.`,
        );
      }
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
    if (refusal?.reason === "quota") throw this.quotaExceeded(refusal.usedBytes, declaredSize);
    if (refusal?.reason === "name taken")
      throw new ApiError(409, "ALREADY_EXISTS", `File files/${fileId} already exists.`);
    await fs.writeFile(this.partPath(session.fileId), new Uint8Array(0));
    this.live.set(session.id, {
      hash: createHash("sha256"),
      hashedSize: 0,
      busy: false,
      release: null,
    });
    return session;
  }

  /** Receives one chunk (and/or finalizes). Never leaves a partial file visible. */
  async chunk(
    uploadId: string,
    input: UploadChunkRequest,
    signal?: AbortSignal,
  ): Promise<UploadState> {
    const session = await this.activeSession(uploadId, input.upload ? "upload" : "finalize");
    if (input.offset === undefined) {
      throw invalid(
        `${OFFSET_HEADER} is required with the upload and finalize commands: it is the number of bytes already sent.`,
        "X-Goog-Upload-Offset",
      );
    }
    const live = await this.claim(session.id);
    try {
      await this.reconcile(session, live);
      if (input.offset !== session.receivedSize) {
        throw invalid(
          `${OFFSET_HEADER} is ${input.offset}, but the session has received ${session.receivedSize} bytes. Send the bytes from offset ${session.receivedSize} (the query command tells the received size).`,
          "X-Goog-Upload-Offset",
        );
      }
      if (
        input.contentLength !== undefined &&
        input.contentLength > session.declaredSize - session.receivedSize
      ) {
        throw this.tooManyBytes(session, session.receivedSize + input.contentLength);
      }
      if (input.upload && input.body) await this.receive(session, live, input.body, signal);
      if (!input.finalize) return { status: "active", sizeReceived: session.receivedSize };
      if (session.id.startsWith(OPEN_LENGTH_PREFIX)) {
        if (session.receivedSize === 0)
          throw invalid(
            "The file is empty: zero-byte files cannot be uploaded.",
            "X-Goog-Upload-Command",
          );
        session.declaredSize = session.receivedSize;
      }
      if (session.receivedSize !== session.declaredSize) {
        throw invalid(
          `Cannot finalize: ${session.receivedSize} of the ${session.declaredSize} declared bytes have been received. Send the remaining bytes from offset ${session.receivedSize}, then finalize.`,
          "X-Goog-Upload-Command",
        );
      }
      const file = await this.finalize(session, live);
      return { status: "final", sizeReceived: session.declaredSize, file };
    } finally {
      await this.unclaim(live);
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
    const tooLarge = () =>
      invalid(`The file is too large: the limit is ${this.maxFileBytes} bytes per file.`, "media");
    let bound: number;
    let overflow: () => ApiError;
    if (maxLength !== undefined) {
      bound = Math.min(maxLength, this.maxFileBytes);
      overflow = tooLarge;
    } else {
      // No declared length: reserve what the owner may still store, up to the size limit.
      const room =
        this.options.quotaBytes - (await this.store.usedBytes(input.ownerId, this.now()));
      bound = Math.min(this.maxFileBytes, room);
      overflow =
        bound === this.maxFileBytes
          ? tooLarge
          : () =>
              new ApiError(
                429,
                "RESOURCE_EXHAUSTED",
                `File storage quota exceeded: the file is larger than the ${Math.max(0, room)} bytes left of the ${this.options.quotaBytes}-byte limit. Delete files or let them expire.`,
              );
      if (bound <= 0) throw overflow();
    }
    if (bound <= 0)
      throw invalid("The file is empty: zero-byte files cannot be uploaded.", "media");
    const session = await this.start({ ...start, declaredSize: bound }, WHOLE_UPLOAD_PREFIX);
    const live = await this.claim(session.id);
    try {
      await this.receive(session, live, limitBytes(body, bound, overflow), signal);
      if (session.receivedSize === 0)
        throw invalid("The file is empty: zero-byte files cannot be uploaded.", "media");
      session.declaredSize = session.receivedSize;
      return await this.finalize(session, live);
    } catch (error) {
      await this.store.deleteSession(session.id);
      this.live.delete(session.id);
      await fs.rm(this.partPath(session.fileId), { force: true });
      throw error;
    } finally {
      await this.unclaim(live);
    }
  }

  /**
   * Start-up: drops the sessions of single-request uploads a stop interrupted (their client
   * got no answer and cannot resume), releasing their reservation and bytes.
   */
  async dropInterruptedWholeUploads(): Promise<void> {
    for (const session of await this.store.activeSessionsWithIdPrefix(WHOLE_UPLOAD_PREFIX)) {
      if (this.live.has(session.id)) continue;
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
    if (session.status === "cancelled") throw this.cancelledError();
    if (session.status === "final") return this.finalState(session);
    // Once reconciled (or while a chunk is being received) the database's count is the truth.
    const known = this.live.get(session.id);
    if (known && (known.busy || known.hash !== null))
      return { status: "active", sizeReceived: session.receivedSize };
    // Busy on another instance: the count it last recorded is the answer.
    const live = await this.claimIfFree(session.id);
    if (!live) return { status: "active", sizeReceived: session.receivedSize };
    try {
      await this.reconcile(session, live);
    } finally {
      await this.unclaim(live);
    }
    return { status: "active", sizeReceived: session.receivedSize };
  }

  /** Ends a session and deletes its bytes. */
  async cancel(uploadId: string): Promise<UploadState> {
    const session = await this.activeSession(uploadId, "cancel");
    const live = await this.claim(session.id);
    try {
      await this.store.setSessionStatus(session.id, "cancelled", this.now());
      this.live.delete(session.id);
      await fs.rm(this.partPath(session.fileId), { force: true });
    } finally {
      await this.unclaim(live);
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
      const live = await this.claimIfFree(session.id);
      if (!live) continue;
      try {
        await this.store.deleteSession(session.id);
        this.live.delete(session.id);
        if (session.status === "active")
          await fs.rm(this.partPath(session.fileId), { force: true });
      } finally {
        await this.unclaim(live);
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
    if (session.status === "cancelled") throw this.cancelledError();
    if (session.status === "final") {
      throw invalid(
        `The upload session is already finalized (files/${session.fileId}); the ${command} command is not allowed. Start a new upload to send other bytes.`,
        "X-Goog-Upload-Command",
      );
    }
    return session;
  }

  private quotaExceeded(used: number, requested: number): ApiError {
    return new ApiError(
      429,
      "RESOURCE_EXHAUSTED",
      `File storage quota exceeded: ${used} bytes are stored or reserved by open uploads, ${requested} more were requested, and the limit is ${this.options.quotaBytes} bytes. Delete files or let them expire.`,
    );
  }

  private cancelledError(): ApiError {
    return invalid("The upload session was cancelled; start a new upload.", "upload_id");
  }

  /**
   * The session for this request alone, or null when another request (here or on another
   * instance) is using it. The claim across instances dies with its holder, so a session an
   * instance was killed in the middle of is free again at once.
   */
  private async claimIfFree(sessionId: string): Promise<LiveSession | null> {
    let live = this.live.get(sessionId);
    if (!live) {
      live = { hash: null, hashedSize: 0, busy: false, release: null };
      this.live.set(sessionId, live);
    }
    if (live.busy) return null;
    live.busy = true;
    try {
      live.release = await this.store.claimSession(sessionId);
    } catch (error) {
      live.busy = false;
      throw error;
    }
    if (live.release === null) {
      live.busy = false;
      return null;
    }
    return live;
  }

  private async claim(sessionId: string): Promise<LiveSession> {
    const live = await this.claimIfFree(sessionId);
    if (live) return live;
    throw new ApiError(
      409,
      "ABORTED",
      "Another request is using this upload session right now; wait for it to finish, then query the received size.",
    );
  }

  private async unclaim(live: LiveSession): Promise<void> {
    const release = live.release;
    live.release = null;
    live.busy = false;
    await release?.().catch(() => undefined);
  }

  /**
   * Makes the bytes on disk agree with the recorded received size: after a crash the file may
   * hold the start of a chunk that was never acknowledged (cut off), or the finished file may
   * already have been renamed. A hash this process holds is carried forward over the bytes
   * other instances added since (read once, never the whole file again).
   */
  private async reconcile(session: UploadSessionRecord, live: LiveSession): Promise<void> {
    const part = this.partPath(session.fileId);
    if (live.hash !== null) {
      const size = await sizeOf(part);
      if (
        size !== null &&
        size >= session.receivedSize &&
        live.hashedSize <= session.receivedSize
      ) {
        if (size > session.receivedSize) await fs.truncate(part, session.receivedSize);
        await hashFileRange(live.hash, part, live.hashedSize, session.receivedSize);
        live.hashedSize = session.receivedSize;
        return;
      }
      live.hash = null;
    }
    if (!(await exists(part))) {
      const whole = this.filePath(session.fileId);
      if ((await exists(whole)) && !(await this.store.getFile(session.fileId)))
        await fs.rename(whole, part);
      else await fs.writeFile(part, new Uint8Array(0));
    }
    const size = (await fs.stat(part)).size;
    if (size > session.receivedSize) await fs.truncate(part, session.receivedSize);
    if (size < session.receivedSize) {
      session.receivedSize = size;
      await this.store.setReceived(session.id, size, this.now());
    }
    live.hash = await hashFileRange(createHash("sha256"), part, 0, session.receivedSize);
    live.hashedSize = session.receivedSize;
  }

  private tooManyBytes(session: UploadSessionRecord, attempted: number): ApiError {
    return invalid(
      `The upload sends more bytes than declared: ${LENGTH_HEADER} is ${session.declaredSize}, and this chunk would bring the total to ${attempted}. The chunk was discarded; the session still holds ${session.receivedSize} bytes.`,
      "X-Goog-Upload-Header-Content-Length",
    );
  }

  /**
   * Streams a body onto the end of the partial file, hashing as it goes. Too many bytes
   * discard the whole chunk; a body cut off midway keeps what arrived, so `query` and a
   * resumed upload continue from there.
   */
  private async receive(
    session: UploadSessionRecord,
    live: LiveSession,
    body: ReadableStream<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<void> {
    const start = session.receivedSize;
    const room = session.declaredSize - start;
    const hashBefore = live.hash!.copy();
    const handle = await fs.open(this.partPath(session.fileId), "r+");
    const reader = body.getReader();
    let written = 0;
    // Pieces arrive at 16–64 KiB; they are written in batches of about 1 MiB (one writev).
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    // Set while bytes go to disk, so a failure there (a full disk) is told from a body cut off.
    let storing = false;
    const flush = async () => {
      if (batchBytes === 0) return;
      storing = true;
      await writeAll(handle, batch, start + written);
      storing = false;
      for (const piece of batch) live.hash!.update(piece);
      written += batchBytes;
      batch = [];
      batchBytes = 0;
    };
    let failure: unknown;
    let storageFailure = false;
    try {
      for (;;) {
        if (signal?.aborted)
          throw signal.reason ?? new DOMException("The upload was aborted.", "AbortError");
        const { done, value } = await reader.read();
        if (done) break;
        if (value.byteLength === 0) continue;
        if (written + batchBytes + value.byteLength > room)
          throw this.tooManyBytes(session, start + written + batchBytes + value.byteLength);
        batch.push(value);
        batchBytes += value.byteLength;
        if (batchBytes >= WRITE_BATCH_BYTES) await flush();
      }
      await flush();
    } catch (error) {
      failure = error;
      storageFailure = storing;
      // After a refusal or a failure to store, read on (bounded) so the client still sending
      // gets the answer and its connection stays usable; a body the client cut off is dropped.
      if (error instanceof ApiError || storageFailure) void drainStream(reader, DRAIN_LIMIT_BYTES);
      else void reader.cancel().catch(() => undefined);
    }
    try {
      if (failure instanceof ApiError) {
        await handle.truncate(start);
        live.hash = hashBefore;
        written = 0;
      } else if (failure !== undefined && !storageFailure) {
        // Cut off: what did arrive is kept, so the client can resume after it.
        await flush().catch(() => undefined);
      }
    } finally {
      await handle.close();
    }
    if (written > 0) {
      session.receivedSize = start + written;
      try {
        await this.store.setReceived(session.id, session.receivedSize, this.now());
        live.hashedSize = session.receivedSize;
      } catch (error) {
        // The database still holds the old size (a full disk): the next request re-reads the
        // bytes on disk against it instead of trusting this process's hash.
        live.hash = null;
        throw error;
      }
    }
    if (failure instanceof ApiError) throw failure;
    if (failure !== undefined) {
      if (failure instanceof Error && failure.name === "AbortError") throw failure;
      // The server's trouble (a full disk), not a body the client cut off: answered as such.
      if (storageFailure) throw failure;
      throw invalid(
        `The request body ended unexpectedly after ${written} bytes; the session keeps the ${session.receivedSize} bytes received so far. Query the session and resume from there.`,
      );
    }
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
    this.live.delete(session.id);
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
