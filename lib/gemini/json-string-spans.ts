/**
 * Where a JSON body, as bytes, holds the string values of some keys: the one place the gateway
 * writes into a body it otherwise forwards as received (a file reference spelled the studio's
 * way, written the upstream's way). One pass over the bytes, in the pieces they arrived in;
 * inside a string it jumps from quote to quote (a base64 blob of megabytes is two searches).
 * The body has already been parsed as JSON, so the pass need not check it.
 */

/** A string value in the body: its bytes `[start, end)` (quotes included), its key and its value. */
export interface StringSpan {
  start: number;
  end: number;
  key: string;
  value: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
/** Keys are compared only when this short (the keys looked for are short too). */
const MAX_KEY_BYTES = 64;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

const decoder = new TextDecoder("utf-8");
const encoder = new TextEncoder();
const keyLengthsOf = new WeakMap<ReadonlySet<string>, Set<number>>();

/** The byte lengths of `keys` as JSON strings (quotes included), worked out once per set. */
function lengthsOf(keys: ReadonlySet<string>): Set<number> {
  let lengths = keyLengthsOf.get(keys);
  if (!lengths) {
    lengths = new Set([...keys].map((key) => encoder.encode(key).byteLength + 2));
    keyLengthsOf.set(keys, lengths);
  }
  return lengths;
}

/** Bytes `[start, end)` of a body held in pieces. */
function bytesOf(pieces: readonly Uint8Array[], offsets: number[], start: number, end: number) {
  const out = new Uint8Array(end - start);
  for (let index = 0; index < pieces.length; index++) {
    const from = offsets[index]!;
    const piece = pieces[index]!;
    const to = from + piece.byteLength;
    if (to <= start) continue;
    if (from >= end) break;
    const begin = Math.max(start, from);
    out.set(piece.subarray(begin - from, Math.min(end, to) - from), begin - start);
  }
  return out;
}

/**
 * Every string value whose key is in `keys` (values directly under the key, not in a list),
 * with its place in the body.
 */
export function stringSpansUnder(
  pieces: readonly Uint8Array[],
  keys: ReadonlySet<string>,
): StringSpan[] {
  const offsets: number[] = [];
  let total = 0;
  for (const piece of pieces) {
    offsets.push(total);
    total += piece.byteLength;
  }
  const textOf = (start: number, end: number): string | null => {
    try {
      return JSON.parse(decoder.decode(bytesOf(pieces, offsets, start, end))) as string;
    } catch {
      return null;
    }
  };
  // A key is decoded only when it may be one of `keys`: as long as one, or escaped.
  const keyLengths = lengthsOf(keys);
  const spans: StringSpan[] = [];
  let inString = false;
  let escaped = false;
  /** The string being read holds an escape. */
  let stringEscaped = false;
  let stringStart = 0;
  /** A string just ended: key or value, as the next byte that is not a space says. */
  let ended: { start: number; end: number; escaped: boolean } | null = null;
  /** The key whose value comes next, once its colon is read. */
  let keyOfValue: string | null = null;
  let lastKey: string | null = null;
  /** The key of the string being read when it is a value. */
  let valueKey: string | null = null;

  const endString = (start: number, end: number) => {
    ended = { start, end, escaped: stringEscaped };
  };
  const settle = (byte: number) => {
    const string = ended!;
    ended = null;
    if (byte === COLON) {
      const length = string.end - string.start;
      const candidate = string.escaped ? length <= MAX_KEY_BYTES : keyLengths.has(length);
      lastKey = candidate ? textOf(string.start, string.end) : null;
      return true;
    }
    if (valueKey !== null) {
      const value = textOf(string.start, string.end);
      if (value !== null)
        spans.push({ start: string.start, end: string.end, key: valueKey, value });
    }
    return false;
  };

  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index]!;
    const base = offsets[index]!;
    let at = 0;
    // The next quote and backslash at or after `at`, found once each (-1: none in this piece).
    let quote = -2;
    let backslash = -2;
    while (at < piece.byteLength) {
      if (inString) {
        if (escaped) {
          escaped = false;
          at++;
          continue;
        }
        if (quote !== -1 && quote < at) quote = piece.indexOf(QUOTE, at);
        if (backslash !== -1 && backslash < at) backslash = piece.indexOf(BACKSLASH, at);
        if (backslash >= 0 && (quote < 0 || backslash < quote)) {
          escaped = true;
          stringEscaped = true;
          at = backslash + 1;
          continue;
        }
        if (quote < 0) break;
        inString = false;
        endString(stringStart, base + quote + 1);
        at = quote + 1;
        continue;
      }
      const byte = piece[at]!;
      if (isSpace(byte)) {
        at++;
        continue;
      }
      if (ended !== null && settle(byte)) {
        keyOfValue = lastKey;
        at++;
        continue;
      }
      valueKey = null;
      if (byte === QUOTE) {
        inString = true;
        stringEscaped = false;
        stringStart = base + at;
        valueKey = keyOfValue !== null && keys.has(keyOfValue) ? keyOfValue : null;
      }
      keyOfValue = null;
      at++;
    }
  }
  if (ended !== null) settle(0);
  return spans;
}

/** The body with each span's bytes replaced by its text, as pieces (views of the body between them). */
export function splicedPieces(
  pieces: readonly Uint8Array[],
  replacements: readonly { start: number; end: number; text: string }[],
): Uint8Array[] {
  if (replacements.length === 0) return [...pieces];
  const sorted = [...replacements].sort((a, b) => a.start - b.start);
  const out: Uint8Array[] = [];
  let next = 0;
  let offset = 0;
  for (const piece of pieces) {
    const end = offset + piece.byteLength;
    let at = offset;
    while (at < end) {
      const replacement = sorted[next];
      if (replacement === undefined || replacement.start >= end) {
        out.push(piece.subarray(at - offset));
        at = end;
        break;
      }
      if (replacement.start > at) {
        out.push(piece.subarray(at - offset, replacement.start - offset));
        at = replacement.start;
      }
      if (at === replacement.start) out.push(encoder.encode(replacement.text));
      // Skip the replaced bytes, which may run on into later pieces.
      if (replacement.end <= end) {
        at = Math.max(at, replacement.end);
        next++;
      } else at = end;
    }
    offset = end;
  }
  return out;
}
