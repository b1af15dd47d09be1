"use client";

import { memo } from "react";
import type {
  Candidate,
  CitationSource,
  GroundingChunk,
  GroundingMetadata,
  GroundingSupport,
  UrlContextMetadata,
} from "@/lib/gemini/types";
import {
  answerTextOf,
  chunkTitle,
  citationSourceLabel,
  documentUri,
  isDocument,
} from "./annotated-answer";
import { sliceBytes } from "./byte-offsets";

const URL_STATUS_TEXT: Record<string, string> = {
  URL_RETRIEVAL_STATUS_SUCCESS: "retrieved",
  URL_RETRIEVAL_STATUS_ERROR: "could not be retrieved",
  URL_RETRIEVAL_STATUS_PAYWALL: "behind a paywall",
  URL_RETRIEVAL_STATUS_UNSAFE: "refused as unsafe",
  URL_RETRIEVAL_STATUS_UNSPECIFIED: "status unknown",
};

function isSafeLink(uri: string | undefined): uri is string {
  return typeof uri === "string" && /^https?:\/\//i.test(uri);
}

function SourceLink({ uri, children }: { uri: string | undefined; children: React.ReactNode }) {
  if (!isSafeLink(uri)) return <span className="break-all">{children}</span>;
  return (
    <a
      href={uri}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="break-all text-blue-800 underline underline-offset-2 dark:text-blue-300"
    >
      {children}
    </a>
  );
}

const sectionClass =
  "mt-2 rounded-md border border-zinc-200 p-2 text-xs text-zinc-700 dark:border-zinc-800 dark:text-zinc-300";

/**
 * The search suggestions' own policy, on top of the page's (which a srcdoc frame inherits):
 * their inline styles and inline images only, nothing fetched from anywhere.
 */
const SEARCH_ENTRY_POINT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * What an answer carries besides its parts: citations (numbered as the markers in the
 * text), grounding (web sources, supported segments with confidence scores, search
 * queries, and the search entry point in a sandboxed frame) and URL context retrieval.
 */
export const AnswerMetadata = memo(function AnswerMetadata({
  candidate,
  idPrefix,
}: {
  candidate: Candidate | undefined;
  idPrefix: string;
}) {
  if (!candidate) return null;
  const citations = candidate.citationMetadata?.citationSources ?? [];
  const grounding = candidate.groundingMetadata;
  const urls = candidate.urlContextMetadata?.urlMetadata ?? [];
  const text = answerTextOf(candidate);
  return (
    <>
      {citations.length > 0 && <Citations citations={citations} text={text} idPrefix={idPrefix} />}
      {grounding && <Grounding grounding={grounding} text={text} idPrefix={idPrefix} />}
      {urls.length > 0 && <UrlContext urls={urls} />}
    </>
  );
});

function Citations({
  citations,
  text,
  idPrefix,
}: {
  citations: CitationSource[];
  text: string;
  idPrefix: string;
}) {
  return (
    <section aria-label="Citations" className={sectionClass} data-citations="">
      <h3 className="font-semibold">Citations</h3>
      <ol className="mt-1 list-decimal pl-5">
        {citations.map((source, index) => (
          <li
            key={index}
            id={`${idPrefix}-citation-${index + 1}`}
            tabIndex={-1}
            data-citation-source={source.uri ?? ""}
          >
            <SourceLink uri={source.uri}>{citationSourceLabel(source.uri)}</SourceLink>
            {source.license ? ` (licence ${source.license})` : ""} — bytes {source.startIndex ?? 0}–
            {source.endIndex ?? 0}:{" "}
            <q className="italic">
              {sliceBytes(text, source.startIndex ?? 0, source.endIndex ?? 0)}
            </q>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Grounding: its sources (web pages or local documents), the segments they support, the search queries and entry point. */
function Grounding({
  grounding,
  text,
  idPrefix,
}: {
  grounding: GroundingMetadata;
  text: string;
  idPrefix: string;
}) {
  const chunks = grounding.groundingChunks ?? [];
  const supports = grounding.groundingSupports ?? [];
  const queries = grounding.webSearchQueries ?? [];
  const entryPoint = grounding.searchEntryPoint?.renderedContent;
  // Chunks of retrieved documents (the local engine's document set) rather than web pages.
  const documents = chunks.length > 0 && chunks.every((chunk) => isDocument(chunk));
  if (!(chunks.length > 0 || queries.length > 0 || entryPoint)) return null;
  return (
    <section aria-label="Grounding" className={sectionClass} data-grounding="">
      <h3 className="font-semibold">
        {documents ? "Grounded in local documents" : "Grounded in Google Search"}
      </h3>
      {chunks.length > 0 && (
        <GroundingSources chunks={chunks} documents={documents} idPrefix={idPrefix} />
      )}
      {supports.length > 0 && <SupportedSegments supports={supports} text={text} />}
      {queries.length > 0 && (
        <p className="mt-1">
          <span className="font-medium">Search queries: </span>
          {queries.map((query, index) => (
            <span
              key={index}
              data-search-query=""
              className="mr-1 rounded bg-zinc-100 px-1 dark:bg-zinc-800"
            >
              {query}
            </span>
          ))}
        </p>
      )}
      {entryPoint && (
        // The service's suggestion chips are third-party HTML: an empty sandbox runs no script, submits no form and cannot navigate the studio.
        <iframe
          title="Search suggestions"
          sandbox=""
          srcDoc={`<meta http-equiv="Content-Security-Policy" content="${SEARCH_ENTRY_POINT_POLICY}">${entryPoint}`}
          className="mt-1 h-20 w-full rounded border border-zinc-200 bg-white dark:border-zinc-800"
          data-search-entry-point=""
        />
      )}
    </section>
  );
}

function GroundingSources({
  chunks,
  documents,
  idPrefix,
}: {
  chunks: GroundingChunk[];
  documents: boolean;
  idPrefix: string;
}) {
  return (
    <>
      <h4 className="mt-1 font-medium">{documents ? "Documents" : "Web sources"}</h4>
      <ol className="list-decimal pl-5">
        {chunks.map((chunk, index) => (
          <li key={index} id={`${idPrefix}-web-${index + 1}`} tabIndex={-1} data-web-source="">
            <SourceLink uri={chunk.web?.uri}>{chunkTitle(chunk, "untitled source")}</SourceLink>
            {documentUri(chunk) && (
              <span className="ml-1 font-mono break-all" data-document-uri="">
                {documentUri(chunk)}
              </span>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

function SupportedSegments({ supports, text }: { supports: GroundingSupport[]; text: string }) {
  return (
    <>
      <h4 className="mt-1 font-medium">Supported segments</h4>
      <ul className="pl-1">
        {supports.map((support, index) => (
          <li key={index} data-grounding-support="">
            <q className="bg-sky-100 dark:bg-sky-900/50">
              {support.segment?.text ??
                sliceBytes(text, support.segment?.startIndex ?? 0, support.segment?.endIndex ?? 0)}
            </q>{" "}
            {(support.groundingChunkIndices ?? []).map((chunk, position) => (
              <span key={position} className="mr-1 whitespace-nowrap">
                [{chunk + 1}]
                {support.confidenceScores?.[position] !== undefined
                  ? ` confidence ${support.confidenceScores[position]!.toFixed(2)}`
                  : ""}
              </span>
            ))}
          </li>
        ))}
      </ul>
    </>
  );
}

function UrlContext({ urls }: { urls: NonNullable<UrlContextMetadata["urlMetadata"]> }) {
  return (
    <section aria-label="URL context" className={sectionClass} data-url-context="">
      <h3 className="font-semibold">URL context</h3>
      <ul className="mt-1 pl-1">
        {urls.map((entry, index) => {
          const status = entry.urlRetrievalStatus ?? "URL_RETRIEVAL_STATUS_UNSPECIFIED";
          const ok = status === "URL_RETRIEVAL_STATUS_SUCCESS";
          return (
            <li key={index} data-url-status={status}>
              <span
                aria-hidden="true"
                className={
                  ok ? "text-green-700 dark:text-green-400" : "text-red-700 dark:text-red-400"
                }
              >
                {ok ? "✓ " : "✗ "}
              </span>
              <SourceLink uri={entry.retrievedUrl}>
                {entry.retrievedUrl ?? "unknown URL"}
              </SourceLink>
              : {URL_STATUS_TEXT[status] ?? status}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
