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
  added_tokens: { id: number; content: string; special?: boolean; lstrip?: boolean; rstrip?: boolean }[];
  normalizer: unknown;
  pre_tokenizer: unknown;
}

export interface EncodedSlice {
  ids: number[];
  /** Offset in the text where the slice ends; -1 for a pause inside a run with no safe cut. */
  end: number;
}

export interface SentencePieceEncoder {
  /** id → piece string, added tokens included. */
  readonly pieces: string[];
  readonly pieceToId: Map<string, number>;
  /** Special and control token ids, ascending. */
  readonly controlIds: number[];
  readonly maxPieceUnits: number;
  encode(text: string): number[];
  count(text: string): number;
  encodeSlices(text: string, sliceUnits: number): Generator<EncodedSlice, void, void>;
}

export function buildEncoder(json: TokenizerJson): SentencePieceEncoder;
