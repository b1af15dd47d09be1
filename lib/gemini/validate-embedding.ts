/**
 * Reading embedding requests (`models/{m}:embedContent`, `:batchEmbedContents`,
 * `:asyncBatchEmbedContent` and a line of an embedding batch's JSONL input) into their
 * canonical forms, and the rules an embedding model adds (checkEmbedRequests). Recorded of
 * the service: the 404 naming embedContent for a model that embeds nothing, the 400 for more
 * than 6 image parts in one input (gemini-embedding-2). Documented: at most 100 requests in
 * one batchEmbedContents (the Vercel AI SDK caps its calls at 100 for that reason), dimensions
 * up to the model's full size. The wording of the other refusals is ours, naming the field.
 */
import { ApiError } from "./api-error";
import type {
  AsyncBatchEmbedContentRequest,
  BatchEmbedContentsRequest,
  EmbedContentRequest,
  EmbeddingTraits,
} from "./embedding-types";
import {
  asyncBatchEmbedContentRequestSchema,
  batchEmbedContentsRequestSchema,
  embedContentRequestSchema,
  embedInputLineSchema,
} from "./schemas/embedding";
import { partDataField } from "./schemas/rules/content-rules";
import { Violations, violationError } from "./schemas/rules/violations";
import { camelToSnake } from "./schemas/wire";
import type { Steps } from "./steps";
import type { Part } from "./types";
import { type InputLine, checkBatchEnvelope, parseJsonLine, readInputLine } from "./validate-batch";
import { checkModelName, runSchema } from "./validate";

/** Most requests one batchEmbedContents may carry. */
export const MAX_BATCH_EMBED_REQUESTS = 100;

/** Reads an embedContent body. Throws the service's 400 for shape errors. */
export function readEmbedContentRequest(body: unknown): EmbedContentRequest {
  return runSchema(embedContentRequestSchema, body ?? {}, { requestName: "EmbedContentRequest" });
}

/** Reads a batchEmbedContents body: one request at least, at most 100. */
export function readBatchEmbedContentsRequest(body: unknown): BatchEmbedContentsRequest {
  const requestName = "BatchEmbedContentsRequest";
  const request = runSchema(batchEmbedContentsRequestSchema, body ?? {}, { requestName });
  const count = request.requests.length;
  if (count === 0)
    throw violationError(requestName, [
      { field: "requests", description: "requests must not be empty." },
    ]);
  if (count > MAX_BATCH_EMBED_REQUESTS)
    throw violationError(requestName, [
      {
        field: "requests",
        description: `at most ${MAX_BATCH_EMBED_REQUESTS} requests can be in one batch; got ${count}.`,
      },
    ]);
  return request;
}

/**
 * Reads an asyncBatchEmbedContent body: the batch's shape and every inline request's shape
 * (an unknown field fails the whole create, as a body the service cannot read); each request's
 * rules are checked when it runs and fail only that request.
 */
export function readAsyncBatchEmbedContentRequest(body: unknown): AsyncBatchEmbedContentRequest {
  const requestName = "AsyncBatchEmbedContentRequest";
  const request = runSchema(asyncBatchEmbedContentRequestSchema, body ?? {}, { requestName });
  checkBatchEnvelope(request.batch, requestName);
  return request;
}

/** One line of an embedding batch's JSONL input: the request, and its key or metadata. */
export type EmbedInputLine = InputLine<EmbedContentRequest>;

/**
 * Parses one JSONL input line of an embedding batch: `{"key", "request"}` or a bare
 * EmbedContentRequest. Shape only. Throws ApiError 400.
 */
export function parseEmbedInputLine(line: string): EmbedInputLine {
  return readInputLine(
    parseJsonLine(line),
    readEmbedContentRequest,
    embedInputLineSchema,
    "EmbedInputLine",
  );
}

/** What kind of input a part is, by its MIME type (TEXT for text parts and text/* data). */
export function partModality(part: Part): "TEXT" | "IMAGE" | "AUDIO" | "VIDEO" | "DOCUMENT" {
  if (part.text !== undefined) return "TEXT";
  const mimeType = (part.inlineData?.mimeType ?? part.fileData?.mimeType ?? "").toLowerCase();
  if (mimeType.startsWith("image/")) return "IMAGE";
  if (mimeType.startsWith("audio/")) return "AUDIO";
  if (mimeType.startsWith("video/")) return "VIDEO";
  if (mimeType === "application/pdf") return "DOCUMENT";
  return "TEXT";
}

/** The service's words for an input with too many images (recorded, gemini-embedding-2). */
function tooManyImages(limit: number, count: number): ApiError {
  return new ApiError(
    400,
    "INVALID_ARGUMENT",
    `Unable to submit request because the model supports at most ${limit} image parts per input instance, but ${count} were provided. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api`,
  );
}

/**
 * The rules of an embedding model over embed requests (one for embedContent, each of a
 * batch's; `base` is where they sit: `""` or `requests`): the model named in a body is the
 * path's, the content has parts the model embeds (text, and the media it takes), at most the
 * model's image parts per input, and outputDimensionality within its range. Throws the
 * service's 400 naming the field (`requestName` prefixes each line).
 */
export function* checkEmbedRequestsSteps(
  requests: readonly EmbedContentRequest[],
  model: string,
  traits: EmbeddingTraits,
  requestName: "EmbedContentRequest" | "BatchEmbedContentsRequest",
): Steps {
  const violations = new Violations();
  const listed = requestName === "BatchEmbedContentsRequest";
  for (let index = 0; index < requests.length; index++) {
    const request = requests[index]!;
    const base = listed ? `requests[${index}].` : "";
    if (request.model !== undefined) {
      checkModelName(request.model, `${base}model`, violations);
      if (listed && request.model !== model && request.model.startsWith("models/"))
        violations.add(
          `${base}model`,
          `the request's model ${JSON.stringify(request.model)} differs from the model in the path (${model}).`,
        );
    }
    const images = yield* checkEmbedContentSteps(
      request,
      `${base}content`,
      model,
      traits,
      violations,
    );
    if (traits.maxImagePartsPerInput !== undefined && images > traits.maxImagePartsPerInput)
      throw tooManyImages(traits.maxImagePartsPerInput, images);
    const dimensions = request.outputDimensionality;
    if (
      dimensions !== undefined &&
      (dimensions < traits.minDimensionality || dimensions > traits.dimensions)
    )
      violations.add(
        `${base}output_dimensionality`,
        `output_dimensionality must be between ${traits.minDimensionality} and ${traits.dimensions} for ${model}; got ${dimensions}.`,
      );
  }
  if (!violations.empty) throw violationError(requestName, violations.list);
}

/** One request's content: parts present, each text or a medium the model embeds. Answers its image count. */
function* checkEmbedContentSteps(
  request: EmbedContentRequest,
  path: string,
  model: string,
  traits: EmbeddingTraits,
  violations: Violations,
): Steps<number> {
  const { parts } = request.content;
  if (parts.length === 0) {
    violations.add(`${path}.parts`, "content.parts must not be empty.");
    return 0;
  }
  let images = 0;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const partPath = `${path}.parts[${index}]`;
    const data = partDataField(part);
    if (data === undefined) {
      violations.add(
        `${partPath}.data`,
        "required oneof field 'data' must have one initialized field",
      );
    } else if (data !== "text" && data !== "inlineData" && data !== "fileData") {
      violations.add(
        `${partPath}.${camelToSnake(data)}`,
        `an embedding input takes text and media parts; got ${camelToSnake(data)}.`,
      );
    } else {
      const modality = partModality(part);
      if (modality === "IMAGE") images++;
      if (modality !== "TEXT" && !traits.media.includes(modality))
        violations.add(
          `${partPath}.${camelToSnake(data)}`,
          traits.media.length === 0
            ? `${model} embeds text only; got ${modality.toLowerCase()} (${part.inlineData?.mimeType ?? part.fileData?.mimeType}).`
            : `${model} does not embed ${modality.toLowerCase()}; it takes text and ${traits.media.map((kind) => kind.toLowerCase()).join(", ")}.`,
        );
    }
    yield;
  }
  return images;
}
