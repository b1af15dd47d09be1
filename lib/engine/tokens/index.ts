/**
 * Token counting for the local engine (api-notes §4): the public surface of lib/engine/tokens.
 * Text uses the model family's real vocabulary in a worker thread; media use fixed costs.
 */
import "server-only";

export type { TokenizerFamily } from "@/lib/gemini/model-traits";
export {
  countTexts,
  encodeText,
  encodeTexts,
  vocabularyPieces,
  controlTokenIds,
  warmUpTokenizer,
} from "./tokenizer-api";
export { decodeTokenIds, bytePieceValue } from "./decode";
export { PieceTable } from "./piece-table";
export {
  countRequestTokens,
  type CountableRequest,
  type CountRequestOptions,
  type FileReference,
} from "./count-request";
export type { FixedTokens, Place } from "./prompt-items";
export { audioTokens, mediaTokenCounts, pictureTokens, resolutionKey } from "./media-tokens";
export { makeThoughtSignature, thoughtSignatureTokens } from "./thought-signature";
export { TokenizerError, terminateTokenizerWorkers } from "./tokenizer-client";
