/**
 * Content and Part: the conversation turns of a request. Part is a proto oneof (`data`):
 * exactly one of text, inlineData, fileData, functionCall, functionResponse, executableCode,
 * codeExecutionResult, plus the flags thought, thoughtSignature and videoMetadata.
 */
import { z } from "zod";
import type { Content, Part } from "../types";
import {
  repeatedOrEmpty,
  wireBoolean,
  wireBytes,
  wireEnum,
  wireNumber,
  wireObject,
  wireString,
  wireStruct,
} from "./wire";
import { fileUriSchema } from "./reference-fields";

/** Fields of Part's `data` oneof, in the proto's order. */
export const PART_DATA_FIELDS = [
  "text",
  "inlineData",
  "fileData",
  "functionCall",
  "functionResponse",
  "executableCode",
  "codeExecutionResult",
] as const;
export type PartDataField = (typeof PART_DATA_FIELDS)[number];

export const blobSchema = wireObject("Blob", {
  mimeType: wireString(),
  data: wireBytes(),
});

export const fileDataSchema = wireObject("FileData", {
  mimeType: wireString().optional(),
  fileUri: fileUriSchema,
});

export const functionCallSchema = wireObject("FunctionCall", {
  id: wireString().optional(),
  name: wireString(),
  args: wireStruct().optional(),
});

export const functionResponseSchema = wireObject("FunctionResponse", {
  id: wireString().optional(),
  name: wireString(),
  response: wireStruct(),
});

export const executableCodeSchema = wireObject("ExecutableCode", {
  language: wireEnum("ExecutableCode.Language", ["LANGUAGE_UNSPECIFIED", "PYTHON"]),
  code: wireString(),
});

export const codeExecutionResultSchema = wireObject("CodeExecutionResult", {
  outcome: wireEnum("CodeExecutionResult.Outcome", [
    "OUTCOME_UNSPECIFIED",
    "OUTCOME_OK",
    "OUTCOME_FAILED",
    "OUTCOME_DEADLINE_EXCEEDED",
  ]),
  output: wireString().optional(),
});

export const videoMetadataSchema = wireObject("VideoMetadata", {
  startOffset: wireString().optional(),
  endOffset: wireString().optional(),
  fps: wireNumber("TYPE_DOUBLE").optional(),
});

export const partSchema: z.ZodType<Part, unknown> = wireObject(
  "Part",
  {
    text: wireString().optional(),
    inlineData: blobSchema.optional(),
    fileData: fileDataSchema.optional(),
    functionCall: functionCallSchema.optional(),
    functionResponse: functionResponseSchema.optional(),
    executableCode: executableCodeSchema.optional(),
    codeExecutionResult: codeExecutionResultSchema.optional(),
    thought: wireBoolean().optional(),
    thoughtSignature: wireBytes().optional(),
    videoMetadata: videoMetadataSchema.optional(),
  },
  { oneof: { name: "data", members: PART_DATA_FIELDS } },
);

export const contentSchema: z.ZodType<Content, unknown> = wireObject("Content", {
  role: wireString().optional(),
  parts: repeatedOrEmpty(partSchema),
});
