import "server-only";
import type { z } from "zod";
import type { DataStores } from "@/lib/db/data-stores";
import { ApiError, type FieldViolation } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { authenticate } from "../auth/authenticate";
import { readJsonBody } from "../http/request-body";
import { errorResponse } from "../http/responses";
import { dataStores } from "../persistence/database-handle";

/**
 * The one way to write a studio endpoint (`/api/...`), as the API's route table is for the
 * service's paths: the wrapper authenticates inside the handler, hands in the caller and the
 * stores, reads a body one way, and answers any error as the service's error body.
 */

/** Small by default: a person's settings, a key, a sign-in. Conversations pass their own bound. */
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export interface OpenStudioCall {
  request: Request;
  stores: DataStores;
  /**
   * The body: JSON only (a form or `text/plain` could be sent by another site's page without a
   * preflight), within `maxBytes`, checked with the route's schema (violations named by field).
   */
  body<Schema extends z.ZodType>(schema: Schema, maxBytes?: number): Promise<z.infer<Schema>>;
}

export interface StudioCall extends OpenStudioCall {
  caller: Caller;
}

/** A 400 naming each field, as the service words violations. */
export function invalid(violations: FieldViolation[]): ApiError {
  return ApiError.invalidArgument(
    violations.map((violation) => `* ${violation.field}: ${violation.description}`).join("\n"),
    violations,
  );
}

/** `conversations[1].messages[0].parentId`: the path of a field as a person reads it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((key, index) =>
        typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`,
      )
      .join("") || "(body)"
  );
}

/** `value` checked with `schema`: the parsed value, or a 400 naming each violation's field. */
export function validated<Schema extends z.ZodType>(
  value: unknown,
  schema: Schema,
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(
    result.error.issues.slice(0, 20).map((issue) => ({
      field: fieldPath(issue.path),
      description: issue.message,
    })),
  );
}

async function readBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<z.infer<Schema>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new ApiError(415, "INVALID_ARGUMENT", "Send this request as application/json.");
  return validated(await readJsonBody(request, maxBytes), schema);
}

async function openCall(request: Request): Promise<OpenStudioCall> {
  return {
    request,
    stores: await dataStores(),
    body: (schema, maxBytes) => readBody(request, schema, maxBytes),
  };
}

/** An endpoint anyone may call (signing in, an invitation link): its own checks come first. */
export function openStudioEndpoint<Args extends unknown[]>(
  handler: (call: OpenStudioCall, ...args: Args) => Promise<Response>,
): (request: Request, ...args: Args) => Promise<Response> {
  return async (request, ...args) => {
    try {
      return await handler(await openCall(request), ...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** An endpoint of a signed-in caller (a browser session or a studio key). */
export function studioEndpoint<Args extends unknown[]>(
  handler: (call: StudioCall, ...args: Args) => Promise<Response>,
): (request: Request, ...args: Args) => Promise<Response> {
  return async (request, ...args) => {
    try {
      const caller = await authenticate(request);
      return await handler({ ...(await openCall(request)), caller }, ...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
