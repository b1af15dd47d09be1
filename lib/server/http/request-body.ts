import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { MAX_NESTING_DEPTH, nestingDepthExceeds } from "@/lib/gemini/validate";

/** Largest JSON body accepted (inline media included), checked before it is buffered. */
export const MAX_JSON_BODY_BYTES = 100 * 1024 * 1024;

/**
 * Reads a JSON request body with a size cap enforced while reading, so an oversized body
 * is refused before it is held in memory. An empty body reads as `{}`.
 */
export async function readJsonBody(
  request: Request,
  limit = MAX_JSON_BODY_BYTES,
): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const text = await readTextCapped(request, limit);
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : "malformed JSON";
    throw ApiError.invalidArgument(`Invalid JSON payload received. ${detail}`);
  }
  // Refused here, for every endpoint and both modes: anything recursive later (a schema, the
  // gateway's JSON.stringify) would run out of stack on thousands of levels.
  if (nestingDepthExceeds(body, MAX_NESTING_DEPTH)) {
    throw ApiError.invalidArgument(
      `Invalid JSON payload received. Nesting is deeper than ${MAX_NESTING_DEPTH} levels.`,
    );
  }
  return body;
}

function tooLarge(limit: number): ApiError {
  return new ApiError(
    413,
    "INVALID_ARGUMENT",
    `Request payload size exceeds the limit: ${limit} bytes.`,
  );
}

async function readTextCapped(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8").decode(Buffer.concat(chunks));
}
