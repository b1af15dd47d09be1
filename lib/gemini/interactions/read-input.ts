/**
 * The `input` of a create request, in any of its four forms (a string, one content, a list of
 * contents, a list of steps: `InteractionsInput` in @google/genai 3.x), read as steps: the
 * first three become one `user_input` step. Contents and steps are checked field by field;
 * what a step type does not have is refused, naming its place.
 */
import {
  field,
  join,
  knownFields,
  listAt,
  objectAt,
  optionalBoolean,
  optionalString,
  stringAt,
  type JsonObject,
} from "./field-reader";
import { invalidInteractionField } from "./errors";
import type {
  BuiltInToolName,
  InteractionContent,
  MediaContent,
  Step,
  ToolCallStep,
  ToolResultStep,
} from "./types";

const MEDIA_TYPES = new Set(["image", "audio", "video", "document"]);
const CONTENT_TYPES = new Set(["text", ...MEDIA_TYPES]);
const RESOLUTIONS = ["low", "medium", "high", "ultra_high"];
export const BUILT_IN_TOOLS: readonly BuiltInToolName[] = [
  "google_search",
  "code_execution",
  "url_context",
  "file_search",
  "google_maps",
];

const MEDIA_FIELDS: Record<string, ReadonlySet<string>> = {
  image: new Set(["type", "data", "uri", "mime_type", "resolution"]),
  audio: new Set(["type", "data", "uri", "mime_type", "channels", "sample_rate"]),
  video: new Set(["type", "data", "uri", "mime_type", "resolution", "name", "processing"]),
  document: new Set(["type", "data", "uri", "mime_type"]),
};
const TEXT_FIELDS = new Set(["type", "text", "annotations"]);

function typeOf(object: JsonObject, path: string): string {
  const type = field(object, "type");
  if (type === undefined) throw invalidInteractionField(join(path, "type"), "is required.");
  return stringAt(type, join(path, "type"));
}

/** One content item: text, or media given inline (`data`) or by reference (`uri`). */
export function readContent(value: unknown, path: string): InteractionContent {
  const object = objectAt(value, path);
  const type = typeOf(object, path);
  if (type === "text") {
    knownFields(object, TEXT_FIELDS, path);
    const text = field(object, "text");
    if (text === undefined) throw invalidInteractionField(join(path, "text"), "is required.");
    const annotations = field(object, "annotations");
    return {
      type: "text",
      text: stringAt(text, join(path, "text")),
      ...(annotations !== undefined
        ? {
            annotations: listAt(annotations, join(path, "annotations")).map((item, index) =>
              objectAt(item, `${join(path, "annotations")}[${index}]`),
            ),
          }
        : {}),
    };
  }
  const known = MEDIA_FIELDS[type];
  if (!known)
    throw invalidInteractionField(
      join(path, "type"),
      `expected one of 'text', 'image', 'audio', 'video', 'document', got '${type.slice(0, 60)}'.`,
    );
  knownFields(object, known, path);
  const data = optionalString(object, "data", path);
  const uri = optionalString(object, "uri", path);
  if ((data === undefined) === (uri === undefined))
    throw invalidInteractionField(path, "exactly one of 'data' and 'uri' must be set.");
  const mimeType = optionalString(object, "mime_type", path);
  if (data !== undefined && !mimeType)
    throw invalidInteractionField(join(path, "mime_type"), "is required with 'data'.");
  const resolution = optionalString(object, "resolution", path);
  if (resolution !== undefined && !RESOLUTIONS.includes(resolution))
    throw invalidInteractionField(
      join(path, "resolution"),
      `expected one of 'low', 'medium', 'high', 'ultra_high', got '${resolution.slice(0, 60)}'.`,
    );
  const content: MediaContent = { type: type as MediaContent["type"] };
  if (data !== undefined) content.data = data;
  if (uri !== undefined) content.uri = uri;
  if (mimeType) content.mime_type = mimeType;
  if (resolution !== undefined) content.resolution = resolution;
  return content;
}

function readContents(value: unknown, path: string): InteractionContent[] {
  return listAt(value, path).map((item, index) => readContent(item, `${path}[${index}]`));
}

function optionalContents(object: JsonObject, key: string, path: string) {
  const value = field(object, key);
  return value === undefined ? undefined : readContents(value, join(path, key));
}

function requiredString(object: JsonObject, key: string, path: string): string {
  const value = optionalString(object, key, path);
  if (value === undefined || value === "")
    throw invalidInteractionField(join(path, key), "is required.");
  return value;
}

function requiredObject(object: JsonObject, key: string, path: string): JsonObject {
  const value = field(object, key);
  if (value === undefined) throw invalidInteractionField(join(path, key), "is required.");
  return objectAt(value, join(path, key));
}

/** A function's or tool's result: text, contents, or an object. */
function readResult(object: JsonObject, path: string): string | InteractionContent[] | JsonObject {
  const value = field(object, "result");
  const where = join(path, "result");
  if (value === undefined) throw invalidInteractionField(where, "is required.");
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return readContents(value, where);
  return objectAt(value, where);
}

const STEP_FIELDS: Record<string, ReadonlySet<string>> = {
  user_input: new Set(["type", "content"]),
  model_output: new Set(["type", "content", "error"]),
  thought: new Set(["type", "signature", "summary"]),
  function_call: new Set(["type", "id", "name", "arguments", "signature"]),
  function_result: new Set(["type", "call_id", "name", "is_error", "result", "signature"]),
};
const TOOL_CALL_FIELDS = new Set(["type", "id", "arguments", "signature", "search_type"]);
const TOOL_RESULT_FIELDS = new Set(["type", "call_id", "result", "is_error", "signature"]);

/** One step of a conversation sent as steps. */
export function readStep(value: unknown, path: string): Step {
  const object = objectAt(value, path);
  const type = typeOf(object, path);
  const tool = BUILT_IN_TOOLS.find((name) => type === `${name}_call` || type === `${name}_result`);
  const known =
    STEP_FIELDS[type] ??
    (tool ? (type.endsWith("_call") ? TOOL_CALL_FIELDS : TOOL_RESULT_FIELDS) : undefined);
  if (!known)
    throw invalidInteractionField(
      join(path, "type"),
      `'${type.slice(0, 60)}' is not a step this API reads.`,
    );
  knownFields(object, known, path);
  const signature = optionalString(object, "signature", path);
  const signed = signature !== undefined ? { signature } : {};
  switch (type) {
    case "user_input":
    case "model_output": {
      const content = optionalContents(object, "content", path);
      return { type, ...(content ? { content } : {}) };
    }
    case "thought": {
      const summary = optionalContents(object, "summary", path);
      return { type, ...signed, ...(summary ? { summary } : {}) };
    }
    case "function_call":
      return {
        type,
        id: requiredString(object, "id", path),
        name: requiredString(object, "name", path),
        arguments: requiredObject(object, "arguments", path),
        ...signed,
      };
    case "function_result": {
      const name = optionalString(object, "name", path);
      const isError = optionalBoolean(object, "is_error", path);
      return {
        type,
        call_id: requiredString(object, "call_id", path),
        ...(name !== undefined ? { name } : {}),
        ...(isError !== undefined ? { is_error: isError } : {}),
        result: readResult(object, path),
        ...signed,
      };
    }
  }
  if (type.endsWith("_call")) {
    const args = field(object, "arguments");
    return {
      type: type as ToolCallStep["type"],
      id: requiredString(object, "id", path),
      arguments: args === undefined ? {} : objectAt(args, join(path, "arguments")),
      ...signed,
    };
  }
  const isError = optionalBoolean(object, "is_error", path);
  return {
    type: type as ToolResultStep["type"],
    call_id: requiredString(object, "call_id", path),
    result: field(object, "result") ?? [],
    ...(isError !== undefined ? { is_error: isError } : {}),
    ...signed,
  };
}

/** `input` in any of its forms, as steps. */
export function readInput(value: unknown): Step[] {
  if (value === undefined || value === null) throw invalidInteractionField("input", "is required.");
  if (typeof value === "string")
    return [{ type: "user_input", content: [{ type: "text", text: value }] }];
  if (!Array.isArray(value))
    return [{ type: "user_input", content: [readContent(value, "input")] }];
  if (value.length === 0) throw invalidInteractionField("input", "must not be empty.");
  const contents = value.every(
    (item) =>
      typeof item === "object" &&
      item !== null &&
      CONTENT_TYPES.has((item as JsonObject).type as string),
  );
  if (contents) return [{ type: "user_input", content: readContents(value, "input") }];
  return value.map((item, index) => readStep(item, `input[${index}]`));
}
