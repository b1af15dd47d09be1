/**
 * The model family's SentencePiece vocabulary as the generator needs it: the bytes each token
 * id stands for, which ids may be generated, and a greedy longest-match encoder for text the
 * grammar forces (JSON punctuation, property names). Forced text is therefore a valid token
 * sequence of the family, though not always the canonical segmentation the tokenizer picks.
 */

import type { PieceTable } from "@/lib/engine/tokens";
import { ForcedTextIndex } from "./forced-text-index";

const SPACE_MARK = "▁";
const BYTE_PIECE = /^<0x([0-9A-Fa-f]{2})>$/;
const MAX_FORCED_PIECE = 24;

export class Vocabulary {
  readonly size: number;
  private readonly texts: (string | undefined)[];
  private readonly bytes: (Uint8Array | undefined)[];
  private readonly blocked: Uint8Array;
  private readonly byteIds = new Int32Array(256).fill(-1);
  private textToId: ForcedTextIndex | undefined;
  /** 0 unknown, 1 legal inside a JSON string as it is, 2 not. */
  private readonly jsonPlain: Uint8Array;
  private readonly encoder = new TextEncoder();

  /**
   * @param pieces id → piece, as the tokenizer's vocabulary lists them
   * @param controlIds special and control ids (`<bos>`, `<start_of_turn>`, unused slots ...): never generated
   */
  constructor(
    private readonly pieces: PieceTable,
    controlIds: Iterable<number>,
  ) {
    this.size = pieces.size;
    this.texts = new Array(pieces.size);
    this.bytes = new Array(pieces.size);
    this.blocked = new Uint8Array(pieces.size);
    this.jsonPlain = new Uint8Array(pieces.size);
    for (const id of controlIds) if (id >= 0 && id < this.size) this.blocked[id] = 1;
    for (let id = 0; id < pieces.size; id++) {
      const match = BYTE_PIECE.exec(pieces.get(id) ?? "");
      if (match) this.byteIds[parseInt(match[1]!, 16)] = id;
    }
  }

  /** Whether the id is a control token the model never emits. */
  isControl(id: number): boolean {
    return id < 0 || id >= this.size || this.blocked[id] === 1;
  }

  /** The raw piece (`▁the`, `<0x0A>`), as logprobs report tokens. */
  piece(id: number): string {
    return this.pieces.get(id) ?? "";
  }

  /** The bytes the token contributes to the output (byte-fallback pieces are one byte). */
  tokenBytes(id: number): Uint8Array {
    let cached = this.bytes[id];
    if (!cached) {
      const piece = this.pieces.get(id) ?? "";
      const match = BYTE_PIECE.exec(piece);
      cached = match
        ? Uint8Array.of(parseInt(match[1]!, 16))
        : this.isControl(id)
          ? new Uint8Array(0)
          : this.encoder.encode(piece.replaceAll(SPACE_MARK, " "));
      this.bytes[id] = cached;
    }
    return cached;
  }

  /** The token's text when it is whole UTF-8 on its own (else the replacement-free best effort). */
  tokenText(id: number): string {
    let cached = this.texts[id];
    if (cached === undefined) {
      const piece = this.pieces.get(id) ?? "";
      cached = BYTE_PIECE.test(piece)
        ? byteText(this.tokenBytes(id))
        : this.isControl(id)
          ? ""
          : piece.replaceAll(SPACE_MARK, " ");
      this.texts[id] = cached;
    }
    return cached;
  }

  /** Whether the token is whole text that may stand inside a JSON string unescaped. */
  isPlainJsonText(id: number): boolean {
    if (id < 0 || id >= this.size) return false;
    let known = this.jsonPlain[id]!;
    if (known === 0) {
      const piece = this.pieces.get(id) ?? "";
      known =
        !this.isControl(id) &&
        piece.length > 0 &&
        !BYTE_PIECE.test(piece) &&
        !/["\\\u0000-\u001f\u007f]/.test(piece)
          ? 1
          : 2;
      this.jsonPlain[id] = known;
    }
    return known === 1;
  }

  /** Encodes forced text by greedy longest match over the pieces, with byte fallback. */
  encodeForced(text: string): number[] {
    return [...this.encodeForcedLazily(text)];
  }

  /** `encodeForced` piece by piece, so a long forced text is encoded only as far as it is used. */
  *encodeForcedLazily(text: string): Generator<number> {
    const index = this.lookup();
    let position = 0;
    while (position < text.length) {
      let found = -1;
      let length = Math.min(MAX_FORCED_PIECE, text.length - position);
      for (; length > 0; length--) {
        found = index.get(text, position, position + length);
        if (found >= 0) break;
      }
      if (found >= 0) {
        yield found;
        position += length;
        continue;
      }
      const codePoint = text.codePointAt(position)!;
      const character = String.fromCodePoint(codePoint);
      for (const byte of this.encoder.encode(character)) {
        const id = this.byteIds[byte]!;
        if (id >= 0) yield id;
      }
      position += character.length;
    }
  }

  /** Builds the text → id map forced text needs (about a second): at training, not in a request. */
  prepareForcedText(): void {
    this.lookup();
  }

  private lookup(): ForcedTextIndex {
    this.textToId ??= new ForcedTextIndex(this.forcedTexts());
    return this.textToId;
  }

  /** Each generatable piece's text (spaces for "▁") and its id, in id order. */
  private *forcedTexts(): Generator<[string, number]> {
    for (let id = 0; id < this.size; id++) {
      if (this.isControl(id)) continue;
      const piece = this.pieces.get(id) ?? "";
      if (!piece || BYTE_PIECE.test(piece)) continue;
      yield [piece.replaceAll(SPACE_MARK, " "), id];
    }
  }
}

function byteText(bytes: Uint8Array): string {
  const byte = bytes[0] ?? 0;
  if (byte < 0x80) return String.fromCharCode(byte);
  return `<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`;
}

/** Turns emitted token bytes into text as they come, holding back incomplete UTF-8 sequences. */
export class TokenTextDecoder {
  private readonly decoder = new TextDecoder("utf-8");

  constructor(private readonly vocabulary: Vocabulary) {}

  /** The text completed by this token (may be empty while a multi-byte character is pending). */
  push(id: number): string {
    return this.decoder.decode(this.vocabulary.tokenBytes(id), { stream: true });
  }

  /** Flushes what is pending at the end. */
  end(): string {
    return this.decoder.decode();
  }
}
