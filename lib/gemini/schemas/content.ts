/**
 * Content and Part: the conversation turns of a request. Part is a proto oneof (`data`):
 * exactly one of text, inlineData, fileData, functionCall, functionResponse, executableCode,
 * codeExecutionResult, toolCall, toolResponse, plus thought, thoughtSignature, videoMetadata,
 * mediaResolution, partMetadata and the output-only audioTranscription (every Part field the
 * official SDKs send to this API).
 */
import { z } from "zod";
import type { Content, Part } from "../types";
import {
  repeatedOrEmpty,
  wireBoolean,
  wireBytes,
  wireEnum,
  wireInteger,
  wireNumber,
  wireObject,
  wireString,
  wireStruct,
  wireText,
  wireValue,
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
  "toolCall",
  "toolResponse",
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

export const functionResponsePartSchema = wireObject(
  "FunctionResponsePart",
  {
    inlineData: blobSchema.optional(),
    fileData: fileDataSchema.optional(),
  },
  { oneof: { name: "data", members: ["inlineData", "fileData"] } },
);

export const functionResponseSchema = wireObject("FunctionResponse", {
  id: wireString().optional(),
  name: wireString(),
  response: wireStruct(),
  parts: repeatedOrEmpty(functionResponsePartSchema).optional(),
  scheduling: wireEnum("FunctionResponse.Scheduling", [
    "SCHEDULING_UNSPECIFIED",
    "SILENT",
    "WHEN_IDLE",
    "INTERRUPT",
  ]).optional(),
  willContinue: wireBoolean().optional(),
});

export const executableCodeSchema = wireObject("ExecutableCode", {
  language: wireEnum("ExecutableCode.Language", ["LANGUAGE_UNSPECIFIED", "PYTHON"]),
  code: wireText(),
  id: wireString().optional(),
});

export const codeExecutionResultSchema = wireObject("CodeExecutionResult", {
  outcome: wireEnum("CodeExecutionResult.Outcome", [
    "OUTCOME_UNSPECIFIED",
    "OUTCOME_OK",
    "OUTCOME_FAILED",
    "OUTCOME_DEADLINE_EXCEEDED",
  ]),
  output: wireText().optional(),
  id: wireString().optional(),
});

const TOOL_TYPES = [
  "TOOL_TYPE_UNSPECIFIED",
  "GOOGLE_SEARCH_WEB",
  "GOOGLE_SEARCH_IMAGE",
  "URL_CONTEXT",
  "GOOGLE_MAPS",
  "FILE_SEARCH",
] as const;

export const toolCallSchema = wireObject("ToolCall", {
  id: wireString().optional(),
  toolType: wireEnum("ToolType", TOOL_TYPES).optional(),
  args: wireStruct().optional(),
});

export const toolResponseSchema = wireObject("ToolResponse", {
  id: wireString().optional(),
  toolType: wireEnum("ToolType", TOOL_TYPES).optional(),
  response: wireStruct().optional(),
});

export const partMediaResolutionSchema = wireObject("PartMediaResolution", {
  level: wireEnum("PartMediaResolution.Level", [
    "MEDIA_RESOLUTION_UNSPECIFIED",
    "MEDIA_RESOLUTION_LOW",
    "MEDIA_RESOLUTION_MEDIUM",
    "MEDIA_RESOLUTION_HIGH",
    "MEDIA_RESOLUTION_ULTRA_HIGH",
  ]).optional(),
  numTokens: wireInteger().optional(),
});

export const videoMetadataSchema = wireObject("VideoMetadata", {
  startOffset: wireString().optional(),
  endOffset: wireString().optional(),
  fps: wireNumber("TYPE_DOUBLE").optional(),
});

export const partSchema: z.ZodType<Part, unknown> = wireObject(
  "Part",
  {
    text: wireText().optional(),
    inlineData: blobSchema.optional(),
    fileData: fileDataSchema.optional(),
    functionCall: functionCallSchema.optional(),
    functionResponse: functionResponseSchema.optional(),
    executableCode: executableCodeSchema.optional(),
    codeExecutionResult: codeExecutionResultSchema.optional(),
    toolCall: toolCallSchema.optional(),
    toolResponse: toolResponseSchema.optional(),
    thought: wireBoolean().optional(),
    thoughtSignature: wireBytes().optional(),
    videoMetadata: videoMetadataSchema.optional(),
    mediaResolution: partMediaResolutionSchema.optional(),
    partMetadata: wireStruct().optional(),
    audioTranscription: wireValue().optional(),
  },
  { oneof: { name: "data", members: PART_DATA_FIELDS } },
);

export const contentSchema: z.ZodType<Content, unknown> = wireObject("Content", {
  role: wireString().optional(),
  parts: repeatedOrEmpty(partSchema),
});
