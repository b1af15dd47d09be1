/**
 * Tool and ToolConfig: function declarations (parameters as Schema or as a JSON Schema
 * value), code execution, Google Search grounding, URL context, file search, Google Maps,
 * computer use and MCP servers; function calling mode, retrieval location and server-side
 * tool invocations (every Tool field the official SDKs send to this API).
 */
import { z } from "zod";
import type { FunctionDeclaration, Tool, ToolConfig } from "../types";
import { fileSearchStoreNameSchema } from "./reference-fields";
import { schemaSchema } from "./schema";
import {
  repeated,
  wireBoolean,
  wireEmpty,
  wireEnum,
  wireInteger,
  wireNumber,
  wireObject,
  wireString,
  wireStruct,
  wireText,
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
    description: wireText().optional(),
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
  searchTypes: wireObject("SearchTypes", {
    webSearch: wireEmpty("WebSearch").optional(),
    imageSearch: wireEmpty("ImageSearch").optional(),
  }).optional(),
});

export const fileSearchSchema = wireObject("FileSearch", {
  fileSearchStoreNames: repeated(fileSearchStoreNameSchema).optional(),
  metadataFilter: wireString().optional(),
  topK: wireInteger().optional(),
});

export const googleMapsSchema = wireObject("GoogleMaps", {
  enableWidget: wireBoolean().optional(),
  authConfig: wireStruct().optional(),
});

export const computerUseSchema = wireObject("ComputerUse", {
  environment: wireEnum("ComputerUse.Environment", [
    "ENVIRONMENT_UNSPECIFIED",
    "ENVIRONMENT_BROWSER",
    "ENVIRONMENT_MOBILE",
    "ENVIRONMENT_DESKTOP",
  ]).optional(),
  excludedPredefinedFunctions: repeated(wireString()).optional(),
  enablePromptInjectionDetection: wireBoolean().optional(),
  disabledSafetyPolicies: wireValue().optional(),
});

export const mcpServerSchema = wireObject("McpServer", {
  name: wireString().optional(),
  streamableHttpTransport: wireObject("StreamableHttpTransport", {
    url: wireString().optional(),
    headers: wireStruct().optional(),
    timeout: wireString().optional(),
    sseReadTimeout: wireString().optional(),
    terminateOnClose: wireBoolean().optional(),
  }).optional(),
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
  fileSearch: fileSearchSchema.optional(),
  googleMaps: googleMapsSchema.optional(),
  computerUse: computerUseSchema.optional(),
  mcpServers: repeated(mcpServerSchema).optional(),
});

export const toolConfigSchema: z.ZodType<ToolConfig, unknown> = wireObject("ToolConfig", {
  functionCallingConfig: wireObject("FunctionCallingConfig", {
    mode: wireEnum("FunctionCallingConfig.Mode", FUNCTION_CALLING_MODES).optional(),
    allowedFunctionNames: repeated(wireString()).optional(),
  }).optional(),
  retrievalConfig: wireObject("RetrievalConfig", {
    latLng: wireObject("LatLng", {
      latitude: wireNumber("TYPE_DOUBLE").optional(),
      longitude: wireNumber("TYPE_DOUBLE").optional(),
    }).optional(),
    languageCode: wireString().optional(),
  }).optional(),
  includeServerSideToolInvocations: wireBoolean().optional(),
});
