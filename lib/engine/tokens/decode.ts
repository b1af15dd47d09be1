/**
 * Decoding of token ids into text with a family's piece table (the SentencePiece decoder of
 * the Gemma vocabularies: "▁" is a space, `<0xNN>` byte pieces are reassembled as UTF-8).
 * Pure and synchronous, so the generation engine can decode sampled ids in the main thread.
 */

import type { PieceTable } from "./piece-table";

const BYTE_PIECE = /^<0x([0-9A-F]{2})>$/;

/**
 * The text of a sequence of token ids. Byte pieces in a row form one UTF-8 sequence; invalid
 * sequences decode to U+FFFD. Control pieces decode to their literal text (callers exclude
 * them from sampling). Throws RangeError for an id outside the table.
 */
export function decodeTokenIds(pieces: PieceTable, ids: readonly number[]): string {
  let text = "";
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length === 0) return;
    text += new TextDecoder("utf-8").decode(Uint8Array.from(bytes));
    bytes = [];
  };
  for (const id of ids) {
    const piece = pieces.get(id);
    if (piece === undefined)
      throw new RangeError(`Token id ${id} is not in the vocabulary (${pieces.size} pieces).`);
    const byte = piece.length === 6 ? BYTE_PIECE.exec(piece) : null;
    if (byte) {
      bytes.push(Number.parseInt(byte[1]!, 16));
      continue;
    }
    flush();
    text += piece.replaceAll("\u2581", " ");
  }
  flush();
  return text;
}

/** The byte value of a `<0xNN>` piece, or undefined for any other piece. */
export function bytePieceValue(piece: string): number | undefined {
  const byte = piece.length === 6 ? BYTE_PIECE.exec(piece) : null;
  return byte ? Number.parseInt(byte[1]!, 16) : undefined;
}
