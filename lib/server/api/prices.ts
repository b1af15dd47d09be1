import "server-only";
import { countOpenRequest } from "../auth/authenticate";
import { serverEnv } from "../config/env";
import { errorResponse, jsonResponse } from "../http/responses";

/**
 * `/api/prices`: the price table the studio shows costs with (defaults, or STUDIO_PRICES_FILE
 * over them). Public prices, no secret: answered to any caller, within the rate limit.
 */
export async function getPricesHandler(request: Request): Promise<Response> {
  try {
    await countOpenRequest(request);
    return jsonResponse(serverEnv().prices);
  } catch (error) {
    return errorResponse(error);
  }
}
