/**
 * URL context (`tools: [{urlContext: {}}]`) in the local engine: the URLs in the prompt that
 * the studio can resolve itself (its own Files API URIs, for files the caller may read) are
 * "retrieved" from storage, the others fail as an offline fetch would. `urlContextMetadata`
 * lists each URL with its status; the answer opens with what the first readable page says.
 * Knowingly different: nothing is fetched from the network.
 */
import type { UrlContextMetadata } from "@/lib/gemini/types";
import { probedText, type ResolveFile } from "@/lib/engine/generate/context";

/** The service reads at most 20 URLs of a request. */
const MAX_URLS = 20;
const ANSWER_SENTENCES = 2;

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

/** Resolves the prompt's URLs; null when it names none. */
export async function retrieveUrls(
  prompt: string,
  resolveFile: ResolveFile,
): Promise<UrlContextAnswer | null> {
  const urls = urlsOf(prompt);
  if (urls.length === 0) return null;
  const documents: string[] = [];
  const urlMetadata: NonNullable<UrlContextMetadata["urlMetadata"]> = [];
  let text: string | undefined;
  for (const url of urls) {
    let content: string | undefined;
    try {
      const file = await resolveFile(url);
      content = probedText(file.probed);
    } catch {
      content = undefined;
    }
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
          .replace(/\s+/g, " ")
          .trim()
          .match(/[^.!?]+[.!?]?/g) ?? [];
      text = `${url} says: ${opening.slice(0, ANSWER_SENTENCES).join("").trim()}`;
    }
  }
  return { text, urlContextMetadata: { urlMetadata }, documents };
}
