import "server-only";
import { authenticate } from "../auth/authenticate";
import { errorResponse, jsonResponse } from "../http/responses";
import { studioModelFacts } from "../models/model-facts";

/**
 * `/api/models`: the studio's model facts (lib/studio/model-facts.ts) over the model list in
 * force, for the pages' model picker, settings and composer. A session or studio key.
 */
export async function getModelFactsHandler(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    return jsonResponse(await studioModelFacts({ caller, signal: request.signal }));
  } catch (error) {
    return errorResponse(error);
  }
}
