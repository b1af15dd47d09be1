/**
 * JSON written in slices: JSON.stringify of a request of megabytes (the gateway's
 * forwarded body, the local engine's seed at temperature 0) holds the event loop for tens to
 * hundreds of milliseconds. jsonTextPieces writes exactly what JSON.stringify writes for plain
 * JSON data, handing every small container of scalars to JSON.stringify whole and writing
 * larger ones member by member, with other work getting its turn between pieces.
 */
import { utf8Length } from "@/lib/gemini/backend/quotas";
import { ownKeys } from "@/lib/gemini/own-keys";
import type { JsonSliceOptions } from "./json-parse-in-slices";
import {
  isDeferredEmbeddingValues,
  isEmbeddingValues,
  type EmbeddingValues,
} from "@/lib/gemini/embedding-values";
import {
  MAX_NUMBER_RUN_BYTES,
  numberRunText,
  writeBillionthsRun,
  writeNumberRun,
  type NumberRunWritten,
} from "./json-number-run";
import { pieceTexts, piecedText, type PieceOfText } from "./pieced-text";
import { PIECE_CHARACTERS, PieceWriter } from "./piece-writer";
import { TimeSlices } from "./time-slices";

/** Numbers of an array written in one run, between two looks at the clock. */
const NUMBER_RUN = 2048;
/** Bytes of each piece jsonBytePieces hands out (the last one shorter): a socket write each. */
const BYTE_PIECE = 64 * 1024;
/** A run of numbers goes on in the current byte piece while it has room for this many. */
const NUMBERS_WORTH_A_PIECE = 64;

type WriteFrame =
  | { kind: "array"; value: readonly unknown[] | EmbeddingValues; index: number }
  | {
      /** A deferred vector: its billionths in the writer's buffer, `source` the vector. */
      kind: "billionths";
      value: Int32Array;
      source: object;
      index: number;
    }
  | {
      kind: "object";
      value: Record<string, unknown>;
      keys: readonly string[];
      index: number;
      written: number;
    };

/**
 * JSON.stringify(value) as a list of pieces to join or send one after the other, in slices.
 * Plain data (what JSON.parse makes) is written exactly as JSON.stringify writes it, and so is an
 * embedding's Float64Array (EmbeddingValues: the array its toJSON gives, written from the typed
 * array) and a deferred one (DeferredEmbeddingValues: computed as it is reached, into one buffer
 * reused for every vector of the answer); anything else (a toJSON method, a class instance) is
 * handed to JSON.stringify whole.
 */
export async function jsonTextPieces(
  value: unknown,
  options: JsonSliceOptions = {},
): Promise<string[]> {
  const writer = new JsonTextWriter(options.pieceCharacters ?? PIECE_CHARACTERS);
  await writeJson(value, writer, options);
  return writer.pieces;
}

/**
 * jsonTextPieces as UTF-8 bytes in pieces of BYTE_PIECE, and the text's length in characters:
 * for an answer sent as it is, whose text need not stay on the heap while the rest is written
 * (a batch of vectors is megabytes of it, which the young generation's collections would
 * otherwise copy over and over), sent in few large writes.
 */
export async function jsonBytePieces(
  value: unknown,
  options: JsonSliceOptions = {},
): Promise<{ pieces: Uint8Array[]; characters: number }> {
  const writer = new EncodedPieceWriter(options.pieceCharacters ?? PIECE_CHARACTERS);
  await writeJson(value, writer, options);
  writer.finish();
  return { pieces: writer.encoded, characters: writer.characters };
}

/**
 * The writer of JSON text: pieces of text, with runs of numbers written from their digits
 * (json-number-run.ts) rather than a string per number.
 */
class JsonTextWriter extends PieceWriter {
  /** Writes the numbers of `items` from `from` up to `limit` or the first non-number; returns where it stopped. */
  numberRun(items: ArrayLike<unknown>, from: number, limit: number): number {
    const run = numberRunText(items, from, limit);
    this.write(run.text);
    return run.end;
  }

  /** Writes the values of `billionths` (each / 1e9) from `from` up to `limit`; returns `limit`. */
  billionthsRun(billionths: Int32Array, from: number, limit: number): number {
    const room = (limit - from) * MAX_NUMBER_RUN_BYTES;
    if (this.runBytes.length < room) this.runBytes = Buffer.allocUnsafe(room);
    const end = writeBillionthsRun(this.runBytes, 0, billionths, from, limit);
    this.write(this.runBytes.toString("latin1", 0, end));
    return limit;
  }

  private runBytes = Buffer.allocUnsafe(0);
}

/**
 * A JsonTextWriter whose text is encoded as UTF-8 into byte pieces of BYTE_PIECE as it is
 * complete (never parting a surrogate pair), and whose runs of numbers are written as digits
 * straight into the same byte pieces: a vector's thousands of numbers never become a string,
 * and nothing is copied on its way to the socket.
 */
class EncodedPieceWriter extends JsonTextWriter {
  readonly encoded: Uint8Array[] = [];
  characters = 0;
  private readonly encoder = new TextEncoder();
  private bytes = Buffer.allocUnsafe(BYTE_PIECE);
  private position = 0;

  override numberRun(items: ArrayLike<unknown>, from: number, limit: number): number {
    return this.run(from, limit, (bytes, position, index, stop) =>
      writeNumberRun(bytes, position, items, index, stop),
    );
  }

  override billionthsRun(billionths: Int32Array, from: number, limit: number): number {
    return this.run(from, limit, (bytes, position, index, stop) => ({
      position: writeBillionthsRun(bytes, position, billionths, index, stop),
      end: stop,
    }));
  }

  /** A run of numbers written by `write` straight into the byte pieces, a piece at a time. */
  private run(
    from: number,
    limit: number,
    write: (bytes: Buffer, position: number, from: number, stop: number) => NumberRunWritten,
  ): number {
    this.flush();
    let index = from;
    while (index < limit) {
      let room = Math.floor((this.bytes.length - this.position) / MAX_NUMBER_RUN_BYTES);
      if (room < NUMBERS_WORTH_A_PIECE) {
        this.seal();
        room = Math.floor(this.bytes.length / MAX_NUMBER_RUN_BYTES);
      }
      const stop = Math.min(limit, index + room);
      const written = write(this.bytes, this.position, index, stop);
      // ASCII: a character a byte.
      this.characters += written.position - this.position;
      this.position = written.position;
      index = written.end;
      if (index < stop) break;
    }
    return index;
  }

  override flush(): void {
    super.flush();
    for (let text of this.pieces) {
      this.characters += text.length;
      for (;;) {
        const { read, written } = this.encoder.encodeInto(text, this.bytes.subarray(this.position));
        this.position += written;
        if (read === text.length) break;
        // Out of room (encodeInto never parts a surrogate pair): the rest goes to the next piece.
        text = text.slice(read);
        this.seal();
      }
    }
    this.pieces.length = 0;
  }

  /** Ends the text: what the current byte piece holds becomes the last piece. */
  finish(): void {
    this.flush();
    this.seal();
  }

  private seal(): void {
    if (this.position === 0) return;
    this.encoded.push(this.bytes.subarray(0, this.position));
    this.bytes = Buffer.allocUnsafe(BYTE_PIECE);
    this.position = 0;
  }
}

/** Writes JSON.stringify(value) to `writer` in slices (see jsonTextPieces). */
async function writeJson(
  value: unknown,
  writer: JsonTextWriter,
  options: JsonSliceOptions,
): Promise<void> {
  const piece = writer.piece;
  const slices = options.slices ?? new TimeSlices();
  const open = new Set<object>();
  const stack: WriteFrame[] = [];
  /** Where deferred vectors are computed, one at a time (a vector is written before the next opens). */
  let vectorBuffer = new Int32Array(0);
  /** Opens a container written member by member. */
  const begin = (item: object, keys: readonly string[] | undefined) => {
    if (open.has(item)) throw new TypeError("Converting circular structure to JSON");
    open.add(item);
    if (isDeferredEmbeddingValues(item)) {
      if (vectorBuffer.length < item.length) vectorBuffer = new Int32Array(item.length);
      item.writeBillionthsInto(vectorBuffer);
      writer.write("[");
      const value = vectorBuffer.subarray(0, item.length);
      stack.push({ kind: "billionths", value, source: item, index: 0 });
    } else if (Array.isArray(item) || isEmbeddingValues(item)) {
      writer.write("[");
      stack.push({ kind: "array", value: item, index: 0 });
    } else {
      writer.write("{");
      const record = item as Record<string, unknown>;
      stack.push({ kind: "object", value: record, keys: keys!, index: 0, written: 0 });
    }
  };

  const top = typeof value === "object" && value !== null ? plan(value, piece) : null;
  if (top === null || top.whole) {
    const text = JSON.stringify(value) as string | undefined;
    if (text !== undefined) writer.write(text);
    writer.flush();
    return;
  }
  begin(value as object, top.keys);
  while (stack.length) {
    if (slices.due()) await slices.pause();
    const frame = stack.at(-1)!;
    const length = frame.kind === "object" ? frame.keys.length : frame.value.length;
    if (frame.index === length) {
      writer.write(frame.kind === "object" ? "}" : "]");
      open.delete(frame.kind === "billionths" ? frame.source : frame.value);
      stack.pop();
      continue;
    }
    if (frame.kind === "billionths") {
      const limit = Math.min(length, frame.index + NUMBER_RUN);
      frame.index = writer.billionthsRun(frame.value, frame.index, limit);
      continue;
    }
    if (frame.kind === "array" && typeof frame.value[frame.index] === "number") {
      // A run of numbers (a vector's values) is written at once, without a string per number.
      frame.index = writer.numberRun(
        frame.value,
        frame.index,
        Math.min(length, frame.index + NUMBER_RUN),
      );
      continue;
    }
    let item: unknown;
    let prefix: string;
    if (frame.kind === "array") {
      item = frame.value[frame.index];
      prefix = frame.index > 0 ? "," : "";
    } else {
      const key = frame.keys[frame.index]!;
      prefix = `${frame.written > 0 ? "," : ""}${JSON.stringify(key)}:`;
      // A string kept in pieces (pieced-text.ts) is written from them, never joined.
      const pieces = piecedText(frame.value, key);
      if (pieces) {
        frame.index += 1;
        frame.written += 1;
        writer.write(prefix);
        await writeLongString(writer, pieces, slices);
        continue;
      }
      item = frame.value[key];
    }
    frame.index += 1;
    const inArray = frame.kind === "array";
    if (typeof item === "object" && item !== null) {
      const next = plan(item, piece);
      if (next.whole) {
        const text = JSON.stringify(item) as string | undefined;
        // An object member whose toJSON gives nothing is left out, an array's is null.
        if (text === undefined && !inArray) continue;
        writer.write(prefix + (text ?? "null"));
      } else {
        writer.write(prefix);
        begin(item, next.keys);
      }
    } else if (item === undefined || typeof item === "function" || typeof item === "symbol") {
      if (inArray) writer.write(`${prefix}null`);
      else continue;
    } else {
      writer.write(prefix);
      if (typeof item === "string" && item.length > piece)
        await writeLongString(writer, [item], slices);
      else writer.write(JSON.stringify(item) as string);
    }
    if (frame.kind === "object") frame.written += 1;
  }
  writer.flush();
}

/** JSON.stringify(value), written in slices. */
export async function stringifyJsonInSlices(
  value: unknown,
  options: JsonSliceOptions = {},
): Promise<string | undefined> {
  if (value === undefined || typeof value === "function" || typeof value === "symbol")
    return undefined;
  return (await jsonTextPieces(value, options)).join("");
}

/** JSON.stringify(value) of plain data, and its length in UTF-8 bytes, both in slices. */
export async function jsonTextWithSize(
  value: object,
  options: JsonSliceOptions = {},
): Promise<{ text: string; bytes: number }> {
  const slices = options.slices ?? new TimeSlices();
  const pieces = await jsonTextPieces(value, { ...options, slices });
  let bytes = 0;
  for (const piece of pieces) {
    // Pieces never part a surrogate pair, so their lengths add up.
    bytes += utf8Length(piece);
    if (slices.due()) await slices.pause();
  }
  return { text: pieces.join(""), bytes };
}

/**
 * How a container is written: whole by JSON.stringify when it is small and holds only scalars,
 * or is not plain data (a toJSON method, a class instance); else member by member, an object
 * with its keys (from ownKeys: Object.keys of a huge object is itself a long call).
 */
function plan(
  value: object,
  piece: number,
): { whole: true } | { whole: false; keys?: readonly string[] } {
  // An embedding's values are written as the array their toJSON gives, from a typed array.
  if (isEmbeddingValues(value) || isDeferredEmbeddingValues(value)) return { whole: false };
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return { whole: true };
  if (Array.isArray(value)) return { whole: smallScalars(value, piece) } as { whole: true };
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return { whole: true };
  const keys = ownKeys(value);
  if (keys.length > 64) return { whole: false, keys };
  let characters = 0;
  for (const key of keys) {
    if (piecedText(value, key)) return { whole: false, keys };
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null) return { whole: false, keys };
    if (typeof item === "string") characters += item.length + key.length;
    if (characters > piece) return { whole: false, keys };
  }
  return { whole: true };
}

function smallScalars(items: readonly unknown[], piece: number): boolean {
  if (items.length > 64) return false;
  let characters = 0;
  for (const item of items) {
    if (typeof item === "object" && item !== null) return false;
    if (typeof item === "string") characters += item.length;
  }
  return characters <= piece;
}

/**
 * A long string, given as the pieces it is made of (pieced-text.ts: text, or bytes written as
 * their base64), written in pieces never cut between the two halves of a surrogate pair (a high
 * half that ends a given piece goes on with the next), with other work getting its turn
 * between pieces (a 16 MB string is some 90 ms of escaping).
 */
async function writeLongString(
  writer: PieceWriter,
  pieces: readonly PieceOfText[],
  slices: TimeSlices,
) {
  writer.write('"');
  let carried = "";
  for (const piece of pieceTexts(pieces)) {
    let text = carried + piece;
    carried = "";
    if (isHighSurrogate(text.charCodeAt(text.length - 1))) {
      carried = text.slice(-1);
      text = text.slice(0, -1);
    }
    // Text JSON writes as it is (base64 of audio: megabytes of it) is not escaped into a copy.
    const plain = !NEEDS_ESCAPE.test(text);
    for (let from = 0; from < text.length;) {
      if (slices.due()) await slices.pause();
      let to = Math.min(text.length, from + writer.piece);
      if (to < text.length && isHighSurrogate(text.charCodeAt(to - 1))) to -= 1;
      const slice = text.slice(from, to);
      writer.write(plain ? slice : JSON.stringify(slice).slice(1, -1));
      from = to;
    }
  }
  // A high half that ends the whole string is a lone one, escaped as JSON.stringify escapes it.
  if (carried) writer.write(JSON.stringify(carried).slice(1, -1));
  writer.write('"');
}

/** A character JSON.stringify writes otherwise than as itself (or a surrogate, kept apart above). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
