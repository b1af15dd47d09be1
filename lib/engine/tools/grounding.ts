/**
 * Grounding (`tools: [{googleSearch: {}}]`) in the local engine, offline: the "search" runs
 * over a local document set (the engine's shipped corpus answers, by topic), and the answer is
 * built from the sentences of the best documents, so every supported segment really comes
 * from its chunk. `groundingMetadata` carries the query, the chunks (`retrievedContext` with the
 * document's local URI, title and text) and a support per sentence with its UTF-8 byte offsets
 * in the answer, the chunk it came from and a confidence. Knowingly different: no web, no
 * searchEntryPoint; a prompt that matches no document is answered without grounding.
 */
import { corpusDocuments } from "@/lib/engine/corpus";
import {
  buildSearchIndex,
  searchIndex,
  searchWords,
  type SearchIndex,
} from "@/lib/engine/corpus/search";
import type { GroundingMetadata } from "@/lib/gemini/types";

/** URI scheme of the local document set (not a web address: nothing to open). */
export const LOCAL_DOCUMENT_URI = "genstudio:documents";

const MAX_CHUNKS = 2;
const MAX_SENTENCES = 3;
const MINIMUM_SCORE = 3;

interface DocumentSet {
  documents: { uri: string; title: string; text: string }[];
  index: SearchIndex;
}

let documentSet: DocumentSet | null = null;

function localDocuments(): DocumentSet {
  if (!documentSet) {
    const perTopic = new Map<string, number>();
    const documents = corpusDocuments()
      .filter((document) => document.kind === "answer")
      .map((document) => {
        const number = (perTopic.get(document.topic) ?? 0) + 1;
        perTopic.set(document.topic, number);
        const topic = document.topic.replace(/-/g, " ");
        return {
          uri: `${LOCAL_DOCUMENT_URI}/${document.topic}/${number}`,
          title: `${topic[0]!.toUpperCase()}${topic.slice(1)}, document ${number}`,
          text: document.text,
        };
      });
    documentSet = { documents, index: buildSearchIndex(documents.map((item) => item.text)) };
  }
  return documentSet;
}

/** Sentences of a document, each ending with its punctuation. */
function sentences(text: string): string[] {
  const result: string[] = [];
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (
      (character === "." || character === "!" || character === "?") &&
      /\s|$/.test(text[index + 1] ?? "")
    ) {
      const sentence = text.slice(start, index + 1).trim();
      if (sentence) result.push(sentence);
      start = index + 1;
    }
  }
  const rest = text.slice(start).trim();
  if (rest) result.push(rest);
  return result;
}

export interface GroundedAnswer {
  text: string;
  groundingMetadata: GroundingMetadata;
}

/** The search query the engine runs: the prompt's significant words, in order, once each. */
export function searchQuery(prompt: string): string {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const word of prompt.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) {
    if (seen.has(word) || STOP_WORDS.has(word)) continue;
    seen.add(word);
    words.push(word);
    if (words.length === 12) break;
  }
  return words.join(" ");
}

const STOP_WORDS = new Set(
  "the and for with from that this what which who how why when where are was were does did can could would should will about into your you they them their there have has had not but all any some".split(
    " ",
  ),
);

/** An answer built from the local documents that match the prompt, or null when none does. */
export function answerFromDocuments(prompt: string): GroundedAnswer | null {
  const query = searchQuery(prompt);
  if (!query) return null;
  const set = localDocuments();
  const hits = searchIndex(set.index, query, MINIMUM_SCORE).slice(0, MAX_CHUNKS);
  if (hits.length === 0) return null;
  const wanted = new Set(searchWords(query));
  const best = hits[0]!.score;
  // Each chunk's sentences that share the most query words; the answer keeps document order.
  const picked: { chunk: number; order: number; sentence: string; overlap: number }[] = [];
  hits.forEach((hit, chunk) => {
    sentences(set.documents[hit.position]!.text).forEach((sentence, order) => {
      const overlap = new Set(searchWords(sentence).filter((word) => wanted.has(word))).size;
      picked.push({ chunk, order, sentence, overlap });
    });
  });
  const chosen = picked
    .filter((item) => item.overlap > 0 || item.order === 0)
    .sort((a, b) => b.overlap - a.overlap || a.chunk - b.chunk || a.order - b.order)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.chunk - b.chunk || a.order - b.order);
  let text = "";
  const supports: NonNullable<GroundingMetadata["groundingSupports"]> = [];
  for (const item of chosen) {
    if (text) text += " ";
    const startIndex = Buffer.byteLength(text, "utf8");
    text += item.sentence;
    supports.push({
      segment: { startIndex, endIndex: Buffer.byteLength(text, "utf8"), text: item.sentence },
      groundingChunkIndices: [item.chunk],
      confidenceScores: [
        Math.round(Math.min(1, (hits[item.chunk]!.score / best) * (0.5 + item.overlap / 8)) * 100) /
          100,
      ],
    });
  }
  return {
    text,
    groundingMetadata: {
      webSearchQueries: [query],
      groundingChunks: hits.map((hit) => {
        const document = set.documents[hit.position]!;
        return {
          retrievedContext: { uri: document.uri, title: document.title, text: document.text },
        };
      }),
      groundingSupports: supports,
    },
  };
}
