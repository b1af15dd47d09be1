import "server-only";
import { checkModelSegment } from "@/lib/gemini/validate";
import { readOperationBody } from "../http/request-body";
import { jsonResponse, streamedJsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";
import { jsonArrayStreamResponse } from "../http/json-array-stream";
import { sseResponse } from "../http/sse-response";

/** `POST models/{model}:generateContent`: the whole answer as one JSON body. */
export async function generateContentHandler(context: RequestContext): Promise<Response> {
  checkModelSegment(context.params.model!, "GenerateContentRequest");
  const request = await readOperationBody(context, "generateContent");
  const answer = await context.backend.generateContent(
    `models/${context.params.model}`,
    request,
    context,
  );
  return "passedOnJson" in answer
    ? streamedJsonResponse(answer.passedOnJson)
    : jsonResponse(answer);
}

/**
 * `POST models/{model}:streamGenerateContent`: server-sent events with `?alt=sse`, else a
 * streamed JSON array. Failures before the first chunk are ordinary error responses.
 */
export async function streamGenerateContentHandler(context: RequestContext): Promise<Response> {
  checkModelSegment(context.params.model!, "GenerateContentRequest");
  const request = await readOperationBody(context, "generateContent");
  const source = context.backend.streamGenerateContent(
    `models/${context.params.model}`,
    request,
    context,
  );
  const options = { signal: context.signal };
  return context.url.searchParams.get("alt") === "sse"
    ? sseResponse(source, options)
    : jsonArrayStreamResponse(source, options);
}
