import "server-only";
import { readPageQuery } from "../http/page-query";
import { readOperationBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";
import { noteUpstreamBatch } from "../usage/upstream-batch-usage";

/** Batch mode: `models/{model}:batchGenerateContent` and the `batches/{id}` operations. */

function batchName(context: RequestContext): string {
  return `batches/${context.params.batch}`;
}

/** `POST models/{model}:batchGenerateContent`: answers the new batch's operation. */
export async function createBatchHandler(context: RequestContext): Promise<Response> {
  const request = await readOperationBody(context, "batchCreate");
  return jsonResponse(
    await context.backend.createBatch(`models/${context.params.model}`, request, context),
  );
}

/** `GET batches`: `{operations, nextPageToken}`, the caller's own batches only. */
export async function listBatchesHandler(context: RequestContext): Promise<Response> {
  const query = readPageQuery(context.url);
  const filter = context.url.searchParams.get("filter");
  return jsonResponse(
    await context.backend.listBatches(filter ? { ...query, filter } : query, context),
  );
}

export async function getBatchHandler(context: RequestContext): Promise<Response> {
  const batch = await context.backend.getBatch(batchName(context), context);
  // The local engine records a batch's answers as it gives them; the upstream's are seen here.
  if (context.backend.mode === "upstream") noteUpstreamBatch(context.caller, batch);
  return jsonResponse(batch);
}

/** `POST batches/{id}:cancel`: answers `{}` (the SDKs then poll the batch). */
export async function cancelBatchHandler(context: RequestContext): Promise<Response> {
  await context.backend.cancelBatch(batchName(context), context);
  return jsonResponse({});
}

export async function deleteBatchHandler(context: RequestContext): Promise<Response> {
  await context.backend.deleteBatch(batchName(context), context);
  return jsonResponse({});
}
