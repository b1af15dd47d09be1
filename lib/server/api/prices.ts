import "server-only";
import { serverEnv } from "../config/env";
import { jsonResponse } from "../http/responses";

/**
 * `/api/prices`: the price table the studio shows costs with (defaults, or STUDIO_PRICES_FILE
 * over them). Public prices, no secret: answered to any caller.
 */
export async function getPricesHandler(): Promise<Response> {
  return jsonResponse(serverEnv().prices);
}
