import "server-only";
import { readCountTokensRequest } from "@/lib/gemini/validate";
import { readJsonBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";

export async function countTokensHandler(context: RequestContext): Promise<Response> {
  const request = readCountTokensRequest(await readJsonBody(context.request));
  return jsonResponse(
    await context.backend.countTokens(`models/${context.params.model}`, request, context),
  );
}
