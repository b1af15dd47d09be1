/**
 * Request bodies: generateContent / streamGenerateContent, countTokens, cachedContents
 * create and update, and the resumable upload's start body. These check the wire shape
 * only; the rules in `rules/` and the entry points in `../validate.ts` do the rest.
 */
import { z } from "zod";
import type { Content, GenerateContentRequest, Tool } from "../types";
import { contentSchema } from "./content";
import { cachedContentNameSchema } from "./reference-fields";
import { generationConfigSchema, safetySettingSchema } from "./generation-config";
import { toolConfigSchema, toolSchema } from "./tool";
import {
  repeated,
  repeatedOrEmpty,
  wireEnum,
  wireInteger,
  wireObject,
  wireString,
  wireValue,
} from "./wire";

export const generateContentRequestSchema: z.ZodType<GenerateContentRequest, unknown> = wireObject(
  "GenerateContentRequest",
  {
    model: wireString().optional(),
    contents: repeatedOrEmpty(contentSchema),
    tools: repeated(toolSchema).optional(),
    toolConfig: toolConfigSchema.optional(),
    safetySettings: repeated(safetySettingSchema).optional(),
    systemInstruction: contentSchema.optional(),
    generationConfig: generationConfigSchema.optional(),
    cachedContent: cachedContentNameSchema.optional(),
    serviceTier: wireEnum("ServiceTier", [
      "UNSPECIFIED",
      "FLEX",
      "STANDARD",
      "PRIORITY",
    ]).optional(),
  },
);

export const countTokensRequestSchema = wireObject("CountTokensRequest", {
  contents: repeated(contentSchema).optional(),
  generateContentRequest: generateContentRequestSchema.optional(),
});

/** CachedContent as a create body. Output-only fields are read and dropped, as the service does. */
export const cachedContentCreateSchema = wireObject("CachedContent", {
  model: wireString(),
  displayName: wireString().optional(),
  contents: repeated(contentSchema).optional(),
  systemInstruction: contentSchema.optional(),
  tools: repeated(toolSchema).optional(),
  toolConfig: toolConfigSchema.optional(),
  ttl: wireString().optional(),
  expireTime: wireString().optional(),
  name: wireString().optional(),
  createTime: wireString().optional(),
  updateTime: wireString().optional(),
  usageMetadata: wireObject("CachedContent.UsageMetadata", {
    totalTokenCount: wireInteger().optional(),
  }).optional(),
}).transform(
  ({
    name: _name,
    createTime: _createTime,
    updateTime: _updateTime,
    usageMetadata: _usageMetadata,
    ...create
  }) => create as CachedContentCreateShape,
);

interface CachedContentCreateShape {
  model: string;
  displayName?: string;
  contents?: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: GenerateContentRequest["toolConfig"];
  ttl?: string;
  expireTime?: string;
}

/**
 * CachedContent as an update (PATCH) body. Every field of the resource is a known name, so
 * sending one reads as "cannot be updated" rather than "unknown"; only ttl and expireTime
 * (and the resource's own name) get through the rules.
 */
export const cachedContentUpdateSchema = wireObject("CachedContent", {
  ttl: wireString().optional(),
  expireTime: wireString().optional(),
  name: wireString().optional(),
  model: wireValue().optional(),
  displayName: wireValue().optional(),
  contents: wireValue().optional(),
  systemInstruction: wireValue().optional(),
  tools: wireValue().optional(),
  toolConfig: wireValue().optional(),
  createTime: wireValue().optional(),
  updateTime: wireValue().optional(),
  usageMetadata: wireValue().optional(),
});

/**
 * `{"file": {...}}` of the resumable upload's start request. The official SDK sends the
 * whole File shape (sizeBytes, and output-only fields when it has them); those are read and
 * dropped: the upload headers carry the size and type that count.
 */
export const uploadStartSchema = wireObject("CreateFileRequest", {
  file: wireObject("File", {
    name: wireString().optional(),
    displayName: wireString().optional(),
    mimeType: wireString().optional(),
    sizeBytes: wireInteger("TYPE_INT64").optional(),
    createTime: wireValue().optional(),
    updateTime: wireValue().optional(),
    expirationTime: wireValue().optional(),
    sha256Hash: wireValue().optional(),
    uri: wireValue().optional(),
    downloadUri: wireValue().optional(),
    state: wireValue().optional(),
    source: wireValue().optional(),
    videoMetadata: wireValue().optional(),
    error: wireValue().optional(),
  }).optional(),
});
