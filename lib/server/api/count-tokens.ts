import "server-only";
import { checkModelSegment, readCountTokensRequest } from "@/lib/gemini/validate";
import { readJsonBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";

export async function countTokensHandler(context: RequestContext): Promise<Response> {
  checkModelSegment(context.params.model!, "CountTokensRequest");
  const request = readCountTokensRequest(await readJsonBody(context.request));
  return jsonResponse(
    await context.backend.countTokens(`models/${context.params.model}`, request, context),
  );
}
