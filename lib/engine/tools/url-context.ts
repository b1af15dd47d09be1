/**
 * URL context (`tools: [{urlContext: {}}]`) in the local engine: the URLs in the prompt that
 * the studio can resolve itself are "retrieved" from storage: its Files API URIs (the text of a
 * file the caller may read) and its cachedContents URLs (the text a cache of the caller's
 * holds), both recognised on any host as the request's file references are. The others, and
 * files or caches the caller may not read, fail as an offline fetch would
 * (URL_RETRIEVAL_STATUS_ERROR). `urlContextMetadata` lists each URL with its status; the answer
 * opens with what the first readable page says. Knowingly different: nothing is fetched from
 * the network.
 */
import type { UrlContextMetadata } from "@/lib/gemini/types";
import { cachedContentNameOfUrl } from "@/lib/gemini/references";
import {
  probedText,
  readableText,
  type ResolveCachedContent,
  type ResolveFile,
} from "@/lib/engine/generate/context";

/** The service reads at most 20 URLs of a request. */
const MAX_URLS = 20;
const ANSWER_SENTENCES = 2;
/** How much of a page its opening sentences are looked for in (a cache may hold megabytes). */
const OPENING_CHARACTERS = 10_000;

/** The http(s) URLs of a text, in order, once each. */
export function urlsOf(text: string): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(/https?:\/\/[^\s<>"'()]{1,2000}/g)) {
    const url = match[0].replace(/[.,;:!?]+$/, "");
    if (!urls.includes(url)) urls.push(url);
    if (urls.length === MAX_URLS) break;
  }
  return urls;
}

export interface UrlContextAnswer {
  /** The opening of the answer (from the first readable page), or undefined when none was read. */
  text?: string;
  urlContextMetadata: UrlContextMetadata;
  /** Texts retrieved, for the model's context. */
  documents: string[];
}

/** How URL context reads what the studio stores, for the caller. */
export interface UrlResolvers {
  resolveFile: ResolveFile;
  resolveCachedContent: ResolveCachedContent;
}

/** The text behind a URL the studio resolves itself; undefined when it cannot be read. */
async function retrieve(url: string, resolvers: UrlResolvers): Promise<string | undefined> {
  try {
    const cacheName = cachedContentNameOfUrl(url);
    if (cacheName === null) return probedText((await resolvers.resolveFile(url)).probed);
    const cache = await resolvers.resolveCachedContent(cacheName);
    const parts = [
      ...(cache.systemInstruction?.parts ?? []),
      ...cache.contents.flatMap((content) => content.parts),
    ];
    const texts: string[] = [];
    for (const part of parts) {
      const text = await readableText(part, resolvers.resolveFile);
      if (text?.trim()) texts.push(text);
    }
    return texts.join("\n");
  } catch {
    return undefined;
  }
}

/** Resolves the prompt's URLs; null when it names none. */
export async function retrieveUrls(
  prompt: string,
  resolvers: UrlResolvers,
): Promise<UrlContextAnswer | null> {
  const urls = urlsOf(prompt);
  if (urls.length === 0) return null;
  const documents: string[] = [];
  const urlMetadata: NonNullable<UrlContextMetadata["urlMetadata"]> = [];
  let text: string | undefined;
  for (const url of urls) {
    const content = await retrieve(url, resolvers);
    urlMetadata.push({
      retrievedUrl: url,
      urlRetrievalStatus:
        content !== undefined ? "URL_RETRIEVAL_STATUS_SUCCESS" : "URL_RETRIEVAL_STATUS_ERROR",
    });
    if (content === undefined) continue;
    documents.push(content);
    if (text === undefined) {
      const opening =
        content
          .slice(0, OPENING_CHARACTERS)
          .replace(/\s+/g, " ")
          .trim()
          .match(/[^.!?]+[.!?]?/g) ?? [];
      text = `${url} says: ${opening.slice(0, ANSWER_SENTENCES).join("").trim()}`;
    }
  }
  return { text, urlContextMetadata: { urlMetadata }, documents };
}
