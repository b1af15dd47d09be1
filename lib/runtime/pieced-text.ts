/**
 * A long string member kept as the pieces it was made in: a unary answer's audio is tens of
 * megabytes of base64 made half a second at a time, and joining the pieces is one copy of the
 * whole on the request's thread (hundreds of milliseconds where fresh memory is slow to map),
 * and so is every later copy of the joined text (escaping it, encoding it). The member reads
 * as the joined string to anything that reads it (joined then, once); jsonTextPieces writes it
 * from its pieces, so an answer sent as JSON is never joined.
 *
 * A piece is text, or bytes that stand for their base64 (generated audio and pictures): those
 * stay off the JS heap until they are written, and their base64 is made a slice at a time as it
 * is written, then dropped. A thousand half-second chunks of audio held as 32 KB strings each
 * live through the young generation's collections, which copy every one of them again at each
 * collection (pauses of 20 to 100 ms); held as bytes, the heap holds only their small handles.
 *
 * A piece may also be text held as its code units (encoded-text.ts): a long prompt read in the
 * body reader worker, which the tokenizer counts as it is (heldText) and which is decoded only
 * when something reads the member.
 */
import {
  decodeText,
  decodedSlices,
  encodedLength,
  isEncodedText,
  type EncodedText,
} from "./encoded-text";

/**
 * Text as it is, bytes standing for their base64 (consecutive byte pieces for the base64 of
 * all of them), or text held as its code units.
 */
export type PieceOfText = string | Uint8Array | EncodedText;

// One registry per process: a server build holds two copies of this module (the
// instrumentation bundle that makes the answer, and the route bundle that writes it).
const registry = globalThis as typeof globalThis & {
  __genstudioPiecedText?: WeakMap<object, Map<string, readonly PieceOfText[]>>;
};
const piecesOf = (registry.__genstudioPiecedText ??= new WeakMap());

/**
 * Strings at least this long are made in the heap's large-object space, which collections
 * never copy: a joined text this long may be kept for later reads; a shorter one made from
 * bytes is made again at each read rather than kept (kept, it would be copied at every young
 * collection for as long as its holder lives).
 */
const KEPT_JOIN_CHARACTERS = 131_072;

/** Bytes of base64 made at once: 48 KiB, 64 Ki characters. */
const BASE64_SLICE_BYTES = 49_152;

/** Sets `holder[key]` to the text of `pieces` one after the other, joined only when read. */
export function setPiecedText(holder: object, key: string, pieces: readonly PieceOfText[]): void {
  let kept: string | undefined;
  const hasBytes = pieces.some((piece) => typeof piece !== "string");
  let members = piecesOf.get(holder);
  if (!members) piecesOf.set(holder, (members = new Map()));
  members.set(key, pieces);
  Object.defineProperty(holder, key, {
    configurable: true,
    enumerable: true,
    get: () => {
      if (kept !== undefined) return kept;
      const joined = joinPieces(pieces);
      if (!hasBytes || joined.length >= KEPT_JOIN_CHARACTERS) kept = joined;
      return joined;
    },
    // A write replaces the pieces with an ordinary member.
    set: (value: unknown) => {
      members.delete(key);
      Object.defineProperty(holder, key, {
        value,
        configurable: true,
        enumerable: true,
        writable: true,
      });
    },
  });
}

/** The pieces `holder[key]` is made of, when it was set by setPiecedText (without joining them). */
export function piecedText(holder: object, key: string): readonly PieceOfText[] | undefined {
  return piecesOf.get(holder)?.get(key);
}

/**
 * `holder[key]` without decoding it when it is held as one encoded text (that text, for a
 * reader that takes one, such as the tokenizer); otherwise the member as it reads.
 */
export function heldText(holder: object, key: string): unknown {
  const pieces = piecedText(holder, key);
  if (pieces?.length === 1 && isEncodedText(pieces[0])) return pieces[0];
  return (holder as Record<string, unknown>)[key];
}

/**
 * The length of the text of `pieces`, without making it: text pieces as they are, encoded text
 * by its code units, each run of byte pieces as the length of its base64.
 */
export function piecedTextLength(pieces: readonly PieceOfText[]): number {
  let length = 0;
  let runBytes = 0;
  const endRun = () => {
    length += Math.ceil(runBytes / 3) * 4;
    runBytes = 0;
  };
  for (const piece of pieces) {
    if (isBase64Bytes(piece)) {
      runBytes += piece.byteLength;
      continue;
    }
    endRun();
    length += typeof piece === "string" ? piece.length : encodedLength(piece);
  }
  endRun();
  return length;
}

/** True for a piece of bytes standing for their base64. */
export function isBase64Bytes(piece: PieceOfText): piece is Uint8Array {
  return piece instanceof Uint8Array;
}

/**
 * Sets `to[toKey]` to `from[fromKey]`: the same pieces when that is pieced text (nothing joined
 * or encoded), else the value as it is.
 */
export function copyMember(from: object, fromKey: string, to: object, toKey: string): void {
  const pieces = piecedText(from, fromKey);
  if (pieces) setPiecedText(to, toKey, pieces);
  else (to as Record<string, unknown>)[toKey] = (from as Record<string, unknown>)[fromKey];
}

/** A shallow copy of `value` (as `{...value}`), its pieced members copied as their pieces. */
export function copyWithPieces<Value extends object>(value: Value): Value {
  const copy = {} as Value;
  for (const key of Object.keys(value)) copyMember(value, key, copy, key);
  return copy;
}

/** The text of `pieces` as one string; one encoded text is decoded in one go. */
function joinPieces(pieces: readonly PieceOfText[]): string {
  const only = pieces.length === 1 ? pieces[0]! : undefined;
  if (only !== undefined && isEncodedText(only)) return decodeText(only);
  return [...pieceTexts(pieces)].join("");
}

/**
 * The text of `pieces` in order, as strings: text pieces as they are, encoded text decoded a
 * slice at a time, each run of byte pieces as its base64 in strings of at most
 * BASE64_SLICE_BYTES' worth (bytes left over from one piece's whole 3-byte groups go on with
 * the next).
 */
export function* pieceTexts(pieces: readonly PieceOfText[]): Generator<string> {
  let carried: Uint8Array | null = null;
  for (const piece of pieces) {
    if (!isBase64Bytes(piece)) {
      if (carried) yield base64(carried);
      carried = null;
      if (typeof piece === "string") yield piece;
      else yield* decodedSlices(piece);
      continue;
    }
    let from = 0;
    if (carried) {
      const taken = Math.min(3 - carried.length, piece.length);
      const group: Uint8Array = new Uint8Array(carried.length + taken);
      group.set(carried);
      group.set(piece.subarray(0, taken), carried.length);
      from = taken;
      carried = group.length < 3 ? group : null;
      if (!carried) yield base64(group);
    }
    while (piece.length - from >= 3) {
      const whole = from + Math.floor((piece.length - from) / 3) * 3;
      const to = Math.min(whole, from + BASE64_SLICE_BYTES);
      yield base64(piece.subarray(from, to));
      from = to;
    }
    if (from < piece.length) carried = piece.slice(from);
  }
  if (carried) yield base64(carried);
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}
