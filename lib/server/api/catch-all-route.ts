import "server-only";
import { observeApiRequest } from "../logs/request-observation";
import { REQUEST_PATH_WARM_UP, warmUpRequestPath } from "./request-path-warm-up";
import { handleApiRequest } from "./router";

/**
 * The route module of every API catch-all (`app/v1beta/[...path]`, `app/v1/[...path]`,
 * `app/v1alpha/[...path]`, their `upload/` forms, and `app/unknown-api-path`): each route
 * file re-exports these and declares its segment config, which Next only reads from the
 * route file itself. Every request is observed (metrics, its span, its log entry) around the
 * router.
 */
const observedApiRequest = (request: Request) => observeApiRequest(request, handleApiRequest);

export const GET = observedApiRequest;
export const POST = observedApiRequest;
export const PUT = observedApiRequest;
export const PATCH = observedApiRequest;
export const DELETE = observedApiRequest;

// Offered to the start script's dispatch, which runs it when it loads this module: the warm-up
// must run this copy of the request path (lib/server/api/request-path-warm-up.ts).
(globalThis as Record<symbol, unknown>)[REQUEST_PATH_WARM_UP] = warmUpRequestPath;
