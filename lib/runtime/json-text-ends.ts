/**
 * Where a string or a container ends in a JSON text, looked for within a limit: what the sliced
 * parser (json-parse-in-slices.ts) and the piece cutter (json-pieces.ts) share. Neither looks
 * past the limit, so a long value taken a piece at a time is not scanned to its end once per
 * piece (quadratic in its length).
 */

/** The text ended before the value did: not JSON. */
export const TEXT_ENDED = -2;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Just after the quote that closes a string whose characters start at `from` (a place no
 * escape sequence spans), if it comes before `limit`; otherwise -1, or TEXT_ENDED when the text
 * ends first.
 */
export function jsonStringEnd(text: string, from: number, limit: number): number {
  for (let index = from; ;) {
    const found = index < limit ? text.slice(index, limit).indexOf('"') : -1;
    if (found < 0) return limit >= text.length ? TEXT_ENDED : -1;
    const quote = index + found;
    let backslashes = 0;
    while (quote - backslashes > from && text.charCodeAt(quote - 1 - backslashes) === BACKSLASH)
      backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    index = quote + 1;
  }
}

/**
 * Just after the bracket that closes the array or object opening at `start`, if it comes
 * before `limit`; otherwise -1, or TEXT_ENDED when the text ends first.
 */
export function jsonContainerEnd(text: string, start: number, limit: number): number {
  const end = Math.min(limit, text.length);
  let depth = 0;
  for (let index = start; index < end;) {
    const next = text.charCodeAt(index);
    if (next === QUOTE) {
      index = jsonStringEnd(text, index + 1, limit);
      if (index < 0) return index;
      continue;
    }
    if (next === OPEN_BRACE || next === OPEN_BRACKET) depth += 1;
    else if (next === CLOSE_BRACE || next === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
    index += 1;
  }
  return limit > text.length ? TEXT_ENDED : -1;
}
