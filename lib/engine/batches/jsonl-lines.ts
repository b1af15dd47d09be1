/**
 * Reads a JSONL batch input as a stream of lines with their byte positions, so a batch can
 * resume at the exact byte after its last committed request. Blank lines are skipped (they
 * hold no request); a trailing `\r` and a leading UTF-8 byte order mark are dropped. Linear
 * in the file's size; never holds more than one line, and a line longer than `maxLineBytes`
 * is reported as too long without being held.
 */
import fs from "node:fs";

export interface JsonlLine {
  /** The line's text; null when it is longer than the limit or not UTF-8. */
  text: string | null;
  problem?: "too-long" | "not-utf8";
  /** Byte offset just after this line's newline (or the end of the file). */
  end: number;
}

const NEWLINE = 0x0a;

function isBlankByte(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d;
}

/**
 * The non-blank lines of the file at `path` from byte `start` on. With `withText: false`
 * only positions are reported (counting lines at create time decodes nothing).
 */
export async function* readJsonlLines(
  path: string,
  options: { start?: number; maxLineBytes: number; withText?: boolean; signal?: AbortSignal },
): AsyncGenerator<JsonlLine> {
  const start = options.start ?? 0;
  const withText = options.withText ?? true;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const stream = fs.createReadStream(path, { start, highWaterMark: 256 * 1024 });
  let position = start;
  let pieces: Buffer[] = [];
  let lineBytes = 0;
  let blank = true;
  let tooLong = false;

  const finishLine = (end: number): JsonlLine | null => {
    const held = pieces;
    const wasBlank = blank;
    const wasTooLong = tooLong;
    pieces = [];
    lineBytes = 0;
    blank = true;
    tooLong = false;
    if (wasBlank) return null;
    if (!withText) return { text: null, end };
    if (wasTooLong) return { text: null, problem: "too-long", end };
    let bytes = Buffer.concat(held);
    if (bytes.length && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    try {
      return { text: decoder.decode(bytes), end };
    } catch {
      return { text: null, problem: "not-utf8", end };
    }
  };

  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      options.signal?.throwIfAborted();
      let from = 0;
      // The byte order mark counts as part of the first line's bytes but never as content.
      if (
        position === 0 &&
        chunk.length >= 3 &&
        chunk[0] === 0xef &&
        chunk[1] === 0xbb &&
        chunk[2] === 0xbf
      )
        from = 3;
      while (from < chunk.length) {
        const newline = chunk.indexOf(NEWLINE, from);
        const stop = newline === -1 ? chunk.length : newline;
        for (let index = from; index < stop && blank; index++) {
          if (!isBlankByte(chunk[index]!)) blank = false;
        }
        const length = stop - from;
        if (withText && !tooLong) {
          if (lineBytes + length > options.maxLineBytes) {
            tooLong = true;
            pieces = [];
          } else if (length > 0) pieces.push(chunk.subarray(from, stop));
        }
        lineBytes += length;
        if (newline === -1) break;
        const line = finishLine(position + newline + 1);
        if (line) yield line;
        from = newline + 1;
      }
      position += chunk.length;
    }
    const last = finishLine(position);
    if (last) yield last;
  } finally {
    stream.destroy();
  }
}

/** How many requests (non-blank lines) the file holds. */
export async function countJsonlLines(path: string, signal?: AbortSignal): Promise<number> {
  let count = 0;
  for await (const _line of readJsonlLines(path, { maxLineBytes: 0, withText: false, signal }))
    count++;
  return count;
}
