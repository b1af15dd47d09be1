/** Types of sentencepiece-bpe.mjs (plain JS so the tokenizer worker runs it unbundled). */

/** The parts of a Hugging Face tokenizer.json the encoder reads. */
export interface TokenizerJson {
  model: {
    type: string;
    vocab: Record<string, number>;
    merges: (string | [string, string])[];
    unk_token: string;
    byte_fallback?: boolean;
    fuse_unk?: boolean;
    ignore_merges?: boolean;
    end_of_word_suffix?: string | null;
    continuing_subword_prefix?: string | null;
  };
  added_tokens: {
    id: number;
    content: string;
    special?: boolean;
    lstrip?: boolean;
    rstrip?: boolean;
  }[];
  normalizer: unknown;
  pre_tokenizer: unknown;
}

export interface EncodedSlice {
  ids: number[];
  /** Offset in the text where the slice ends; -1 for a pause inside a run with no safe cut. */
  end: number;
}

/** What an encoder is made of, and what its cache file stores. */
export interface EncoderParts {
  /** id → piece, added tokens included. */
  pieces: string[];
  /** [left id, right id, rank, merged id] per merge. */
  merges: Int32Array;
  addedTokens: { id: number; content: string; special: boolean }[];
  unkToken: string;
}

export interface SentencePieceEncoder {
  /** id → piece string, added tokens included. */
  readonly pieces: string[];
  /** piece → id, built on first use. */
  readonly pieceToId: Map<string, number>;
  /** Special and control token ids, ascending. */
  readonly controlIds: number[];
  readonly maxPieceUnits: number;
  encode(text: string): number[];
  count(text: string): number;
  encodeSlices(text: string, sliceUnits: number): Generator<EncodedSlice, void, void>;
}

export function buildEncoder(json: TokenizerJson): SentencePieceEncoder;
export function partsFromJson(json: TokenizerJson): {
  parts: EncoderParts;
  pieceToId: Map<string, number>;
};
export function assembleEncoder(
  parts: EncoderParts,
  pieceToId?: Map<string, number>,
): SentencePieceEncoder;
export function serializeParts(parts: EncoderParts, identity: Record<string, unknown>): Uint8Array;
export function deserializeParts(
  blob: Uint8Array,
  identity: Record<string, unknown>,
): EncoderParts | undefined;
