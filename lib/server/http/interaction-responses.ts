import "server-only";
import { interactionErrorCode } from "@/lib/gemini/interactions/errors";
import { jsonBytePieces } from "@/lib/runtime/json-stringify-in-slices";
import { errorResponse, streamedJsonResponse, toApiError } from "./responses";

/**
 * Answers of the Interactions API as the service writes them (recorded 2026-05 on): a resource
 * as compact JSON typed `application/json`, and errors as `{"error": {"message", "code"}}` with
 * a string code (a recorded 400 `invalid_request`; the message first, as a client printed the
 * service's body) typed `application/json; charset=UTF-8`.
 */

/** Longest answer written in one piece; a longer one (inline images) goes out piece by piece. */
const ONE_PIECE_CHARACTERS = 262_144;

const JSON_HEADERS = { "Content-Type": "application/json", "Cache-Control": "private, no-store" };

export async function interactionJsonResponse(value: unknown): Promise<Response> {
  // Each piece encoded as soon as it is complete: a speech answer is 32 MB of JSON, which held
  // as strings until sent would be copied by every young-generation collection meanwhile.
  const { pieces, characters } = await jsonBytePieces(value);
  if (characters <= ONE_PIECE_CHARACTERS)
    return new Response(Buffer.concat(pieces), { status: 200, headers: JSON_HEADERS });
  return streamedJsonResponse(pieces.values(), JSON_HEADERS);
}

/** Any thrown value as this API's error body, with the status of the service's ApiError. */
export function interactionErrorResponse(error: unknown, extraHeaders?: HeadersInit): Response {
  const apiError = toApiError(error);
  // The shared renderer gives the status, Retry-After and content type; only the body differs.
  const response = errorResponse(apiError, extraHeaders);
  const body = {
    error: { message: apiError.message, code: interactionErrorCode(apiError.httpStatus) },
  };
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
}
