/**
 * Text held as its code units in bytes rather than as a string: Latin-1 when every unit fits
 * in a byte, else UTF-16LE, lone surrogate halves included (the two ways V8 holds a string, so
 * it decodes to exactly the string it was made from, and is no larger than that string). The
 * bytes live in memory shared between threads (a SharedArrayBuffer): a prompt of megabytes
 * read in the body reader worker reaches the request's thread as this, and goes on to the
 * tokenizer worker the same way, without a copy on the request's thread. A fresh string of
 * 12 MiB is 50 to 100 ms of one copy there (new memory is slow to map), and for a prompt the
 * input limit then refuses, nothing else needs the string at all.
 */

export interface EncodedText {
  bytes: Uint8Array;
  encoding: "latin1" | "utf16le";
}

/** Code units decoded at a time when the text is read a slice at a time. */
const SLICE_UNITS = 65_536;

/** A text's code units in shared memory (where it is made: the body reader worker). */
export function sharedCodeUnits(text: string): EncodedText {
  const encoding = /[\u0100-\uffff]/.test(text) ? "utf16le" : "latin1";
  const bytes = new Uint8Array(new SharedArrayBuffer(text.length * unitBytes(encoding)));
  bufferOf(bytes).write(text, encoding);
  return { bytes, encoding };
}

/** True for an EncodedText (as it arrives in a message, a plain object). */
export function isEncodedText(value: unknown): value is EncodedText {
  if (typeof value !== "object" || value === null) return false;
  const { bytes, encoding } = value as Partial<EncodedText>;
  return bytes instanceof Uint8Array && (encoding === "latin1" || encoding === "utf16le");
}

/** The text's length in UTF-16 code units, as the string's `length`. */
export function encodedLength(text: EncodedText): number {
  return text.bytes.byteLength / unitBytes(text.encoding);
}

/** The whole text as one string (one copy: for what reads the text itself). */
export function decodeText(text: EncodedText): string {
  return bufferOf(text.bytes).toString(text.encoding);
}

/**
 * The text as strings of at most SLICE_UNITS code units, in order (a surrogate pair may be
 * cut between two of them, as any slicing of the string would cut it).
 */
export function* decodedSlices(text: EncodedText): Generator<string> {
  const buffer = bufferOf(text.bytes);
  const step = SLICE_UNITS * unitBytes(text.encoding);
  for (let from = 0; from < buffer.length; from += step)
    yield buffer.toString(text.encoding, from, Math.min(buffer.length, from + step));
}

function unitBytes(encoding: EncodedText["encoding"]): number {
  return encoding === "latin1" ? 1 : 2;
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
