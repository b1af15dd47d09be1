import "server-only";
import { readJsonBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";

export async function countTokensHandler(context: RequestContext): Promise<Response> {
  const body = await readJsonBody(context.request);
  return jsonResponse(
    await context.backend.countTokens(`models/${context.params.model}`, body, context),
  );
}
