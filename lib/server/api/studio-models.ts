import "server-only";
import { jsonResponse } from "../http/responses";
import { studioModelFacts } from "../models/model-facts";
import { studioEndpoint } from "./studio-endpoint";

/**
 * `/api/models`: the studio's model facts (lib/studio/model-facts.ts) over the model list in
 * force, for the pages' model picker, settings and composer. A session or studio key.
 */
export const getModelFactsHandler = studioEndpoint(async ({ request, caller }) =>
  jsonResponse(await studioModelFacts({ caller, signal: request.signal })),
);
