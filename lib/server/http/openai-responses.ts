import "server-only";
import type { OpenAIAnswer, PassedThrough } from "@/lib/gemini/backend/contract";
import { errorAnswer, jsonPieces } from "./responses";

/**
 * Answers of the OpenAI-compatible endpoint. Errors are the service's error body in a list of
 * one, `[{"error": {"code", "message", "status", ...}}]`, as the service answers this endpoint
 * (quoted from its answers in public issues: FuzzAnything/PromptFuzz#42, coreply/coreply#18,
 * SuzumiyaAkizuki/ComfyUI-NewBie-LLM-Formatter#3); OpenAI's Python client shows that body in
 * its message, OpenAI's JS client reads no `error` field from it (openai-node
 * `src/core/error.ts`), as with the service itself. Bodies are typed `application/json`
 * (recorded).
 */

const JSON_TYPE = "application/json";

/** The endpoint's error body for any thrown value, with the status the API gives it. */
export function openaiErrorResponse(error: unknown, extraHeaders?: HeadersInit): Response {
  const { body, status, headers } = errorAnswer(error, extraHeaders);
  headers.set("Content-Type", JSON_TYPE);
  headers.set("Cache-Control", "private, no-store");
  return new Response(`${JSON.stringify([body], null, 2)}\n`, { status, headers });
}

/** A whole answer: compact JSON, written in slices when long. */
export async function openaiJsonResponse(value: unknown): Promise<Response> {
  const pieces = await jsonPieces(value);
  return new Response(pieces.join(""), {
    status: 200,
    headers: { "Content-Type": JSON_TYPE, "Cache-Control": "private, no-store" },
  });
}

/** The upstream's answer as it came (status, type and scrubbed body). */
export function passedThroughResponse(answer: PassedThrough): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: {
      "Content-Type": answer.contentType ?? JSON_TYPE,
      "Cache-Control": "private, no-store",
    },
  });
}

/** The engine's answer as JSON, or the upstream's passed through. */
export function openaiAnswerResponse<Value>(
  answer: OpenAIAnswer<Value>,
): Promise<Response> | Response {
  return "passedThrough" in answer
    ? passedThroughResponse(answer.passedThrough)
    : openaiJsonResponse(answer.value);
}
