import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { assertKeyMayCall, bodyModel } from "../auth/key-policy";
import { acquireStreamSlot, releaseWhenDone } from "../http/limits";
import { readOperationBody } from "../http/request-body";
import {
  openaiAnswerResponse,
  openaiErrorResponse,
  passedThroughResponse,
} from "../http/openai-responses";
import { chatChunkStreamResponse } from "../http/sse-response";
import type { OpenAIAnswer } from "@/lib/gemini/backend/contract";
import { recordAnswerUsage, recordingUsage } from "../usage/answer-usage";
import { passingOnUsage } from "../usage/passed-on-usage";
import { openaiUsageMetadata, openaiUsageOf, type OpenAIUsage } from "../usage/usage-shapes";
import type { RequestContext } from "./request-context";

/**
 * The OpenAI-compatible endpoint (`/v1beta/openai/...`): chat completions, embeddings and
 * models. A body is read once: the local engine takes its JSON and reads it strictly as the
 * service does; the gateway reads it as it reads what it forwards without modelling it (only
 * `model` and `stream` known, every other string looked through for resources, the bytes kept
 * to forward). A managed key's limits hold for the model the body names, and what an answer
 * of the engine's spends is recorded against it, as for generateContent.
 */

/** The body, and the model it names (checked against the caller's key). */
async function readBody(context: RequestContext): Promise<{ body: unknown; model: string }> {
  const body =
    context.backend.mode === "upstream"
      ? await readOperationBody(context, "openaiEnvelope")
      : await readOperationBody(context, "json");
  const model = bodyModel((body as { model?: unknown } | null)?.model);
  assertKeyMayCall(context.caller, model);
  return { body, model };
}

/** `POST openai/chat/completions`: a `chat.completion`, or its chunks as events when it streams. */
export async function chatCompletionsHandler(context: RequestContext): Promise<Response> {
  const { body, model } = await readBody(context);
  // A stream holds one of the caller's stream slots while it lasts, as streamGenerateContent does.
  const streams = (body as { stream?: unknown } | null)?.stream === true;
  const release = streams ? await acquireStreamSlot(context.caller) : null;
  let response: Response;
  try {
    const answer = await context.backend.openaiChatCompletion(body, context);
    response =
      "chunks" in answer
        ? await chatChunkStreamResponse(
            recordingUsage(answer.chunks, context.caller, model, () => answer.usage()),
            { signal: context.signal, refuse: (error) => openaiErrorResponse(error) },
          )
        : await openaiAnswerResponse(recordingOpenAIUsage(context, model, answer));
  } catch (error) {
    release?.();
    throw error;
  }
  return release ? releaseWhenDone(response, release, context.signal) : response;
}

/** `POST openai/embeddings`: a list of embeddings, in input order. */
export async function openaiEmbeddingsHandler(context: RequestContext): Promise<Response> {
  const { body, model } = await readBody(context);
  const answer = await context.backend.openaiEmbeddings(body, context);
  return openaiAnswerResponse(recordingOpenAIUsage(context, model, answer));
}

/**
 * The answer, its usage recorded for the caller: a value's at once; an upstream answer's
 * once its body has passed on (a stream's from the chunk that carries it, which the upstream
 * sends when the request asks for `stream_options.include_usage`; none is recorded without).
 */
function recordingOpenAIUsage<Value extends { usage?: OpenAIUsage }>(
  context: RequestContext,
  model: string,
  answer: OpenAIAnswer<Value>,
): OpenAIAnswer<Value> {
  if ("value" in answer) {
    recordAnswerUsage(context.caller, model, openaiUsageMetadata(answer.value.usage));
    return answer;
  }
  const passed = answer.passedThrough;
  if (passed.status !== 200) return answer;
  const body = passingOnUsage(passed.body, "usage", (usage) =>
    recordAnswerUsage(context.caller, model, openaiUsageMetadata(openaiUsageOf(usage))),
  );
  return { passedThrough: { ...passed, body } };
}

/** `GET openai/models`. */
export async function openaiListModelsHandler(context: RequestContext): Promise<Response> {
  return openaiAnswerResponse(await context.backend.openaiListModels(context));
}

/** A model id as OpenAI's clients send it: `gemini-2.5-flash` or `models/gemini-2.5-flash`. */
const MODEL_ID = /^(?:models\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `GET openai/models/{model}`. */
export async function openaiGetModelHandler(context: RequestContext): Promise<Response> {
  const model = context.params.model!;
  if (!MODEL_ID.test(model))
    throw new ApiError(
      400,
      "INVALID_ARGUMENT",
      "* GetModelRequest.name: unexpected model name format\n",
    );
  const answer = await context.backend.openaiGetModel(model, context);
  return "passedThrough" in answer
    ? passedThroughResponse(answer.passedThrough)
    : openaiAnswerResponse(answer);
}
