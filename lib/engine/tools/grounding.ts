/**
 * Grounding (`tools: [{googleSearch: {}}]`) in the local engine, offline: the "search" runs
 * over a local document set (the engine's shipped corpus answers, by topic), and the answer is
 * built from the sentences of the best documents, so every supported segment really comes
 * from its chunk. `groundingMetadata` has the service's googleSearch shape (recorded, 2026):
 * the query, a searchEntryPoint chip rendering it, the chunks as `web` sources (the document's
 * local `genstudio:` URI and title) and a support per sentence with its UTF-8 byte offsets in
 * the answer (startIndex left out at 0, as the service leaves zero values out) and the chunk
 * it came from. Knowingly different: no web; a prompt that matches no document is answered
 * without grounding.
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

/**
 * An answer made of the chunks' sentences that share the most words with `query` (at most
 * three, in chunk and document order), with a support per sentence: its UTF-8 byte offsets in
 * the answer (startIndex left out at 0) and the chunk it came from. Shared by Google Search
 * grounding and file search.
 */
export function groundedText(
  query: string,
  chunks: readonly string[],
): { text: string; supports: NonNullable<GroundingMetadata["groundingSupports"]> } {
  const wanted = new Set(searchWords(query));
  const picked: { chunk: number; order: number; sentence: string; overlap: number }[] = [];
  chunks.forEach((chunkText, chunk) => {
    sentences(chunkText).forEach((sentence, order) => {
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
    const endIndex = Buffer.byteLength(text, "utf8");
    supports.push({
      segment: { ...(startIndex ? { startIndex } : {}), endIndex, text: item.sentence },
      groundingChunkIndices: [item.chunk],
    });
  }
  return { text, supports };
}

/** An answer built from the local documents that match the prompt, or null when none does. */
export function answerFromDocuments(prompt: string): GroundedAnswer | null {
  const query = searchQuery(prompt);
  if (!query) return null;
  const set = localDocuments();
  const hits = searchIndex(set.index, query, MINIMUM_SCORE).slice(0, MAX_CHUNKS);
  if (hits.length === 0) return null;
  const { text, supports } = groundedText(
    query,
    hits.map((hit) => set.documents[hit.position]!.text),
  );
  return {
    text,
    groundingMetadata: {
      searchEntryPoint: { renderedContent: searchChips([query]) },
      groundingChunks: hits.map((hit) => {
        const document = set.documents[hit.position]!;
        return { web: { uri: document.uri, title: document.title } };
      }),
      groundingSupports: supports,
      webSearchQueries: [query],
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character]!,
  );
}

/**
 * The searchEntryPoint's rendered content: a self-contained block of the queries as chips, as
 * the service's is (its chips link to a web search; ours name the local search and link nowhere).
 */
function searchChips(queries: readonly string[]): string {
  const chips = queries.map((query) => `<span class="chip">${escapeHtml(query)}</span>`).join("\n");
  return `<style>
.container { font-family: sans-serif; display: flex; flex-direction: column; gap: 4px; }
.headline { font-size: 12px; color: #5f6368; }
.chip { display: inline-block; border: 1px solid #dadce0; border-radius: 16px; padding: 4px 12px; margin: 2px; font-size: 14px; }
</style>
<div class="container">
  <div class="headline">Local document search</div>
  <div class="carousel">
${chips}
  </div>
</div>
`;
}
