/**
 * Errors of the Interactions API. Its body is `{"error": {"code": "<string>", "message"}}`
 * (recorded: a 400 `invalid_request`), not the proto status the rest of the API sends, so the
 * one ApiError of the codebase is rendered in that shape on these routes. The string code of
 * other statuses is not recorded: `permission_denied` for 403 follows a public report of the
 * service's answer (googleapis/js-genai issue 1389); the others name the status the same way.
 */
import { ApiError, type FieldViolation } from "../api-error";
import type { InteractionErrorBody } from "./types";

const CODES: Record<number, string> = {
  400: "invalid_request",
  401: "unauthenticated",
  403: "permission_denied",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "invalid_request",
  429: "resource_exhausted",
  499: "cancelled",
  500: "internal_error",
  501: "unimplemented",
  503: "unavailable",
  504: "deadline_exceeded",
};

/** The string code of an HTTP status, as this API words it. */
export function interactionErrorCode(httpStatus: number): string {
  return CODES[httpStatus] ?? (httpStatus >= 500 ? "internal_error" : "invalid_request");
}

/** An ApiError as this API's error body. */
export function interactionErrorBody(error: ApiError): InteractionErrorBody {
  return { error: { code: interactionErrorCode(error.httpStatus), message: error.message } };
}

/** A field of a create request (or a query parameter) that is wrong: 400 naming it. */
export function invalidInteractionField(field: string, problem: string): ApiError {
  const violation: FieldViolation = { field, description: problem };
  return ApiError.invalidArgument(`Invalid value for '${field}': ${problem}`, [violation]);
}

/** A request that is wrong as a whole (no field to name, or several). */
export function invalidInteraction(message: string): ApiError {
  return ApiError.invalidArgument(message);
}

/**
 * An interaction that does not exist, was deleted, was never stored, or is someone else's:
 * one answer for all, so a caller cannot tell them apart.
 */
export function interactionNotFound(id: string): ApiError {
  return ApiError.notFound(`Interaction '${id.slice(0, 200)}' was not found.`);
}

/** Reads an Interactions error body back (ours or the upstream's); null when it is none. */
export function parseInteractionErrorBody(value: unknown): InteractionErrorBody["error"] | null {
  if (typeof value !== "object" || value === null || !("error" in value)) return null;
  const error = (value as { error: unknown }).error;
  if (typeof error !== "object" || error === null) return null;
  const { code, message } = error as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string") return null;
  return { code, message };
}
