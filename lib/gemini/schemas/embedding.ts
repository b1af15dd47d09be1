/**
 * Embedding bodies: `models/{m}:embedContent` (EmbedContentRequest), `:batchEmbedContents`
 * (its requests under `requests`) and `:asyncBatchEmbedContent` (an EmbedContentBatch under
 * `batch`, shaped like a generation batch). Shapes only; lib/gemini/validate-embedding.ts adds
 * the rules. Output-only fields a client may echo back from a get are read and dropped.
 */
import { EMBEDDING_TASK_TYPES } from "../embedding-types";
import type {
  AsyncBatchEmbedContentRequest,
  BatchEmbedContentsRequest,
  EmbedContentRequest,
} from "../embedding-types";
import { batchOutputOnlyFields, withoutOutputOnly } from "./batch";
import { contentSchema } from "./content";
import { batchInputFileSchema } from "./reference-fields";
import {
  repeated,
  repeatedOrEmpty,
  wireEnum,
  wireInteger,
  wireObject,
  wireString,
  wireStruct,
} from "./wire";

export const embedContentRequestSchema = wireObject("EmbedContentRequest", {
  model: wireString().optional(),
  content: contentSchema,
  taskType: wireEnum("TaskType", EMBEDDING_TASK_TYPES).optional(),
  title: wireString().optional(),
  outputDimensionality: wireInteger().optional(),
}).transform((request) => request as EmbedContentRequest);

export const batchEmbedContentsRequestSchema = wireObject("BatchEmbedContentsRequest", {
  requests: repeatedOrEmpty(embedContentRequestSchema),
}).transform((request) => request as BatchEmbedContentsRequest);

const inlinedEmbedContentRequestSchema = wireObject("InlinedEmbedContentRequest", {
  request: embedContentRequestSchema,
  metadata: wireStruct().optional(),
});

export const asyncBatchEmbedContentRequestSchema = wireObject("AsyncBatchEmbedContentRequest", {
  batch: wireObject("EmbedContentBatch", {
    model: wireString().optional(),
    displayName: wireString().optional(),
    inputConfig: wireObject(
      "InputEmbedContentConfig",
      {
        fileName: batchInputFileSchema.optional(),
        requests: wireObject("InlinedEmbedContentRequests", {
          requests: repeated(inlinedEmbedContentRequestSchema).optional(),
        }).optional(),
      },
      { oneof: { name: "source", members: ["fileName", "requests"] } },
    ),
    priority: wireInteger("TYPE_INT64").optional(),
    ...batchOutputOnlyFields,
  }).transform(withoutOutputOnly),
}).transform((body) => body as AsyncBatchEmbedContentRequest);

/** A JSONL input line of an embedding batch in the keyed form: `{"key": ..., "request": {...}}`. */
export const embedInputLineSchema = wireObject("EmbedInputLine", {
  key: wireString().optional(),
  request: embedContentRequestSchema,
  metadata: wireStruct().optional(),
});
