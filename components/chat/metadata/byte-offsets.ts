/**
 * The API gives citation and grounding offsets in bytes of the UTF-8 answer; the browser
 * slices UTF-16 strings. These helpers convert between the two (a byte offset inside a
 * multi-byte character rounds down to that character's start).
 */

const encoder = new TextEncoder();

/** Converts UTF-8 byte offsets of `text` to string indices, in one pass over the text. */
export function byteOffsetsToIndices(text: string, byteOffsets: readonly number[]): number[] {
  const wanted = [...new Set(byteOffsets)].sort((a, b) => a - b);
  const found = new Map<number, number>();
  let bytes = 0;
  let next = 0;
  let index = 0;
  for (const character of text) {
    while (next < wanted.length && wanted[next]! <= bytes) found.set(wanted[next++]!, index);
    const length = encoder.encode(character).length;
    // An offset inside this character belongs to its start.
    while (next < wanted.length && wanted[next]! < bytes + length)
      found.set(wanted[next++]!, index);
    bytes += length;
    index += character.length;
  }
  while (next < wanted.length) found.set(wanted[next++]!, text.length);
  return byteOffsets.map((offset) => found.get(offset) ?? text.length);
}

/** The text between two UTF-8 byte offsets. */
export function sliceBytes(text: string, start: number, end: number): string {
  const [from, to] = byteOffsetsToIndices(text, [start, end]);
  return text.slice(from, to);
}
