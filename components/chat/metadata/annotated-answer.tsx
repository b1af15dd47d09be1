"use client";

import { memo, useId, type ReactNode } from "react";
import type { Candidate, GroundingChunk } from "@/lib/gemini/types";
import { byteOffsetsToIndices } from "./byte-offsets";

/** The visible answer text the offsets of citations and grounding supports count in (thoughts excluded). */
export function answerTextOf(candidate: Candidate | undefined): string {
  return (candidate?.content?.parts ?? [])
    .filter((part) => typeof part.text === "string" && !part.thought)
    .map((part) => part.text)
    .join("");
}

/** Whether the candidate carries spans to mark in its text. */
export function hasAnnotations(candidate: Candidate | undefined): boolean {
  return Boolean(
    candidate?.citationMetadata?.citationSources?.length ||
    candidate?.groundingMetadata?.groundingSupports?.length,
  );
}

export function citationSourceLabel(uri: string | undefined): string {
  return uri ?? "this conversation";
}

interface Mark {
  start: number;
  end: number;
  kind: "citation" | "support";
  /** Numbers shown in the markers (citation number, or web source numbers). */
  numbers: number[];
  description: string;
}

function marksOf(candidate: Candidate, text: string): Mark[] {
  const raw: {
    start: number;
    end: number;
    kind: Mark["kind"];
    numbers: number[];
    description: string;
  }[] = [];
  (candidate.citationMetadata?.citationSources ?? []).forEach((source, index) => {
    raw.push({
      start: source.startIndex ?? 0,
      end: source.endIndex ?? 0,
      kind: "citation",
      numbers: [index + 1],
      description: `Citation ${index + 1}: ${citationSourceLabel(source.uri)}${source.license ? ` (licence ${source.license})` : ""}`,
    });
  });
  const chunks = candidate.groundingMetadata?.groundingChunks ?? [];
  for (const support of candidate.groundingMetadata?.groundingSupports ?? []) {
    const indices = support.groundingChunkIndices ?? [];
    const scores = support.confidenceScores ?? [];
    raw.push({
      start: support.segment?.startIndex ?? 0,
      end: support.segment?.endIndex ?? 0,
      kind: "support",
      numbers: indices.map((chunk) => chunk + 1),
      description: `Supported by ${indices
        .map(
          (chunk, position) =>
            `${isDocument(chunks[chunk]) ? "document" : "web source"} ${chunk + 1} (${chunkTitle(chunks[chunk])}${scores[position] !== undefined ? `, confidence ${scores[position]!.toFixed(2)}` : ""})`,
        )
        .join("; ")}`,
    });
  }
  const indices = byteOffsetsToIndices(
    text,
    raw.flatMap((mark) => [mark.start, mark.end]),
  );
  const marks = raw
    .map((mark, position) => ({
      ...mark,
      start: indices[position * 2]!,
      end: indices[position * 2 + 1]!,
    }))
    .filter((mark) => mark.end > mark.start);
  // Overlapping spans cannot nest in flat text: the earlier one wins, later overlapping ones keep only their markers' list entries.
  marks.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Mark[] = [];
  for (const mark of marks)
    if (!kept.length || mark.start >= kept[kept.length - 1]!.end) kept.push(mark);
  return kept;
}

function Marker({ mark, idPrefix }: { mark: Mark; idPrefix: string }) {
  const tooltipId = useId();
  const target =
    mark.kind === "citation"
      ? `${idPrefix}-citation-${mark.numbers[0]}`
      : `${idPrefix}-web-${mark.numbers[0] ?? 1}`;
  return (
    <span className="group relative">
      <a
        href={`#${target}`}
        aria-describedby={tooltipId}
        data-marker={mark.kind}
        className="ml-0.5 align-super text-[0.7em] font-semibold text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
      >
        [{mark.numbers.join(",")}]
      </a>
      <span
        role="tooltip"
        id={tooltipId}
        className="invisible absolute bottom-full left-0 z-20 mb-1 w-max max-w-xs rounded-md bg-zinc-900 px-2 py-1 text-xs break-all text-white group-focus-within:visible group-hover:visible dark:bg-zinc-100 dark:text-zinc-900"
      >
        {mark.description}
      </span>
    </span>
  );
}

/**
 * The answer as plain text with its cited and grounded spans highlighted, each followed by a
 * numbered marker: a link to the entry in the list under the answer, whose source shows on
 * hover and on keyboard focus (and is the marker's accessible description).
 */
export const AnnotatedAnswer = memo(function AnnotatedAnswer({
  candidate,
  idPrefix,
}: {
  candidate: Candidate;
  idPrefix: string;
}) {
  const text = answerTextOf(candidate);
  const marks = marksOf(candidate, text);
  const pieces: ReactNode[] = [];
  let cursor = 0;
  marks.forEach((mark, position) => {
    if (mark.start > cursor) pieces.push(text.slice(cursor, mark.start));
    pieces.push(
      <mark
        key={`m${position}`}
        data-cited={mark.kind}
        className={
          mark.kind === "citation"
            ? "rounded-sm bg-amber-100 text-inherit dark:bg-amber-900/50"
            : "rounded-sm bg-sky-100 text-inherit dark:bg-sky-900/50"
        }
      >
        {text.slice(mark.start, mark.end)}
      </mark>,
      <Marker key={`k${position}`} mark={mark} idPrefix={idPrefix} />,
    );
    cursor = mark.end;
  });
  if (cursor < text.length) pieces.push(text.slice(cursor));
  return (
    <div className="text-sm leading-6 whitespace-pre-wrap break-words" data-annotated-answer="">
      {pieces}
    </div>
  );
});

/**
 * The local engine's document set answers googleSearch with `web` chunks whose address uses
 * its own scheme (`genstudio:documents/...`): documents, not web pages, and nothing to open.
 */
const LOCAL_DOCUMENT = /^genstudio:/;

/** The address of a chunk that is a document (retrieved, or of the local document set), if so. */
export function documentUri(chunk: GroundingChunk | undefined): string | undefined {
  if (chunk?.retrievedContext) return chunk.retrievedContext.uri;
  const uri = chunk?.web?.uri;
  return uri && LOCAL_DOCUMENT.test(uri) ? uri : undefined;
}

/** Whether a chunk is a document rather than a web page. */
export function isDocument(chunk: GroundingChunk | undefined): boolean {
  return Boolean(chunk?.retrievedContext) || documentUri(chunk) !== undefined;
}

/** A grounding chunk's name: a web page's title or address, or a retrieved document's. */
export function chunkTitle(chunk: GroundingChunk | undefined, fallback = "unknown"): string {
  const source = chunk?.web ?? chunk?.retrievedContext;
  return source?.title ?? source?.uri ?? fallback;
}
