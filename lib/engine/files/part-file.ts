/**
 * The bytes of an upload on disk: positional writes that finish short writes, a SHA-256
 * carried over a range of a file, the service's spelling of the digest, and a body cut off at a
 * byte limit. Used by the upload sessions (upload-sessions.ts).
 */
import { type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import type { ApiError } from "@/lib/gemini/api-error";

/** base64 of the lower-case hex digest string: the service's (unusual) sha256Hash spelling. */
export function serviceSha256(hash: Hash): string {
  return Buffer.from(hash.digest("hex"), "utf8").toString("base64");
}

export async function exists(target: string): Promise<boolean> {
  try {
    await fs.access(target);
    return true;
  } catch {
    return false;
  }
}

export async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return null;
  }
}

/** Writes every byte of `pieces` at `position`, finishing any short write piece by piece. */
export async function writeAll(
  handle: fs.FileHandle,
  pieces: Uint8Array[],
  position: number,
): Promise<void> {
  const total = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
  let done = (await handle.writev(pieces, position)).bytesWritten;
  if (done === total) return;
  let skip = done;
  for (const piece of pieces) {
    if (skip >= piece.byteLength) {
      skip -= piece.byteLength;
      continue;
    }
    let sent = skip;
    skip = 0;
    while (sent < piece.byteLength) {
      const { bytesWritten } = await handle.write(
        piece,
        sent,
        piece.byteLength - sent,
        position + done,
      );
      sent += bytesWritten;
      done += bytesWritten;
    }
  }
}

/** Adds the bytes `[start, end)` of `file` to `hash`. */
export async function hashFileRange(
  hash: Hash,
  file: string,
  start: number,
  end: number,
): Promise<Hash> {
  if (end <= start) return hash;
  for await (const chunk of createReadStream(file, {
    start,
    end: end - 1,
    highWaterMark: 1024 * 1024,
  })) {
    hash.update(chunk as Buffer);
  }
  return hash;
}

/** `body`, failing with `overflow()` as soon as it carries more than `limit` bytes. */
export function limitBytes(
  body: ReadableStream<Uint8Array>,
  limit: number,
  overflow: () => ApiError,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          seen += value.byteLength;
          if (seen > limit) {
            void reader.cancel().catch(() => undefined);
            return controller.error(overflow());
          }
          controller.enqueue(value);
        } catch (error) {
          controller.error(error);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
