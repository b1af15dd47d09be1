/**
 * A value's JSON as pieces of at most PIECE_CHARACTERS each, every piece a JSON text of its
 * own, all held as UTF-8 in one buffer: what a worker hands another thread instead of one
 * JSON text. A JSON text of megabytes is made on the receiving thread in one go as the message
 * arrives (a fresh string of 6 MB is tens of milliseconds of one copy into memory that is slow
 * to map), and then parsed; the buffer of pieces is handed over without a copy, and each piece
 * is decoded and parsed on its own, with other work in between (readJsonPieces).
 *
 * The pieces spell the value for a small reader: a whole value, the opening of a large array
 * or object, the key of a large member, a run of whole members, the closing.
 */
import {
  addMember,
  addMembers,
  closeContainer,
  openContainer,
  type ContainerFrame,
} from "./json-containers";
import { PIECE_CHARACTERS } from "./piece-writer";
import { TimeSlices } from "./time-slices";

/** What a piece says. */
export const JsonPieceKind = {
  /** A whole value: the next member of the open container, or the value itself. */
  value: 0,
  openArray: 1,
  openObject: 2,
  /** The key (a JSON string) of the open object's next member, a large one. */
  key: 3,
  /** A run of whole members of the open container, as an array or object of them. */
  members: 4,
  close: 5,
} as const;

export interface JsonPieces {
  /** Every piece's text as UTF-8, one after the other. */
  bytes: Uint8Array;
  /** Where each piece's bytes end. */
  ends: Uint32Array;
  /** What each piece says (JsonPieceKind). */
  kinds: Uint8Array;
}

/**
 * JSON.stringify(value) as pieces of at most `pieceCharacters` characters (a single string or
 * number longer than that is a piece of its own): the text is written once, natively, and cut
 * where its members end (each character looked at a bounded number of times).
 */
export function writeJsonPieces(
  value: unknown,
  pieceCharacters: number = PIECE_CHARACTERS,
): JsonPieces {
  const texts: string[] = [];
  const kinds: number[] = [];
  new JsonCutter(JSON.stringify(value), pieceCharacters, (kind, text = "") => {
    kinds.push(kind);
    texts.push(text);
  }).cut();

  const encoder = new TextEncoder();
  const ends = new Uint32Array(texts.length);
  let size = 0;
  texts.forEach((text, index) => (ends[index] = size += Buffer.byteLength(text)));
  const bytes = new Uint8Array(size);
  texts.forEach((text, index) => encoder.encodeInto(text, bytes.subarray(pieceStart(ends, index))));
  return { bytes, ends, kinds: Uint8Array.from(kinds) };
}

function pieceStart(ends: Uint32Array, index: number): number {
  return index === 0 ? 0 : ends[index - 1]!;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** Cuts JSON text as JSON.stringify writes it (no whitespace) into pieces. */
class JsonCutter {
  private position = 0;

  constructor(
    private readonly text: string,
    private readonly piece: number,
    private readonly emit: (kind: number, text?: string) => void,
  ) {}

  cut(): void {
    this.value();
    if (this.position !== this.text.length) throw new Error("JSON pieces: text after the value");
  }

  /** The value at the current place: whole if it fits in a piece, else opened and cut. */
  private value(): void {
    const { text } = this;
    const start = this.position;
    const code = text.charCodeAt(start);
    const container = code === OPEN_BRACE || code === OPEN_BRACKET;
    let end = this.valueEnd(start, start + this.piece);
    // A string or number longer than a piece is one of its own.
    if (end < 0 && !container) end = this.valueEnd(start, text.length);
    if (end >= 0) {
      this.position = end;
      return this.emit(JsonPieceKind.value, text.slice(start, end));
    }
    const array = code === OPEN_BRACKET;
    this.emit(array ? JsonPieceKind.openArray : JsonPieceKind.openObject);
    this.position = start + 1;
    for (;;) {
      const runEnd = this.membersEnd(array);
      if (runEnd >= 0) {
        const members = text.slice(this.position, runEnd);
        this.emit(JsonPieceKind.members, array ? `[${members}]` : `{${members}}`);
        this.position = runEnd;
      } else {
        // The next member alone is longer than a piece: its key, then its value cut in turn.
        if (!array) {
          const keyEnd = this.stringEnd(this.position + 1, text.length);
          this.emit(JsonPieceKind.key, text.slice(this.position, keyEnd));
          this.position = keyEnd + 1;
        }
        this.value();
      }
      const next = text.charCodeAt(this.position++);
      if (next === COMMA) continue;
      if (next !== (array ? CLOSE_BRACKET : CLOSE_BRACE))
        throw new Error("JSON pieces: a container not closed");
      return this.emit(JsonPieceKind.close);
    }
  }

  /**
   * Just after the last whole member (from the current place) that ends within a piece (its
   * brackets included), or -1 when not even the first one does.
   */
  private membersEnd(array: boolean): number {
    const { text } = this;
    const limit = this.position + this.piece - 2;
    let last = -1;
    for (let index = this.position; ;) {
      if (!array) {
        // The key and its colon.
        index = this.stringEnd(index + 1, limit);
        if (index < 0) return last;
        index += 1;
      }
      const end = this.valueEnd(index, limit);
      if (end < 0) return last;
      last = end;
      if (text.charCodeAt(end) !== COMMA) return last;
      index = end + 1;
    }
  }

  /** Where the value starting at `start` ends, if it ends by `limit`; otherwise -1. */
  private valueEnd(start: number, limit: number): number {
    const { text } = this;
    const code = text.charCodeAt(start);
    if (code === QUOTE) return this.stringEnd(start + 1, limit);
    if (code !== OPEN_BRACE && code !== OPEN_BRACKET) {
      let index = start;
      while (index < limit && index < text.length) {
        const next = text.charCodeAt(index);
        if (next === COMMA || next === CLOSE_BRACE || next === CLOSE_BRACKET) return index;
        index += 1;
      }
      return index === text.length ? index : -1;
    }
    let depth = 0;
    for (let index = start; index < limit;) {
      const next = text.charCodeAt(index);
      if (next === QUOTE) {
        index = this.stringEnd(index + 1, limit);
        if (index < 0) return -1;
        continue;
      }
      if (next === OPEN_BRACE || next === OPEN_BRACKET) depth += 1;
      else if (next === CLOSE_BRACE || next === CLOSE_BRACKET) {
        depth -= 1;
        if (depth === 0) return index + 1;
      }
      index += 1;
    }
    return -1;
  }

  /**
   * Just after the quote that closes a string whose characters start at `from`, if it comes
   * before `limit`; otherwise -1. Looked for within the limit only, so a long member is not
   * scanned to its end once per piece.
   */
  private stringEnd(from: number, limit: number): number {
    const { text } = this;
    for (let index = from; index < limit;) {
      const quote = text.indexOf('"', index);
      if (quote < 0 || quote >= limit) return -1;
      let backslashes = 0;
      while (quote - backslashes > from && text.charCodeAt(quote - 1 - backslashes) === BACKSLASH)
        backslashes += 1;
      if (backslashes % 2 === 0) return quote + 1;
      index = quote + 1;
    }
    return -1;
  }
}

/** The value written by writeJsonPieces, read a piece at a time with other work between. */
export async function readJsonPieces(
  pieces: JsonPieces,
  slices: TimeSlices = new TimeSlices(),
): Promise<unknown> {
  const decoder = new TextDecoder();
  const { bytes, ends, kinds } = pieces;
  const stack: ContainerFrame[] = [];
  let result: unknown;
  /** A finished value joins the open container, or is the result. */
  const place = (value: unknown) => {
    const frame = stack.at(-1);
    if (!frame) result = value;
    else addMember(frame, frame.kind === "object" ? frame.key : "", value);
  };
  for (let index = 0; index < kinds.length; index++) {
    if (slices.due()) await slices.pause();
    const text = decoder.decode(bytes.subarray(pieceStart(ends, index), ends[index]));
    switch (kinds[index]) {
      case JsonPieceKind.value:
        place(JSON.parse(text));
        break;
      case JsonPieceKind.openArray:
        stack.push(openContainer("array"));
        break;
      case JsonPieceKind.openObject:
        stack.push(openContainer("object"));
        break;
      case JsonPieceKind.key: {
        const frame = stack.at(-1);
        if (frame?.kind !== "object") throw new Error("JSON pieces: a key outside an object");
        frame.key = JSON.parse(text) as string;
        break;
      }
      case JsonPieceKind.members: {
        const frame = stack.at(-1);
        if (!frame) throw new Error("JSON pieces: members outside a container");
        addMembers(frame, JSON.parse(text));
        break;
      }
      case JsonPieceKind.close: {
        const frame = stack.pop();
        if (!frame) throw new Error("JSON pieces: a closing without an opening");
        place(closeContainer(frame));
        break;
      }
      default:
        throw new Error(`JSON pieces: unknown piece kind ${kinds[index]}`);
    }
  }
  if (stack.length) throw new Error("JSON pieces: a container left open");
  return result;
}
