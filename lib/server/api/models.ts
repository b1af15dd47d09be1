import "server-only";
import { checkModelSegment } from "@/lib/gemini/validate";
import { jsonResponse } from "../http/responses";
import { readPageQuery } from "../http/page-query";
import type { RequestContext } from "./request-context";

export async function listModelsHandler(context: RequestContext): Promise<Response> {
  const query = readPageQuery(context.url);
  return jsonResponse(await context.backend.listModels(query, context));
}

export async function getModelHandler(context: RequestContext): Promise<Response> {
  checkModelSegment(context.params.model!, "GetModelRequest");
  return jsonResponse(await context.backend.getModel(`models/${context.params.model}`, context));
}
