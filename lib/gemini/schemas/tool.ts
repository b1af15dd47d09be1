/**
 * Tool and ToolConfig: function declarations (parameters as Schema or as a JSON Schema
 * value), code execution, Google Search grounding and URL context; function calling mode.
 */
import { z } from "zod";
import type { FunctionDeclaration, Tool, ToolConfig } from "../types";
import { schemaSchema } from "./schema";
import {
  repeated,
  wireEmpty,
  wireEnum,
  wireNumber,
  wireObject,
  wireString,
  wireValue,
} from "./wire";

export const FUNCTION_CALLING_MODES = [
  "MODE_UNSPECIFIED",
  "AUTO",
  "ANY",
  "NONE",
  "VALIDATED",
] as const;

export const functionDeclarationSchema: z.ZodType<FunctionDeclaration, unknown> = wireObject(
  "FunctionDeclaration",
  {
    name: wireString(),
    description: wireString().optional(),
    parameters: schemaSchema.optional(),
    parametersJsonSchema: wireValue().optional(),
    response: schemaSchema.optional(),
    responseJsonSchema: wireValue().optional(),
    behavior: wireEnum("FunctionDeclaration.Behavior", [
      "UNSPECIFIED",
      "BLOCKING",
      "NON_BLOCKING",
    ]).optional(),
  },
);

const intervalSchema = wireObject("Interval", {
  startTime: wireString().optional(),
  endTime: wireString().optional(),
});

export const googleSearchSchema = wireObject("Tool.GoogleSearch", {
  timeRangeFilter: intervalSchema.optional(),
});

export const googleSearchRetrievalSchema = wireObject("GoogleSearchRetrieval", {
  dynamicRetrievalConfig: wireObject("DynamicRetrievalConfig", {
    mode: wireEnum("DynamicRetrievalConfig.Mode", ["MODE_UNSPECIFIED", "MODE_DYNAMIC"]).optional(),
    dynamicThreshold: wireNumber().optional(),
  }).optional(),
});

export const toolSchema: z.ZodType<Tool, unknown> = wireObject("Tool", {
  functionDeclarations: repeated(functionDeclarationSchema).optional(),
  codeExecution: wireEmpty("CodeExecution").optional(),
  googleSearch: googleSearchSchema.optional(),
  googleSearchRetrieval: googleSearchRetrievalSchema.optional(),
  urlContext: wireEmpty("UrlContext").optional(),
});

export const toolConfigSchema: z.ZodType<ToolConfig, unknown> = wireObject("ToolConfig", {
  functionCallingConfig: wireObject("FunctionCallingConfig", {
    mode: wireEnum("FunctionCallingConfig.Mode", FUNCTION_CALLING_MODES).optional(),
    allowedFunctionNames: repeated(wireString()).optional(),
  }).optional(),
});
