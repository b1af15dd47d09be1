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

/** The fields of a batch only the service writes; a client may echo them back from a get. */
export const batchOutputOnlyFields = {
  name: wireValue().optional(),
  output: wireValue().optional(),
  createTime: wireValue().optional(),
  endTime: wireValue().optional(),
  updateTime: wireValue().optional(),
  batchStats: wireValue().optional(),
  state: wireValue().optional(),
};

type OutputOnly = { [Field in keyof typeof batchOutputOnlyFields]?: unknown };
const OUTPUT_ONLY_NAMES = Object.keys(batchOutputOnlyFields);
/** Batch without its output-only fields (a mapped type: Omit would lose the known fields of a type with an index signature). */
type WithoutOutputOnly<Batch> = {
  [Field in keyof Batch as Field extends keyof OutputOnly ? never : Field]: Batch[Field];
};

/** A batch read from the wire without the output-only fields it may have echoed: they are dropped. */
export function withoutOutputOnly<Batch extends OutputOnly>(
  batch: Batch,
): WithoutOutputOnly<Batch> {
  const kept: Record<string, unknown> = { ...batch };
  for (const field of OUTPUT_ONLY_NAMES) delete kept[field];
  return kept as unknown as WithoutOutputOnly<Batch>;
}

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
    ...batchOutputOnlyFields,
  }).transform(withoutOutputOnly),
}).transform((body) => body as BatchGenerateContentRequest);

/** A JSONL input line in the keyed form the guide documents: `{"key": ..., "request": {...}}`. */
export const batchInputLineSchema = wireObject("BatchInputLine", {
  key: wireString().optional(),
  request: generateContentRequestSchema,
  metadata: wireStruct().optional(),
});
