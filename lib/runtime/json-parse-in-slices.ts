/**
 * JSON read in slices: JSON.parse of a 16 MB body holds the event loop for tens to
 * hundreds of milliseconds. parseJsonInSlices gives exactly what JSON.parse gives, doing the
 * work in pieces of at most PIECE_CHARACTERS: every value (or run of sibling values) that
 * small is handed to JSON.parse whole, only larger arrays, objects and strings are taken
 * apart, and other work gets its turn between pieces. json-stringify-in-slices.ts writes JSON alike.
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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LETTER_U = 0x75;
const WHITESPACE = /[ \t\n\r]*/y;
const SCALAR_END = /[^,\]}\s]*/y;

/** The text is not what the sliced reader expected: JSON.parse has the last word. */
class NotReadable extends Error {}

/** What SlicedReader.value returns for a long array or object it has just opened. */
const OPENED = Symbol("opened");

function skipWhitespaceFrom(text: string, position: number): number {
  WHITESPACE.lastIndex = position;
  WHITESPACE.test(text);
  return WHITESPACE.lastIndex;
}

export interface JsonSliceOptions {
  slices?: TimeSlices;
  /** Largest run handed to one native call (PIECE_CHARACTERS; smaller in tests of the cuts). */
  pieceCharacters?: number;
}

type Frame = ContainerFrame;

/**
 * JSON.parse(text), in slices. Text that is not valid JSON ends in JSON.parse's own
 * SyntaxError (from one native call over the whole text: callers that take text from outside
 * check it first, off this thread).
 */
export async function parseJsonInSlices(
  text: string,
  options: JsonSliceOptions = {},
): Promise<unknown> {
  const piece = options.pieceCharacters ?? PIECE_CHARACTERS;
  if (text.length <= piece) return JSON.parse(text);
  try {
    return await new SlicedReader(text, options.slices ?? new TimeSlices(), piece).read();
  } catch (error) {
    if (error instanceof NotReadable || error instanceof SyntaxError) return JSON.parse(text);
    throw error;
  }
}

class SlicedReader {
  private position = 0;

  constructor(
    private readonly text: string,
    private readonly slices: TimeSlices,
    private readonly piece: number,
  ) {}

  async read(): Promise<unknown> {
    const { text } = this;
    const stack: Frame[] = [];
    for (;;) {
      if (this.slices.due()) await this.slices.pause();
      this.skipWhitespace();
      const frame = stack.at(-1);
      let value: unknown;
      let complete = false;
      if (frame) {
        // At a member: as many whole members as fit in a piece are read by one JSON.parse.
        const end = this.membersEnd(frame.kind);
        if (end >= 0) {
          const array = frame.kind === "array";
          addMembers(
            frame,
            JSON.parse(`${array ? "[" : "{"}${text.slice(this.position, end)}${array ? "]" : "}"}`),
          );
          this.position = end;
          if (this.afterMember(frame)) continue;
          value = closeContainer(frame);
          stack.pop();
          complete = true;
        } else if (frame.kind === "object") frame.key = await this.key();
      }
      if (!complete) {
        const read = await this.value();
        if (read === OPENED) {
          const code = text.charCodeAt(this.position - 1);
          stack.push(openContainer(code === OPEN_BRACKET ? "array" : "object"));
          continue;
        }
        value = read;
      }
      // The value is complete: it joins its container, which may be complete in turn.
      for (;;) {
        const parent = stack.at(-1);
        if (!parent) {
          this.skipWhitespace();
          if (this.position !== text.length) throw new NotReadable();
          return value;
        }
        addMember(parent, parent.kind === "object" ? parent.key : "", value);
        if (this.afterMember(parent)) break;
        value = closeContainer(parent);
        stack.pop();
      }
    }
  }

  /**
   * One value at the current place: read whole if it fits in a piece (a long string in
   * pieces), else OPENED for a long array or object whose first member comes next.
   */
  private async value(): Promise<unknown> {
    const { text } = this;
    const start = this.position;
    const end = this.valueEnd(start, start + this.piece);
    if (end >= 0) {
      this.position = end;
      return JSON.parse(text.slice(start, end));
    }
    const code = text.charCodeAt(start);
    if (code === QUOTE) return this.longString();
    if (code !== OPEN_BRACKET && code !== OPEN_BRACE) throw new NotReadable();
    this.position = start + 1;
    this.skipWhitespace();
    const closing = code === OPEN_BRACKET ? CLOSE_BRACKET : CLOSE_BRACE;
    if (text.charCodeAt(this.position) === closing) {
      this.position += 1;
      return code === OPEN_BRACKET ? [] : {};
    }
    // The frame is told apart by the opening character, just before the first member.
    this.position = start + 1;
    return OPENED;
  }

  /** After a member: true at a comma (more members follow), false at the container's end. */
  private afterMember(frame: Frame): boolean {
    this.skipWhitespace();
    const next = this.text.charCodeAt(this.position++);
    if (next === COMMA) return true;
    if (next !== (frame.kind === "array" ? CLOSE_BRACKET : CLOSE_BRACE)) throw new NotReadable();
    return false;
  }

  /**
   * Just after the last whole member (from the current place) that ends within a piece, or -1
   * when not even the first one does.
   */
  private membersEnd(kind: Frame["kind"]): number {
    const { text } = this;
    const limit = this.position + this.piece;
    let last = -1;
    for (let index = this.position; ;) {
      if (kind === "object") {
        if (text.charCodeAt(index) !== QUOTE) return last;
        index = this.stringEnd(index + 1, limit);
        if (index < 0) return last;
        index = skipWhitespaceFrom(text, index);
        if (text.charCodeAt(index) !== COLON) return last;
        index = skipWhitespaceFrom(text, index + 1);
      }
      const end = this.valueEnd(index, limit);
      if (end < 0 || end > limit) return last;
      last = end;
      index = skipWhitespaceFrom(text, end);
      if (text.charCodeAt(index) !== COMMA) return last;
      index = skipWhitespaceFrom(text, index + 1);
    }
  }

  private skipWhitespace(): void {
    this.position = skipWhitespaceFrom(this.text, this.position);
  }

  /** A member's name and its colon. */
  private async key(): Promise<string> {
    const start = this.position;
    if (this.text.charCodeAt(start) !== QUOTE) throw new NotReadable();
    const end = this.stringEnd(start + 1, start + this.piece);
    let key: string;
    if (end >= 0) {
      key = JSON.parse(this.text.slice(start, end)) as string;
      this.position = end;
    } else key = await this.longString();
    this.skipWhitespace();
    if (this.text.charCodeAt(this.position++) !== COLON) throw new NotReadable();
    return key;
  }

  /**
   * Where the value starting at `start` ends, if it ends before `limit`; otherwise -1. A
   * number or literal is never cut, whatever its length.
   */
  private valueEnd(start: number, limit: number): number {
    const { text } = this;
    const code = text.charCodeAt(start);
    if (code === QUOTE) return this.stringEnd(start + 1, limit);
    if (code !== OPEN_BRACE && code !== OPEN_BRACKET) {
      SCALAR_END.lastIndex = start;
      SCALAR_END.test(text);
      if (SCALAR_END.lastIndex === start) throw new NotReadable();
      return SCALAR_END.lastIndex;
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
      } else if (Number.isNaN(next)) throw new NotReadable();
      index += 1;
    }
    return -1;
  }

  /**
   * Just after the quote that closes a string whose characters start at `from` (a place no
   * escape sequence spans), if it comes before `limit`; otherwise -1.
   */
  private stringEnd(from: number, limit: number): number {
    const { text } = this;
    for (let index = from; ;) {
      // Looked for within the limit only: a long string read piece by piece would otherwise
      // be scanned to its end once per piece (quadratic in its length).
      const found = index < limit ? text.slice(index, limit).indexOf('"') : -1;
      if (found < 0) {
        if (limit >= text.length) throw new NotReadable();
        return -1;
      }
      const quote = index + found;
      let backslashes = 0;
      while (quote - backslashes > from && text.charCodeAt(quote - 1 - backslashes) === BACKSLASH)
        backslashes += 1;
      if (backslashes % 2 === 0) return quote + 1;
      index = quote + 1;
    }
  }

  /** A string too long for one piece, decoded piece by piece (each cut between escapes). */
  private async longString(): Promise<string> {
    const { text } = this;
    const pieces: string[] = [];
    let from = this.position + 1;
    for (;;) {
      if (this.slices.due()) await this.slices.pause();
      const end = this.stringEnd(from, from + this.piece);
      if (end >= 0) {
        pieces.push(decodeStringPiece(text.slice(from, end - 1)));
        this.position = end;
        return pieces.join("");
      }
      const cut = this.cutBetweenEscapes(from, Math.min(from + this.piece, text.length));
      if (cut >= text.length) throw new NotReadable();
      pieces.push(decodeStringPiece(text.slice(from, cut)));
      from = cut;
    }
  }

  /**
   * A place at or just before `cut` (after `from`, which no escape spans) that no escape
   * sequence (`\x` or `\uXXXX`) spans; just after the escape at `from` if that one spans it.
   */
  private cutBetweenEscapes(from: number, cut: number): number {
    const { text } = this;
    // An escape that starts at one of the last five places before the cut may reach past it.
    for (let start = Math.max(from, cut - 5); start < cut; start++) {
      if (text.charCodeAt(start) !== BACKSLASH || !this.startsEscape(from, start)) continue;
      const length = text.charCodeAt(start + 1) === LETTER_U ? 6 : 2;
      // A piece shorter than the escape at its start still takes that escape whole.
      if (start + length > cut) return start > from ? start : start + length;
      start += length - 1;
    }
    return cut;
  }

  /** Whether the backslash at `at` starts an escape (an even run of backslashes precedes it). */
  private startsEscape(from: number, at: number): boolean {
    let before = 0;
    while (at - before > from && this.text.charCodeAt(at - 1 - before) === BACKSLASH) before += 1;
    return before % 2 === 0;
  }
}

function decodeStringPiece(piece: string): string {
  return piece.includes("\\") ? (JSON.parse(`"${piece}"`) as string) : piece;
}
