import "server-only";
import { checkModelSegment } from "@/lib/gemini/validate";
import { readOperationBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import { recordAnswerUsage } from "../usage/answer-usage";
import { embeddingUsageMetadata } from "../usage/usage-shapes";
import type { RequestContext } from "./request-context";

/**
 * Embeddings: `models/{model}:embedContent`, `:batchEmbedContents` and `:asyncBatchEmbedContent`.
 * A managed key's limits were checked with the path's model (router.ts); what an answer spends
 * is recorded against it, as for generateContent.
 */

function modelOf(context: RequestContext, requestName: string): string {
  checkModelSegment(context.params.model!, requestName);
  return `models/${context.params.model}`;
}

/** `POST models/{model}:embedContent`: `{embedding: {values}}`. */
export async function embedContentHandler(context: RequestContext): Promise<Response> {
  const model = modelOf(context, "EmbedContentRequest");
  const request = await readOperationBody(context, "embedContent");
  const answer = await context.backend.embedContent(model, request, context);
  recordAnswerUsage(context.caller, model, embeddingUsageMetadata(answer.usageMetadata));
  return jsonResponse(answer);
}

/** `POST models/{model}:batchEmbedContents`: `{embeddings: [{values}, ...]}`, in request order. */
export async function batchEmbedContentsHandler(context: RequestContext): Promise<Response> {
  const model = modelOf(context, "BatchEmbedContentsRequest");
  const request = await readOperationBody(context, "batchEmbedContents");
  const answer = await context.backend.batchEmbedContents(model, request, context);
  recordAnswerUsage(context.caller, model, embeddingUsageMetadata(answer.usageMetadata));
  return jsonResponse(answer);
}

/** `POST models/{model}:asyncBatchEmbedContent`: the new embedding batch's operation (`batches/{id}`). */
export async function asyncBatchEmbedContentHandler(context: RequestContext): Promise<Response> {
  const model = modelOf(context, "AsyncBatchEmbedContentRequest");
  const request = await readOperationBody(context, "asyncBatchEmbedContent");
  return jsonResponse(await context.backend.asyncBatchEmbedContent(model, request, context));
}
