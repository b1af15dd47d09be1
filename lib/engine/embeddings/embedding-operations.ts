/**
 * The local backend's embedding operations: embedContent and batchEmbedContents answered at
 * once (embed-requests.ts), asyncBatchEmbedContent as a batch of the batches service, whose
 * runner embeds each request with `batchEmbedding` for the batch's owner. Interactive calls
 * are counted as interactive work, so batches wait for them.
 */
import "server-only";
import type { Backend } from "@/lib/gemini/backend/contract";
import type { EmbedContentResponse } from "@/lib/gemini/embedding-types";
import type { BatchEmbedding } from "../batches/batch-runner";
import type { InteractiveWork } from "../batches/interactive-work";
import type { Storage } from "../storage";
import { embedRequests } from "./embed-requests";

export type EmbeddingOperations = Pick<
  Backend,
  "embedContent" | "batchEmbedContents" | "asyncBatchEmbedContent"
>;

export function embeddingOperations(
  storage: Storage,
  interactive: InteractiveWork,
): EmbeddingOperations {
  return {
    embedContent: (model, request, context) =>
      interactive.run(async () => {
        const answer = await embedRequests(model, [request], "EmbedContentRequest", {
          ...context,
          files: storage.files,
        });
        return {
          embedding: answer.embeddings[0]!,
          ...(answer.usageMetadata ? { usageMetadata: answer.usageMetadata } : {}),
        };
      }),

    batchEmbedContents: (model, request, context) =>
      interactive.run(() =>
        embedRequests(model, request.requests, "BatchEmbedContentsRequest", {
          ...context,
          files: storage.files,
        }),
      ),

    asyncBatchEmbedContent: (model, request, context) =>
      storage.batches.createEmbeddings(model, request, context.caller),
  };
}

/**
 * How an embedding batch's request runs: the rules and vector of embedContent, for the
 * batch's owner. Its usage is the prompt count alone (as the service's batch results carry it).
 */
export function batchEmbedding(storage: Storage): BatchEmbedding {
  return async ({ model, request, ownerId, signal }): Promise<EmbedContentResponse> => {
    const answer = await embedRequests(model, [request], "EmbedContentRequest", {
      caller: { ownerId },
      signal,
      files: storage.files,
    });
    return {
      embedding: answer.embeddings[0]!,
      ...(answer.usageMetadata
        ? { usageMetadata: { promptTokenCount: answer.usageMetadata.promptTokenCount } }
        : {}),
    };
  };
}
