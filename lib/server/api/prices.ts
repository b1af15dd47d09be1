import "server-only";
import { countOpenRequest } from "../auth/authenticate";
import { serverEnv } from "../config/env";
import { jsonResponse } from "../http/responses";
import { openStudioEndpoint } from "./studio-endpoint";

/**
 * `/api/prices`: the price table the studio shows costs with (defaults, or STUDIO_PRICES_FILE
 * over them). Public prices, no secret: answered to any caller, within the rate limit.
 */
export const getPricesHandler = openStudioEndpoint(async ({ request }) => {
  await countOpenRequest(request);
  return jsonResponse(serverEnv().prices);
});
