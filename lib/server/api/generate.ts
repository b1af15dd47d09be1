import "server-only";
import { checkModelSegment } from "@/lib/gemini/validate";
import { readOperationBody } from "../http/request-body";
import { jsonResponse, streamedJsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";
import { jsonArrayStreamResponse } from "../http/json-array-stream";
import { sseResponse } from "../http/sse-response";
import { recordAnswerUsage, recordingStreamUsage } from "../usage/answer-usage";

/** `POST models/{model}:generateContent`: the whole answer as one JSON body. */
export async function generateContentHandler(context: RequestContext): Promise<Response> {
  checkModelSegment(context.params.model!, "GenerateContentRequest");
  const request = await readOperationBody(context, "generateContent");
  const model = `models/${context.params.model}`;
  const answer = await context.backend.generateContent(model, request, context);
  if (!("passedOnJson" in answer)) recordAnswerUsage(context.caller, model, answer.usageMetadata);
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
  const model = `models/${context.params.model}`;
  const source = recordingStreamUsage(
    context.backend.streamGenerateContent(model, request, context),
    context.caller,
    model,
  );
  const options = { signal: context.signal };
  return context.url.searchParams.get("alt") === "sse"
    ? sseResponse(source, options)
    : jsonArrayStreamResponse(source, options);
}
