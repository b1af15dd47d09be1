/**
 * A batch's requests as work, in input order, from where its last commit left off: inline
 * requests read from the store a page at a time, or the lines of its JSONL input file, each
 * parsed (as a generation or an embedding request, by the batch's kind) into a request or the
 * problem that makes it fail alone.
 */
import { ApiError } from "@/lib/gemini/api-error";
import type { EmbedContentRequest } from "@/lib/gemini/embedding-types";
import type { GenerateContentRequest } from "@/lib/gemini/types";
import { parseBatchInputLine } from "@/lib/gemini/validate-batch";
import { parseEmbedInputLine } from "@/lib/gemini/validate-embedding";
import type { BatchRecord, BatchStore } from "@/lib/db/stores/batch-store";
import type { BatchKind } from "./batch-service";
import { readJsonlLines } from "./jsonl-lines";

/** Longest JSONL line read as a request by default: 20 MiB, the service's inline limit. */
export const DEFAULT_MAX_LINE_BYTES = 20 * 1024 * 1024;
const INLINE_PAGE = 64;

export /** One request to run, in input order; `problem` when its line could not be read as a request. */
interface WorkItem {
  position: number;
  key?: string;
  metadata?: Record<string, unknown>;
  /** A GenerateContentRequest, or an EmbedContentRequest in an embedding batch. */
  request?: GenerateContentRequest | EmbedContentRequest;
  problem?: ApiError;
  /** File input: byte offset just after this request's line. */
  inputEnd?: number;
}

/** The inline requests not yet committed, read from the store a page at a time. */
export async function* inlineItems(
  store: BatchStore,
  batch: BatchRecord,
  signal: AbortSignal,
): AsyncGenerator<WorkItem> {
  let position = batch.doneCount;
  while (!signal.aborted) {
    const page = await store.requestsFrom(batch.id, position, INLINE_PAGE);
    if (page.length === 0) return;
    for (const stored of page) {
      yield {
        position: stored.position,
        request: JSON.parse(stored.requestJson) as GenerateContentRequest | EmbedContentRequest,
        ...(stored.metadata ? { metadata: stored.metadata } : {}),
      };
    }
    position = page[page.length - 1]!.position + 1;
  }
}

/** How a JSONL line of each kind of batch is read. */
const LINE_READERS = { generate: parseBatchInputLine, embed: parseEmbedInputLine };

/** The JSONL lines not yet committed, each parsed into a request of `kind` or a problem. */
export async function* fileItems(
  inputPath: string,
  batch: BatchRecord,
  kind: BatchKind,
  maxLineBytes: number,
  signal: AbortSignal,
): AsyncGenerator<WorkItem> {
  const parseLine = LINE_READERS[kind];
  let position = batch.doneCount;
  for await (const line of readJsonlLines(inputPath, {
    start: batch.inputOffset,
    maxLineBytes,
    signal,
  })) {
    const item: WorkItem = { position: position++, inputEnd: line.end };
    if (line.text === null) {
      item.problem = ApiError.invalidArgument(
        line.problem === "too-long"
          ? `Request payload size exceeds the limit: ${maxLineBytes} bytes (one line of the input file).`
          : "Invalid JSON payload received. The line is not valid UTF-8.",
      );
    } else {
      try {
        const parsed = parseLine(line.text);
        item.request = parsed.request;
        if (parsed.key !== undefined) item.key = parsed.key;
        if (parsed.metadata !== undefined) item.metadata = parsed.metadata;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        item.problem = error;
        item.key = keyOfUnreadableLine(line.text);
      }
    }
    yield item;
  }
}

/** The `key` of a line that is JSON but not a valid request, so its error still says which request it was. */
function keyOfUnreadableLine(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    const key = (value as { key?: unknown } | null)?.key;
    return typeof key === "string" ? key : undefined;
  } catch {
    return undefined;
  }
}
