/**
 * Batch mode bodies: `models/{m}:batchGenerateContent` (BatchGenerateContentRequest, the
 * batch under `batch`) and one line of a JSONL input file. Shapes only; the entry points in
 * `../validate.ts` add the rules. Output-only fields a client may echo back from a get are
 * read and dropped, as the service does.
 */
import type { BatchGenerateContentRequest } from "../types";
import { batchInputFileSchema } from "./reference-fields";
import { generateContentRequestSchema } from "./requests";
import { repeated, wireInteger, wireObject, wireString, wireStruct, wireValue } from "./wire";

/** One request of an inline batch (`InlinedRequest`). */
export const inlinedRequestSchema = wireObject("InlinedRequest", {
  request: generateContentRequestSchema,
  metadata: wireStruct().optional(),
});

export const batchInputConfigSchema = wireObject(
  "InputConfig",
  {
    fileName: batchInputFileSchema.optional(),
    requests: wireObject("InlinedRequests", {
      requests: repeated(inlinedRequestSchema).optional(),
    }).optional(),
  },
  { oneof: { name: "source", members: ["fileName", "requests"] } },
);

export const batchCreateSchema = wireObject("BatchGenerateContentRequest", {
  batch: wireObject("GenerateContentBatch", {
    model: wireString().optional(),
    displayName: wireString().optional(),
    inputConfig: batchInputConfigSchema,
    priority: wireInteger("TYPE_INT64").optional(),
    // Newer SDKs send it; the local engine calls nobody back (see the engine README).
    webhookConfig: wireValue().optional(),
    name: wireValue().optional(),
    output: wireValue().optional(),
    createTime: wireValue().optional(),
    endTime: wireValue().optional(),
    updateTime: wireValue().optional(),
    batchStats: wireValue().optional(),
    state: wireValue().optional(),
  }).transform(
    ({
      name: _name,
      output: _output,
      createTime: _createTime,
      endTime: _endTime,
      updateTime: _updateTime,
      batchStats: _batchStats,
      state: _state,
      ...batch
    }) => batch,
  ),
}).transform((body) => body as BatchGenerateContentRequest);

/** A JSONL input line in the keyed form the guide documents: `{"key": ..., "request": {...}}`. */
export const batchInputLineSchema = wireObject("BatchInputLine", {
  key: wireString().optional(),
  request: generateContentRequestSchema,
  metadata: wireStruct().optional(),
});
