import "server-only";
import { parseCachedContentUpdate } from "@/lib/gemini/validate-caches";
import { readPageQuery } from "../http/page-query";
import { readJsonBody, readOperationBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";
import { assertKeyMayCall } from "../auth/key-policy";

function cacheName(context: RequestContext): string {
  return `cachedContents/${context.params.cache}`;
}

export async function createCachedContentHandler(context: RequestContext): Promise<Response> {
  const request = await readOperationBody(context, "cachedContentCreate");
  if (request.model !== undefined) assertKeyMayCall(context.caller, request.model);
  return jsonResponse(await context.backend.createCachedContent(request, context));
}

export async function listCachedContentsHandler(context: RequestContext): Promise<Response> {
  const query = readPageQuery(context.url);
  return jsonResponse(await context.backend.listCachedContents(query, context));
}

export async function getCachedContentHandler(context: RequestContext): Promise<Response> {
  return jsonResponse(await context.backend.getCachedContent(cacheName(context), context));
}

export async function updateCachedContentHandler(context: RequestContext): Promise<Response> {
  const body = await readJsonBody(context.request);
  const updateMask =
    context.url.searchParams.get("updateMask") ?? context.url.searchParams.get("update_mask");
  const update = parseCachedContentUpdate(body, updateMask);
  return jsonResponse(
    await context.backend.updateCachedContent(cacheName(context), update, context),
  );
}

export async function deleteCachedContentHandler(context: RequestContext): Promise<Response> {
  await context.backend.deleteCachedContent(cacheName(context), context);
  return jsonResponse({});
}
