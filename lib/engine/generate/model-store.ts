/**
 * Trains the language model of a tokenizer family once, lazily, on the shipped corpus
 * (lib/engine/corpus) encoded with the family's own tokenizer, and keeps it for the process.
 */
import type { TokenizerFamily } from "@/lib/gemini/model-traits";
import { corpusDocuments } from "@/lib/engine/corpus";
import { buildSearchIndex, searchIndex, type SearchIndex } from "@/lib/engine/corpus/search";
import {
  controlTokenIds,
  encodeTexts,
  vocabularyPieces,
  type PieceTable,
} from "@/lib/engine/tokens";
import { LanguageModel, NgramCounts, symbolsFor, type RequestCounts } from "./language-model";
import { Vocabulary } from "./vocabulary";

const CONTROL_PIECE =
  /^(?:<(?:pad|eos|bos|unk|mask|unused\d+|start_of_\w+|end_of_\w+|\w+_soft_token|\/?s)>|\[multimodal\]|\[@BOS@\]|<\|[^|]*\|>)$/;

const models = new Map<TokenizerFamily, Promise<LanguageModel>>();

/** Control and special pieces of a vocabulary: the model never generates them. */
export function controlIds(pieces: PieceTable): number[] {
  const ids: number[] = [];
  for (let id = 0; id < pieces.size; id++) if (CONTROL_PIECE.test(pieces.get(id)!)) ids.push(id);
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
  const [pieces, control] = await Promise.all([vocabularyPieces(family), controlTokenIds(family)]);
  const vocabulary = new Vocabulary(pieces, [...control, ...controlIds(pieces)]);
  vocabulary.prepareForcedText();
  const symbols = symbolsFor(vocabulary.size);
  const counts = new NgramCounts();
  const documents = corpusDocuments();
  const encoded = await encodeTexts(
    family,
    documents.map((document) => document.text),
  );
  const trained = documents.map((document, index) => {
    const start = document.kind === "thought" ? symbols.thoughtStart : symbols.answerStart;
    const ids = [start, ...encoded[index]!, symbols.end];
    counts.addDocument(ids);
    return { kind: document.kind, text: document.text, ids };
  });
  return new LanguageModel(vocabulary, counts, trained);
}

/** How strongly the corpus answers most related to the prompt are repeated in its context. */
const RETRIEVED_WEIGHTS = [40, 15];

/**
 * The corpus answers that share the most (idf-weighted) words with the prompt: they join the
 * request's context so the answer leans toward the prompt's topic.
 */
export function relatedDocuments(model: LanguageModel, prompt: string): number[] {
  const index = retrievalIndex(model);
  if (!index.search.sets.length) return [];
  return searchIndex(index.search, prompt, 2)
    .slice(0, RETRIEVED_WEIGHTS.length)
    .map(({ position }) => index.documents[position]!);
}

interface RetrievalIndex {
  documents: number[];
  search: SearchIndex;
}

const retrievalIndexes = new WeakMap<LanguageModel, RetrievalIndex>();

/** The corpus answers' search index, built once per model. */
function retrievalIndex(model: LanguageModel): RetrievalIndex {
  let index = retrievalIndexes.get(model);
  if (!index) {
    const documents = model.documents.flatMap((document, position) =>
      document.kind === "answer" ? [position] : [],
    );
    const search = buildSearchIndex(documents.map((position) => model.documents[position]!.text));
    index = { documents, search };
    retrievalIndexes.set(model, index);
  }
  return index;
}

/** Counts of a request's context documents (and the corpus answers related to `prompt`). */
export async function contextCounts(
  family: TokenizerFamily,
  model: LanguageModel,
  documents: readonly string[],
  prompt: string,
  signal?: AbortSignal,
): Promise<RequestCounts> {
  const related = new NgramCounts();
  relatedDocuments(model, prompt).forEach((index, rank) =>
    related.addDocument(model.documents[index]!.ids, RETRIEVED_WEIGHTS[rank]),
  );
  const conversation = new NgramCounts();
  const encoded = await encodeTexts(family, [...documents], signal);
  // No end symbol: the context teaches words and phrases, not where an answer stops.
  for (const ids of encoded) conversation.addDocument([model.symbols.contextStart, ...ids]);
  return { related, conversation };
}
