/**
 * The request-side wire schemas and value lists. Most callers want the entry points in
 * `lib/gemini/validate` instead; these are for forms and tools that need one piece.
 */
export * from "./constants";
export {
  blobSchema,
  contentSchema,
  fileDataSchema,
  partSchema,
  PART_DATA_FIELDS,
  type PartDataField,
} from "./content";
export {
  generationConfigSchema,
  safetySettingSchema,
  speechConfigSchema,
  thinkingConfigSchema,
  voiceConfigSchema,
} from "./generation-config";
export { wirePath } from "./issues";
export {
  cachedContentCreateSchema,
  cachedContentUpdateSchema,
  countTokensRequestSchema,
  generateContentRequestSchema,
  uploadStartSchema,
} from "./requests";
export { CONTENT_ROLES, partDataField } from "./rules/content-rules";
export { FUNCTION_NAME_PATTERN } from "./rules/tool-rules";
export { SCHEMA_TYPES, schemaSchema, type SchemaType } from "./schema";
export {
  FUNCTION_CALLING_MODES,
  functionDeclarationSchema,
  toolConfigSchema,
  toolSchema,
} from "./tool";
export { camelToSnake } from "./wire";
