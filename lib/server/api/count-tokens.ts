import "server-only";
import { checkModelSegment } from "@/lib/gemini/validate";
import { readOperationBody } from "../http/request-body";
import { forwardedJsonResponse, jsonResponse } from "../http/responses";
import { markStage } from "../observability/request-stages";
import type { RequestContext } from "./request-context";

export async function countTokensHandler(context: RequestContext): Promise<Response> {
  checkModelSegment(context.params.model!, "CountTokensRequest");
  const request = await readOperationBody(context, "countTokens");
  const counted = await context.backend.countTokens(
    `models/${context.params.model}`,
    request,
    context,
  );
  markStage("backend answered");
  return "forwardedJson" in counted
    ? forwardedJsonResponse(counted.forwardedJson)
    : jsonResponse(counted);
}
