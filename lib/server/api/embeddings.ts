import "server-only";
import { checkModelSegment } from "@/lib/gemini/validate";
import { readOperationBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";

/** Embeddings: `models/{model}:embedContent`, `:batchEmbedContents` and `:asyncBatchEmbedContent`. */

function modelOf(context: RequestContext, requestName: string): string {
  checkModelSegment(context.params.model!, requestName);
  return `models/${context.params.model}`;
}

/** `POST models/{model}:embedContent`: `{embedding: {values}}`. */
export async function embedContentHandler(context: RequestContext): Promise<Response> {
  const model = modelOf(context, "EmbedContentRequest");
  const request = await readOperationBody(context, "embedContent");
  return jsonResponse(await context.backend.embedContent(model, request, context));
}

/** `POST models/{model}:batchEmbedContents`: `{embeddings: [{values}, ...]}`, in request order. */
export async function batchEmbedContentsHandler(context: RequestContext): Promise<Response> {
  const model = modelOf(context, "BatchEmbedContentsRequest");
  const request = await readOperationBody(context, "batchEmbedContents");
  return jsonResponse(await context.backend.batchEmbedContents(model, request, context));
}

/** `POST models/{model}:asyncBatchEmbedContent`: the new embedding batch's operation (`batches/{id}`). */
export async function asyncBatchEmbedContentHandler(context: RequestContext): Promise<Response> {
  const model = modelOf(context, "AsyncBatchEmbedContentRequest");
  const request = await readOperationBody(context, "asyncBatchEmbedContent");
  return jsonResponse(await context.backend.asyncBatchEmbedContent(model, request, context));
}
