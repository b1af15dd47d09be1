import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { secretsEqual } from "../auth/secure-compare";
import { CLIENT_ADDRESS_HEADER } from "../config/client-address";
import { isLoopbackHost } from "../config/loopback";
import { observabilityEnv } from "../config/observability-env";
import { errorResponse } from "../http/responses";
import { studioMetrics } from "../observability/studio-metrics";

/**
 * `GET /metrics`: this instance's metrics in the Prometheus text format. Who may read them:
 * with STUDIO_METRICS_TOKEN set, a request carrying `Authorization: Bearer <token>` (from
 * anywhere); without it, only a client on this machine (the socket's address is loopback)
 * that no proxy forwarded (no `X-Forwarded-For` or `Forwarded`): a reverse proxy on the same
 * machine would otherwise make every client look local.
 */

function assertMayScrape(request: Request): void {
  const { metricsToken } = observabilityEnv();
  if (metricsToken !== null) {
    const presented = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    if (presented !== undefined && secretsEqual(presented.trim(), metricsToken)) return;
    throw new ApiError(
      401,
      "UNAUTHENTICATED",
      "Metrics need the scrape token: send Authorization: Bearer <STUDIO_METRICS_TOKEN>.",
    );
  }
  const socket = request.headers.get(CLIENT_ADDRESS_HEADER) ?? "";
  const forwarded = request.headers.has("x-forwarded-for") || request.headers.has("forwarded");
  if (socket !== "" && isLoopbackHost(socket) && !forwarded) return;
  throw ApiError.permissionDenied(
    "Metrics are served only to this machine unless STUDIO_METRICS_TOKEN is set (then to requests carrying it).",
  );
}

export async function metricsHandler(request: Request): Promise<Response> {
  try {
    assertMayScrape(request);
    return new Response(studioMetrics().registry.exposition(), {
      headers: {
        "Content-Type": "text/plain; version=0.0.4; charset=utf-8",
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    const response = errorResponse(error);
    if (error instanceof ApiError && error.httpStatus === 401)
      response.headers.set("WWW-Authenticate", 'Bearer realm="metrics"');
    return response;
  }
}
