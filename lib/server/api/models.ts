import "server-only";
import { checkModelSegment } from "@/lib/gemini/validate";
import { jsonResponse } from "../http/responses";
import { readPageQuery } from "../http/page-query";
import type { RequestContext } from "./request-context";

const MODELS_PAGE = { defaultSize: 50, maxSize: 1000 };

export async function listModelsHandler(context: RequestContext): Promise<Response> {
  const query = readPageQuery(context.url, MODELS_PAGE);
  return jsonResponse(await context.backend.listModels(query, context));
}

export async function getModelHandler(context: RequestContext): Promise<Response> {
  checkModelSegment(context.params.model!, "GetModelRequest");
  return jsonResponse(await context.backend.getModel(`models/${context.params.model}`, context));
}
