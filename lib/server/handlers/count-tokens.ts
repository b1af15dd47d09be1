import "server-only";
import { readJsonBody } from "../request-body";
import { jsonResponse } from "../responses";
import type { RequestContext } from "../router";

export async function countTokensHandler(context: RequestContext): Promise<Response> {
  const body = await readJsonBody(context.request);
  return jsonResponse(
    await context.backend.countTokens(`models/${context.params.model}`, body, context),
  );
}
