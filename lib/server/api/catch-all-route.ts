import "server-only";
import { handleApiRequest } from "./router";

/**
 * The route module of every API catch-all (`app/v1beta/[...path]`, `app/v1/[...path]`,
 * `app/v1alpha/[...path]`, their `upload/` forms, and `app/unknown-api-path`): each route
 * file re-exports these and declares its segment config, which Next only reads from the
 * route file itself.
 */
export const GET = handleApiRequest;
export const POST = handleApiRequest;
export const PUT = handleApiRequest;
export const PATCH = handleApiRequest;
export const DELETE = handleApiRequest;
