/**
 * The local engine's OpenAI-compatible endpoint: chat completions translated to the one
 * generation core (the local backend's own generateContent and streamGenerateContent, with
 * every rule, cache, file and safety check they apply) and back (chat-request.ts,
 * chat-response.ts); embeddings as batchEmbedContents of the same model, in floats or, as
 * OpenAI's clients ask by default, base64 of little-endian float32s; models from the catalog,
 * named `models/{id}` as the service names them (a public client's capture of the live list,
 * 2026-10: `{"id": "models/gemini-2.5-flash", "object": "model", "owned_by": "google"}`).
 */
import "server-only";
import type { Backend, OperationContext } from "@/lib/gemini/backend/contract";
import type { EmbedContentRequest } from "@/lib/gemini/embedding-types";
import { embeddingNumbers } from "@/lib/gemini/embedding-values";
import type {
  ChatCompletionChunk,
  OpenAIEmbeddingsRequest,
  OpenAIEmbeddingsResponse,
  OpenAIModel,
} from "@/lib/gemini/openai/openai-types";
import { violationError } from "@/lib/gemini/schemas/rules/violations";
import {
  readChatCompletionRequest,
  readOpenAIEmbeddingsRequest,
} from "@/lib/gemini/openai/validate-openai";
import type { GenerateContentResponse, Model, UsageMetadata } from "@/lib/gemini/types";
import { ApiError } from "@/lib/gemini/api-error";
import { LISTED_MODELS, findModel, requireModel } from "../catalog";
import { embeddingUsage, embedRequests, requireEmbeddingModel } from "../embeddings/embed-requests";
import type { FileService } from "../files/file-service";
import { translateChatRequest } from "./chat-request";
import { ChatChunkWriter, chatCompletionOf } from "./chat-response";

export type OpenAIOperations = Pick<
  Backend,
  "openaiChatCompletion" | "openaiEmbeddings" | "openaiListModels" | "openaiGetModel"
>;

function modelObject(model: Model): OpenAIModel {
  return {
    id: model.name,
    object: "model",
    owned_by: "google",
    ...(model.displayName ? { display_name: model.displayName } : {}),
  };
}

/** The chunks of a stream, and its usage as the last chunk that carried one said. */
function chunksOf(
  source: AsyncIterable<GenerateContentResponse>,
  writer: ChatChunkWriter,
): { chunks: AsyncIterable<ChatCompletionChunk>; usage: () => UsageMetadata | undefined } {
  let usage: UsageMetadata | undefined;
  async function* chunks(): AsyncGenerator<ChatCompletionChunk> {
    for await (const chunk of source) {
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
      yield writer.chunkOf(chunk);
    }
  }
  return { chunks: chunks(), usage: () => usage };
}

/** The values of an embedding as OpenAI's `base64` encoding carries them: float32, little-endian. */
export function base64Floats(values: ArrayLike<number>): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (let index = 0; index < values.length; index++) bytes.writeFloatLE(values[index]!, index * 4);
  return bytes.toString("base64");
}

export function openaiOperations(
  core: Pick<Backend, "generateContent" | "streamGenerateContent">,
  files: Pick<FileService, "resolveFileForCaller">,
): OpenAIOperations {
  return {
    async openaiChatCompletion(body, context) {
      const request = readChatCompletionRequest(body);
      // An unknown model is the core's 404; its traits only tune the translation.
      const entry = findModel(request.model);
      const translation = translateChatRequest(request, entry?.traits.thinking);
      const options = {
        model: request.model,
        created: Math.floor(Date.now() / 1000),
        thoughtsInContent: translation.thoughtsInContent,
        signedToolCalls: entry?.answer.thoughtSignatures === "every-answer",
      };
      if (request.stream) {
        const writer = new ChatChunkWriter({
          ...options,
          includeUsage: request.streamOptions?.includeUsage === true,
        });
        const source = core.streamGenerateContent(translation.model, translation.request, context);
        return chunksOf(source, writer);
      }
      const answer = await core.generateContent(translation.model, translation.request, context);
      if ("passedOnJson" in answer) throw ApiError.internal();
      return { value: chatCompletionOf(answer, options) };
    },

    async openaiEmbeddings(body, context) {
      return { value: await embeddings(readOpenAIEmbeddingsRequest(body), context, files) };
    },

    async openaiListModels() {
      return { value: { object: "list", data: LISTED_MODELS.map(modelObject) } };
    },

    async openaiGetModel(model) {
      return { value: modelObject(requireModel(model, "get").model) };
    },
  };
}

async function embeddings(
  request: OpenAIEmbeddingsRequest,
  context: OperationContext,
  files: Pick<FileService, "resolveFileForCaller">,
): Promise<OpenAIEmbeddingsResponse> {
  const model = request.model.startsWith("models/") ? request.model : `models/${request.model}`;
  const { entry, traits } = requireEmbeddingModel(model);
  const dimensions = request.dimensions;
  if (
    dimensions !== undefined &&
    (dimensions < traits.minDimensionality || dimensions > traits.dimensions)
  )
    throw violationError("EmbeddingsRequest", [
      {
        field: "dimensions",
        description: `dimensions must be between ${traits.minDimensionality} and ${traits.dimensions} for ${entry.traits.name}; got ${dimensions}.`,
      },
    ]);
  const requests: EmbedContentRequest[] = request.input.map((text) => ({
    content: { parts: [{ text }] },
    ...(dimensions !== undefined ? { outputDimensionality: dimensions } : {}),
  }));
  const options = { ...context, files };
  const answer = await embedRequests(model, requests, "BatchEmbedContentsRequest", options);
  const usage = answer.usageMetadata ?? (await embeddingUsage(entry, requests, options));
  const base64 = request.encodingFormat === "base64";
  return {
    object: "list",
    data: answer.embeddings.map((embedding, index) => ({
      object: "embedding",
      embedding: base64 ? base64Floats(embeddingNumbers(embedding.values)) : embedding.values,
      index,
    })),
    model: request.model,
    usage: { prompt_tokens: usage.promptTokenCount, total_tokens: usage.promptTokenCount },
  };
}
