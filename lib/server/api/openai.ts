import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { acquireStreamSlot, releaseWhenDone } from "../http/limits";
import { readOperationBody } from "../http/request-body";
import {
  openaiAnswerResponse,
  openaiErrorResponse,
  passedThroughResponse,
} from "../http/openai-responses";
import { chatChunkStreamResponse } from "../http/sse-response";
import type { RequestContext } from "./request-context";

/**
 * The OpenAI-compatible endpoint (`/v1beta/openai/...`): chat completions, embeddings and
 * models. Bodies are read once as the JSON the client sent, and each backend reads them as it
 * must (the engine as the service does, the gateway only for the resources they name).
 */

/** `POST openai/chat/completions`: a `chat.completion`, or its chunks as events when it streams. */
export async function chatCompletionsHandler(context: RequestContext): Promise<Response> {
  const body = await readOperationBody(context, "json");
  // A stream holds one of the caller's stream slots while it lasts, as streamGenerateContent does.
  const streams = (body as { stream?: unknown } | null)?.stream === true;
  const release = streams ? await acquireStreamSlot(context.caller) : null;
  let response: Response;
  try {
    const answer = await context.backend.openaiChatCompletion(body, context);
    response =
      "chunks" in answer
        ? await chatChunkStreamResponse(answer.chunks, {
            signal: context.signal,
            refuse: (error) => openaiErrorResponse(error),
          })
        : await openaiAnswerResponse(answer);
  } catch (error) {
    release?.();
    throw error;
  }
  return release ? releaseWhenDone(response, release, context.signal) : response;
}

/** `POST openai/embeddings`: a list of embeddings, in input order. */
export async function openaiEmbeddingsHandler(context: RequestContext): Promise<Response> {
  const body = await readOperationBody(context, "json");
  return openaiAnswerResponse(await context.backend.openaiEmbeddings(body, context));
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
