/**
 * A session's bytes on disk kept in step with its record: `receiveBody` streams a chunk onto
 * the end of the partial file while hashing it, `reconcile` makes the file agree with the
 * recorded size after a crash or after chunks another instance received.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import { ApiError } from "@/lib/gemini/api-error";
import type { FileStore, UploadSessionRecord } from "@/lib/db/stores/file-store";
import { drainStream } from "@/lib/runtime/drain-stream";
import { exists, hashFileRange, sizeOf, writeAll } from "./part-file";
import type { LiveSession } from "./session-claims";
import { bodyEndedEarly, tooManyBytes } from "./upload-errors";

const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const WRITE_BATCH_BYTES = 1024 * 1024;

export interface SessionFiles {
  store: Pick<FileStore, "getFile" | "setReceived">;
  now: () => number;
  /** The partial file, `DATA_DIR/uploads/{fileId}.part`. */
  part: string;
  /** Where the whole file goes, `DATA_DIR/files/{fileId}`. */
  whole: string;
}

/**
 * Makes the bytes on disk agree with the recorded received size: after a crash the file may
 * hold the start of a chunk that was never acknowledged (cut off), or the finished file may
 * already have been renamed. A hash this process holds is carried forward over the bytes
 * other instances added since (read once, never the whole file again).
 */
export async function reconcile(
  session: UploadSessionRecord,
  live: LiveSession,
  { store, now, part, whole }: SessionFiles,
): Promise<void> {
  if (live.hash !== null) {
    const size = await sizeOf(part);
    if (size !== null && size >= session.receivedSize && live.hashedSize <= session.receivedSize) {
      if (size > session.receivedSize) await fs.truncate(part, session.receivedSize);
      await hashFileRange(live.hash, part, live.hashedSize, session.receivedSize);
      live.hashedSize = session.receivedSize;
      return;
    }
    live.hash = null;
  }
  if (!(await exists(part))) {
    if ((await exists(whole)) && !(await store.getFile(session.fileId)))
      await fs.rename(whole, part);
    else await fs.writeFile(part, new Uint8Array(0));
  }
  const size = (await fs.stat(part)).size;
  if (size > session.receivedSize) await fs.truncate(part, session.receivedSize);
  if (size < session.receivedSize) {
    session.receivedSize = size;
    await store.setReceived(session.id, size, now());
  }
  live.hash = await hashFileRange(createHash("sha256"), part, 0, session.receivedSize);
  live.hashedSize = session.receivedSize;
}

/**
 * Streams a body onto the end of the partial file, hashing as it goes. Too many bytes
 * discard the whole chunk; a body cut off midway keeps what arrived, so `query` and a
 * resumed upload continue from there. One sequence on purpose: the order of write, hash,
 * truncate and record is what keeps a session resumable whatever fails midway.
 */
export async function receiveBody(
  session: UploadSessionRecord,
  live: LiveSession,
  body: ReadableStream<Uint8Array>,
  { store, now, part }: SessionFiles,
  signal?: AbortSignal,
): Promise<void> {
  const start = session.receivedSize;
  const room = session.declaredSize - start;
  const hashBefore = live.hash!.copy();
  const handle = await fs.open(part, "r+");
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
        throw tooManyBytes(session, start + written + batchBytes + value.byteLength);
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
      await store.setReceived(session.id, session.receivedSize, now());
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
    throw bodyEndedEarly(written, session.receivedSize);
  }
}
