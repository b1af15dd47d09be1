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

/** Bytes decoded between two turns of the event loop while a large body is read. */
const YIELD_EVERY_BYTES = 1024 * 1024;

/**
 * The body as text, decoded piece by piece as it is read. A body that has already arrived is
 * otherwise read in one unbroken run of promise callbacks (and then copied and decoded in
 * one go): 16 MiB held every other caller for hundreds of milliseconds. Every MiB, other
 * work gets its turn.
 */
async function readTextCapped(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder("utf-8");
  const pieces: string[] = [];
  let total = 0;
  let sinceYield = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    pieces.push(decoder.decode(value, { stream: true }));
    sinceYield += value.byteLength;
    if (sinceYield >= YIELD_EVERY_BYTES) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  pieces.push(decoder.decode());
  return pieces.join("");
}
