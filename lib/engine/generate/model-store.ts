/**
 * Trains the language model of a tokenizer family once, lazily, on the shipped corpus
 * (lib/engine/corpus) encoded with the family's own tokenizer, and keeps it for the process.
 */
import type { TokenizerFamily } from "@/lib/gemini/model-traits";
import { corpusDocuments } from "@/lib/engine/corpus";
import { encodeText, vocabularyPieces } from "@/lib/engine/tokens";
import { LanguageModel, NgramCounts, symbolsFor } from "./language-model";
import { Vocabulary } from "./vocabulary";

const CONTROL_PIECE = /^(?:<(?:pad|eos|bos|unk|mask|unused\d+|start_of_\w+|end_of_\w+|\w+_soft_token|\/?s)>|\[multimodal\]|\[@BOS@\]|<\|[^|]*\|>)$/;

const models = new Map<TokenizerFamily, Promise<LanguageModel>>();

/** Control and special pieces of a vocabulary: the model never generates them. */
export function controlIds(pieces: readonly string[]): number[] {
  const ids: number[] = [];
  pieces.forEach((piece, id) => {
    if (CONTROL_PIECE.test(piece)) ids.push(id);
  });
  return ids;
}

/** The trained model of a family; the first call trains it (seconds, mostly tokenizer load). */
export function languageModel(family: TokenizerFamily): Promise<LanguageModel> {
  let model = models.get(family);
  if (!model) {
    model = train(family);
    models.set(family, model);
    model.catch(() => models.delete(family));
  }
  return model;
}

async function train(family: TokenizerFamily): Promise<LanguageModel> {
  const pieces = await vocabularyPieces(family);
  const vocabulary = new Vocabulary(pieces, controlIds(pieces));
  const symbols = symbolsFor(vocabulary.size);
  const counts = new NgramCounts();
  const documents = corpusDocuments();
  const encoded = await Promise.all(documents.map((document) => encodeText(family, document.text)));
  documents.forEach((document, index) => {
    const start = document.kind === "thought" ? symbols.thoughtStart : symbols.answerStart;
    counts.addDocument([start, ...encoded[index]!, symbols.end]);
  });
  return new LanguageModel(vocabulary, counts);
}

/** Counts of a request's context documents, encoded with the family's tokenizer. */
export async function contextCounts(family: TokenizerFamily, model: LanguageModel, documents: readonly string[], signal?: AbortSignal): Promise<NgramCounts> {
  const counts = new NgramCounts();
  const encoded = await Promise.all(documents.map((document) => encodeText(family, document, signal)));
  for (const ids of encoded) counts.addDocument([model.symbols.contextStart, ...ids, model.symbols.end]);
  return counts;
}
