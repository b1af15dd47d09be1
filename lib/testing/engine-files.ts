/**
 * Shared pieces of the files and caches unit tests: a real database with a temp folder for
 * bytes (lib/testing/databases: SQLite, and PostgreSQL when the test script started one), a
 * movable clock, streamed bodies, and small but valid media made in code.
 */
import { testDatabaseKinds, type TestDatabase, type TestDatabaseKind } from "./databases";

export type TempData = TestDatabase;

/** A fresh database and data folder of `kind` (SQLite unless told). */
export function tempData(kind: TestDatabaseKind = testDatabaseKinds()[0]!): Promise<TempData> {
  return kind.open();
}

export class TestClock {
  constructor(public time = Date.UTC(2025, 0, 15, 12, 0, 0)) {}
  now = (): number => this.time;
  advance(milliseconds: number): void {
    this.time += milliseconds;
  }
}

/** A body stream that yields `bytes` in pieces of `pieceSize`. */
export function streamOf(bytes: Uint8Array, pieceSize = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + pieceSize));
      offset += pieceSize;
    },
  });
}

/** A body stream that yields `bytes`, then fails as a dropped connection does. */
export function brokenStreamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(bytes.slice());
        return;
      }
      controller.error(new TypeError("terminated: other side closed"));
    },
  });
}

/** Deterministic pseudo-random bytes. */
export function patternBytes(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

/** A 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A mono 16-bit PCM WAV of `seconds` of a sine tone. */
export function wavBytes(seconds: number, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write("WAVE", 8, "ascii");
  buffer.write("fmt ", 12, "ascii");
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples; index++) {
    buffer.writeInt16LE(
      Math.round(Math.sin((index / sampleRate) * 2 * Math.PI * 440) * 8000),
      44 + index * 2,
    );
  }
  return buffer;
}
