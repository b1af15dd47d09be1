/**
 * The file search tool (`tools: [{fileSearch: {fileSearchStoreNames}}]`) in the local engine:
 * the named stores' documents are cut into chunks, the chunks that share words with the prompt
 * are retrieved (the same offline search as Google Search grounding), and the answer is made
 * of their sentences. `groundingMetadata` has the service's file search shape (recorded, 2026):
 * each chunk as `retrievedContext {title, text, fileSearchStore}`, a support per sentence.
 * Knowingly different: words shared, not embeddings; a prompt that shares no word with any
 * chunk is answered without grounding.
 */
import { buildSearchIndex, searchIndex, searchWords } from "@/lib/engine/corpus/search";
import type { GroundingMetadata } from "@/lib/gemini/types";
import { groundedText, searchQuery, type GroundedAnswer } from "./grounding";

/** A document of a store, as retrieval reads it. */
export interface StoreDocument {
  /** `fileSearchStores/{id}`. */
  store: string;
  title: string;
  text: string;
}

/** Reads the named stores' documents for the caller; throws the service's error for a store it may not read. */
export type ResolveFileSearchStores = (names: string[]) => Promise<StoreDocument[]>;

/** Words per chunk: the service's default chunks are a few hundred tokens. */
const CHUNK_WORDS = 200;
const DEFAULT_TOP_K = 5;

interface Chunk {
  store: string;
  title: string;
  text: string;
}

/** A document's chunks of about CHUNK_WORDS words, each ending with a newline as the service's do. */
export function chunksOf(document: StoreDocument, wordsPerChunk = CHUNK_WORDS): Chunk[] {
  const words = document.text.split(/(?<=\s)/);
  const chunks: Chunk[] = [];
  for (let start = 0; start < words.length; start += wordsPerChunk) {
    const text = words
      .slice(start, start + wordsPerChunk)
      .join("")
      .trim();
    if (text) chunks.push({ store: document.store, title: document.title, text: `${text}\n` });
  }
  return chunks;
}

export interface FileSearchAnswer extends GroundedAnswer {
  /** The retrieved chunks' texts: what the tool put before the model (toolUsePromptTokenCount). */
  retrievedTexts: string[];
}

/** The answer grounded in the stores' chunks that share words with the prompt, or null. */
export function answerFromStores(
  prompt: string,
  documents: readonly StoreDocument[],
  topK = DEFAULT_TOP_K,
): FileSearchAnswer | null {
  const query = searchQuery(prompt);
  if (!query) return null;
  const chunks = documents.flatMap((document) => chunksOf(document));
  if (chunks.length === 0) return null;
  const index = buildSearchIndex(chunks.map((chunk) => chunk.text));
  const wanted = new Set(searchWords(query));
  const overlap = (position: number) =>
    [...index.sets[position]!].filter((word) => wanted.has(word)).length;
  const hits = searchIndex(index, query, 0)
    .map((hit) => ({ ...hit, overlap: overlap(hit.position) }))
    .filter((hit) => hit.overlap > 0)
    .sort((a, b) => b.overlap - a.overlap || b.score - a.score || a.position - b.position)
    .slice(0, Math.max(1, topK));
  if (hits.length === 0) return null;
  const retrieved = hits.map((hit) => chunks[hit.position]!);
  const { text, supports } = groundedText(
    query,
    retrieved.map((chunk) => chunk.text),
  );
  const groundingMetadata: GroundingMetadata = {
    groundingChunks: retrieved.map((chunk) => ({
      retrievedContext: { title: chunk.title, text: chunk.text, fileSearchStore: chunk.store },
    })),
    groundingSupports: supports,
  };
  return { text, groundingMetadata, retrievedTexts: retrieved.map((chunk) => chunk.text) };
}
