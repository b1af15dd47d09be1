/**
 * Citation metadata of the local engine (spec "Citation, grounding and logprob
 * metadata"): an answer span of at least MIN_CITED_WORDS words copied verbatim from provided
 * stored resource the request uses (a text file, a cached content) is cited with UTF-8 byte
 * offsets into the answer (startIndex inclusive, endIndex exclusive) and the uri of its source.
 * Knowingly different from the service, which cites web and licensed sources: here the sources
 * are the caller's own stored resources, and words are compared with runs of whitespace
 * treated as one space.
 */
import type { CitationSource, GenerateContentRequest, Part } from "@/lib/gemini/types";
import { sliceEnd, TimeSlices } from "@/lib/runtime/time-slices";
import { isTextual, probedText, type ResolveFile } from "./context";

/** The shortest copied run, in words, that is cited (shorter runs are common phrases, not copies). */
export const MIN_CITED_WORDS = 5;

/** One piece of context an answer may copy from. */
export interface CitableSource {
  text: string;
  /** The file's uri (`…/files/…`) or the cache's name (`cachedContents/…`). */
  uri: string;
}

export interface CitationContext {
  /** How many leading contents of the (merged) request came from cached content, and the cache's name. */
  cachedContent?: { name: string; contents: number };
}

/**
 * The sources a request offers for citation: stored resources the answer may copy, each with
 * its uri. Cached content is cited by the cache's name (files in it keep their own uri); a
 * text file by its uri, from its probed text. What the caller wrote in the request itself
 * (the turns, the system instruction, inline text) is never a source: the service cites no
 * part of a prompt (no recorded answer to a conversation or an inline document carries
 * citationMetadata), and an answer that repeats the history is not a citation of it.
 */
export async function gatherCitableSources(
  request: GenerateContentRequest,
  resolveFile: ResolveFile,
  context: CitationContext = {},
): Promise<CitableSource[]> {
  const sources: CitableSource[] = [];
  const cacheCount = context.cachedContent?.contents ?? 0;
  const cacheName = context.cachedContent?.name;
  // With cached content the system instruction can only have come from the cache (the request may not set one).
  if (cacheName) {
    const system = (request.systemInstruction?.parts ?? [])
      .map((part) => (part.thought ? "" : (part.text ?? "")))
      .join("\n");
    if (system.trim()) sources.push({ text: system, uri: cacheName });
  }
  // Megabytes of parts are looked at in slices; only file parts are awaited.
  const slices = new TimeSlices();
  for (const [index, content] of request.contents.entries()) {
    const fromCache = index < cacheCount && cacheName !== undefined;
    for (const part of content.parts) {
      const media = part.inlineData !== undefined || part.fileData !== undefined;
      if (media ? slices.due() : slices.dueAfterItem()) await slices.pause();
      const file = part.fileData ? await fileText(part, resolveFile) : undefined;
      if (file) sources.push(file);
      else if (fromCache && !part.thought && part.text?.trim())
        sources.push({ text: part.text, uri: cacheName });
      else if (fromCache && part.inlineData && isTextual(part.inlineData.mimeType)) {
        const text = Buffer.from(part.inlineData.data, "base64").toString("utf8");
        if (text.trim()) sources.push({ text, uri: cacheName });
      }
    }
  }
  return sources;
}

/** A text file's probed text, under the file's uri. */
async function fileText(part: Part, resolveFile: ResolveFile): Promise<CitableSource | undefined> {
  if (!part.fileData) return undefined;
  try {
    const file = await resolveFile(part.fileData.fileUri);
    const text = probedText(file.probed);
    return text?.trim() ? { text, uri: part.fileData.fileUri } : undefined;
  } catch {
    // A file the caller cannot read is refused by token counting; it is simply no source here.
    return undefined;
  }
}

/** Longest source text compared (a bigger text file is cited from its beginning). */
const MAX_SOURCE_CHARACTERS = 2_000_000;
/** Places in one source where a 5-word run starts that are followed to find the longest copy. */
const MAX_PLACES_FOLLOWED = 64;

interface IndexedSource {
  words: string[];
}

/** A place in a source where a run of MIN_CITED_WORDS consecutive words starts. */
interface Place {
  source: number;
  word: number;
}

/** The request's sources, indexed once for every candidate's citations. */
export interface CitationIndex {
  sources: readonly CitableSource[];
  indexed: readonly IndexedSource[];
  /**
   * Where each run of MIN_CITED_WORDS words starts (a copy must start with one), in every
   * source, in source order, at most MAX_PLACES_FOLLOWED per source: one lookup per answer
   * word, however many sources (a lookup per source and word held the thread for long on a
   * cache of a hundred thousand turns).
   */
  places: Map<string, Place[]>;
}

/**
 * Indexes the sources' words and 5-word runs, in slices with event-loop turns between them
 * (a request may use megabytes of files and cached contents), so other requests are served meanwhile.
 */
export async function indexCitableSources(
  sources: readonly CitableSource[],
  signal?: AbortSignal,
): Promise<CitationIndex> {
  const indexed: IndexedSource[] = [];
  const everywhere = new Map<string, Place[]>();
  const slices = new TimeSlices();
  for (const [position, source] of sources.entries()) {
    const text = source.text.slice(0, MAX_SOURCE_CHARACTERS);
    const words: string[] = [];
    for (let from = 0; from < text.length && !signal?.aborted;) {
      const to = sliceEnd(text, from);
      for (const word of text.slice(from, to).split(/\s+/)) if (word) words.push(word);
      from = to;
      await slices.pause();
    }
    for (let index = 0; index + MIN_CITED_WORDS <= words.length; index++) {
      const gram = words.slice(index, index + MIN_CITED_WORDS).join(" ");
      const found = everywhere.get(gram);
      if (!found) everywhere.set(gram, [{ source: position, word: index }]);
      // This source's places are the end of the list: it has its share once the last
      // MAX_PLACES_FOLLOWED are all its own.
      else if (
        found.length < MAX_PLACES_FOLLOWED ||
        found[found.length - MAX_PLACES_FOLLOWED]!.source !== position
      )
        found.push({ source: position, word: index });
      if (slices.dueAfterItem()) await slices.pause();
    }
    indexed.push({ words });
    if (slices.due()) await slices.pause();
  }
  return { sources, indexed, places: everywhere };
}

interface Word {
  text: string;
  startByte: number;
  endByte: number;
}

function wordsWithBytes(text: string): Word[] {
  const words: Word[] = [];
  let charCursor = 0;
  let byteCursor = 0;
  for (const match of text.matchAll(/\S+/g)) {
    byteCursor += Buffer.byteLength(text.slice(charCursor, match.index));
    const length = Buffer.byteLength(match[0]);
    words.push({ text: match[0], startByte: byteCursor, endByte: byteCursor + length });
    byteCursor += length;
    charCursor = match.index + match[0].length;
  }
  return words;
}

/**
 * The citations of an answer: each maximal run of at least MIN_CITED_WORDS words that one
 * source contains verbatim, with byte offsets into the UTF-8 answer. Runs do not overlap;
 * where two sources contain the same run, the longer copy wins, then the earlier source.
 * Each copy is followed word by word from the places its first five words occur, so the
 * cost is the answer's length times the copies found, never the sources' length.
 */
export function findCitations(answer: string, index: CitationIndex): CitationSource[] {
  const words = wordsWithBytes(answer);
  if (words.length < MIN_CITED_WORDS || index.indexed.length === 0) return [];
  const gram = (from: number): string =>
    words
      .slice(from, from + MIN_CITED_WORDS)
      .map((word) => word.text)
      .join(" ");
  const citations: CitationSource[] = [];
  let start = 0;
  while (start + MIN_CITED_WORDS <= words.length) {
    const first = gram(start);
    let bestEnd = -1;
    let bestSource = -1;
    for (const { source: position, word: place } of index.places.get(first) ?? []) {
      const source = index.indexed[position]!;
      let end = start + MIN_CITED_WORDS;
      while (
        end < words.length &&
        place + (end - start) < source.words.length &&
        source.words[place + (end - start)] === words[end]!.text
      )
        end += 1;
      if (end > bestEnd) {
        bestEnd = end;
        bestSource = position;
      }
    }
    if (bestSource < 0) {
      start += 1;
      continue;
    }
    citations.push({
      startIndex: words[start]!.startByte,
      endIndex: words[bestEnd - 1]!.endByte,
      uri: index.sources[bestSource]!.uri,
    });
    start = bestEnd;
  }
  return citations;
}
