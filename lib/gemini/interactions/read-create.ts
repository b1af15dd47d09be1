/**
 * The one reading of a create body (`POST interactions`) for the local engine: every field
 * `@google/genai` 3.x's CreateModelInteraction / CreateAgentInteraction defines is read and
 * checked here, anything else is refused naming it, and the answer is the canonical
 * InteractionCreate the engine reads from then on. Fields the engine cannot act on (webhooks,
 * environments, labels) are accepted and have no effect. The gateway does not use this
 * reader: it forwards what it does not model and reads only `read-envelope.ts`.
 */
import {
  field,
  join,
  knownFields,
  listAt,
  objectAt,
  optionalBoolean,
  optionalEnum,
  optionalNumber,
  optionalString,
  optionalStringList,
  stringAt,
  type JsonObject,
} from "./field-reader";
import { invalidInteraction, invalidInteractionField } from "./errors";
import { BUILT_IN_TOOLS, readInput } from "./read-input";
import type {
  InteractionCreate,
  InteractionGenerationConfig,
  InteractionModality,
  InteractionResponseFormat,
  InteractionTool,
} from "./types";

const TOP_LEVEL = new Set([
  "model",
  "agent",
  "input",
  "system_instruction",
  "generation_config",
  "tools",
  "response_format",
  "response_mime_type",
  "response_modalities",
  "safety_settings",
  "previous_interaction_id",
  "store",
  "stream",
  "background",
  "agent_config",
  "service_tier",
  "labels",
  "environment",
  "webhook_config",
  "continuation_token",
  "cached_content",
]);

/** A model or agent id: what the service's resource ids are made of. */
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export const THINKING_LEVELS = ["minimal", "low", "medium", "high"] as const;
const TOOL_CHOICES = ["auto", "any", "none", "validated"];
const MODALITIES: readonly InteractionModality[] = ["text", "image", "audio", "video", "document"];

export function readCreateInteractionRequest(body: unknown): InteractionCreate {
  const object = objectAt(body, "");
  knownFields(object, TOP_LEVEL, "");
  const model = optionalString(object, "model", "");
  const agent = optionalString(object, "agent", "");
  if ((model === undefined) === (agent === undefined))
    throw invalidInteraction("Exactly one of 'model' and 'agent' must be set.");
  // What only a model takes, and what only an agent takes (the SDKs' own checks say so too).
  for (const key of model !== undefined
    ? ["agent_config"]
    : ["generation_config", "cached_content"])
    if (field(object, key) !== undefined)
      throw invalidInteractionField(
        key,
        `is not available with ${model !== undefined ? "a model" : "an agent"}.`,
      );
  const id = (model ?? agent)!.replace(/^models\//, "");
  if (!ID_PATTERN.test(id))
    throw invalidInteractionField(model !== undefined ? "model" : "agent", "is not a valid name.");
  if (field(object, "continuation_token") !== undefined)
    throw invalidInteractionField(
      "continuation_token",
      "does not belong to an interaction of this service.",
    );
  const systemInstruction = optionalString(object, "system_instruction", "");
  const generationConfig = field(object, "generation_config");
  const tools = field(object, "tools");
  const previous = optionalString(object, "previous_interaction_id", "");
  const safety = field(object, "safety_settings");
  const agentConfig = field(object, "agent_config");
  const serviceTier = optionalString(object, "service_tier", "");
  const cachedContent = optionalString(object, "cached_content", "");
  for (const key of ["labels", "environment", "webhook_config"]) {
    const value = field(object, key);
    if (value !== undefined && typeof value !== "string") objectAt(value, key);
  }
  const responseFormat = readResponseFormat(object);
  return {
    ...(model !== undefined ? { model: `models/${id}` } : { agent: id }),
    input: readInput(field(object, "input")),
    ...(systemInstruction !== undefined ? { system_instruction: systemInstruction } : {}),
    ...(generationConfig !== undefined
      ? { generation_config: readGenerationConfig(generationConfig) }
      : {}),
    ...(tools !== undefined ? { tools: readTools(tools) } : {}),
    ...(responseFormat ? { response_format: responseFormat } : {}),
    ...(safety !== undefined ? { safety_settings: readSafetySettings(safety) } : {}),
    ...(previous !== undefined ? { previous_interaction_id: previous } : {}),
    store: optionalBoolean(object, "store", "") ?? true,
    stream: optionalBoolean(object, "stream", "") ?? false,
    background: optionalBoolean(object, "background", "") ?? false,
    ...(agentConfig !== undefined ? { agent_config: objectAt(agentConfig, "agent_config") } : {}),
    ...(serviceTier !== undefined ? { service_tier: serviceTier } : {}),
    ...(cachedContent !== undefined ? { cached_content: cachedContent } : {}),
  };
}

const GENERATION_FIELDS = new Set([
  "temperature",
  "top_p",
  "seed",
  "stop_sequences",
  "max_output_tokens",
  "thinking_level",
  "thinking_summaries",
  "tool_choice",
  "speech_config",
  "image_config",
  "transcription_config",
  "video_config",
]);

function readGenerationConfig(value: unknown): InteractionGenerationConfig {
  const path = "generation_config";
  const object = objectAt(value, path);
  knownFields(object, GENERATION_FIELDS, path);
  const config: InteractionGenerationConfig = {};
  const temperature = optionalNumber(object, "temperature", path, { min: 0, max: 2 });
  if (temperature !== undefined) config.temperature = temperature;
  const topP = optionalNumber(object, "top_p", path, { min: 0, max: 1 });
  if (topP !== undefined) config.top_p = topP;
  const seed = optionalNumber(object, "seed", path, { integer: true });
  if (seed !== undefined) config.seed = seed;
  const stops = optionalStringList(object, "stop_sequences", path);
  if (stops !== undefined) config.stop_sequences = stops;
  const maxOutput = optionalNumber(object, "max_output_tokens", path, { integer: true, min: 1 });
  if (maxOutput !== undefined) config.max_output_tokens = maxOutput;
  const level = optionalEnum(object, "thinking_level", path, THINKING_LEVELS);
  if (level !== undefined) config.thinking_level = level;
  const summaries = optionalEnum(object, "thinking_summaries", path, ["auto", "none"] as const);
  if (summaries !== undefined) config.thinking_summaries = summaries;
  const choice = field(object, "tool_choice");
  if (choice !== undefined) config.tool_choice = readToolChoice(choice, join(path, "tool_choice"));
  const speech = field(object, "speech_config");
  if (speech !== undefined) config.speech = readSpeech(speech, join(path, "speech_config"));
  const image = field(object, "image_config");
  if (image !== undefined) {
    const where = join(path, "image_config");
    const imageObject = objectAt(image, where);
    knownFields(imageObject, new Set(["aspect_ratio", "image_size"]), where);
    const aspectRatio = optionalString(imageObject, "aspect_ratio", where);
    const imageSize = optionalString(imageObject, "image_size", where);
    config.image_config = {
      ...(aspectRatio !== undefined ? { aspect_ratio: aspectRatio } : {}),
      ...(imageSize !== undefined ? { image_size: imageSize } : {}),
    };
  }
  for (const key of ["transcription_config", "video_config"]) {
    const other = field(object, key);
    if (other !== undefined) objectAt(other, join(path, key));
  }
  return config;
}

function readToolChoice(value: unknown, path: string): { mode: string; allowed?: string[] } {
  if (typeof value === "string") {
    if (!TOOL_CHOICES.includes(value))
      throw invalidInteractionField(path, `expected one of 'auto', 'any', 'none', 'validated'.`);
    return { mode: value };
  }
  const object = objectAt(value, path);
  knownFields(object, new Set(["allowed_tools"]), path);
  const allowed = objectAt(field(object, "allowed_tools") ?? {}, join(path, "allowed_tools"));
  const where = join(path, "allowed_tools");
  knownFields(allowed, new Set(["mode", "tools"]), where);
  const mode = optionalString(allowed, "mode", where) ?? "auto";
  if (!TOOL_CHOICES.includes(mode))
    throw invalidInteractionField(
      join(where, "mode"),
      `expected one of 'auto', 'any', 'none', 'validated'.`,
    );
  const tools = optionalStringList(allowed, "tools", where);
  return { mode, ...(tools ? { allowed: tools } : {}) };
}

function readSpeech(
  value: unknown,
  path: string,
): NonNullable<InteractionGenerationConfig["speech"]> {
  const list = Array.isArray(value)
    ? value
    : listAt(field(objectAt(value, path), "speakers") ?? [], join(path, "speakers"));
  return list.map((item, index) => {
    const where = `${path}[${index}]`;
    const object = objectAt(item, where);
    knownFields(object, new Set(["voice", "speaker", "language"]), where);
    const voice = optionalString(object, "voice", where);
    const speaker = optionalString(object, "speaker", where);
    const language = optionalString(object, "language", where);
    return {
      ...(voice !== undefined ? { voice } : {}),
      ...(speaker !== undefined ? { speaker } : {}),
      ...(language !== undefined ? { language } : {}),
    };
  });
}

const FUNCTION_FIELDS = new Set(["type", "name", "description", "parameters"]);
const TOOL_FIELDS: Record<string, ReadonlySet<string>> = {
  google_search: new Set(["type", "search_types"]),
  code_execution: new Set(["type"]),
  url_context: new Set(["type"]),
  file_search: new Set(["type", "file_search_store_names", "metadata_filter", "top_k"]),
  google_maps: new Set(["type", "enable_widget", "latitude", "longitude"]),
};

function readTools(value: unknown): InteractionTool[] {
  return listAt(value, "tools").map((item, index): InteractionTool => {
    const path = `tools[${index}]`;
    const object = objectAt(item, path);
    const type = stringAt(field(object, "type"), join(path, "type"));
    if (type === "function") {
      knownFields(object, FUNCTION_FIELDS, path);
      const name = optionalString(object, "name", path);
      if (!name) throw invalidInteractionField(join(path, "name"), "is required.");
      const description = optionalString(object, "description", path);
      const parameters = field(object, "parameters");
      return {
        type: "function",
        function: {
          name,
          ...(description !== undefined ? { description } : {}),
          ...(parameters !== undefined
            ? { parameters: objectAt(parameters, join(path, "parameters")) }
            : {}),
        },
      };
    }
    const known = TOOL_FIELDS[type];
    if (!known || !BUILT_IN_TOOLS.includes(type as never))
      throw invalidInteractionField(
        join(path, "type"),
        `'${type.slice(0, 60)}' is not a tool this service can run here.`,
      );
    knownFields(object, known, path);
    if (type === "file_search") optionalStringList(object, "file_search_store_names", path);
    const { type: _type, ...options } = object;
    return { type: type as InteractionTool["type"] & string, options } as InteractionTool;
  });
}

const FORMAT_TYPES = new Set(["text", "image", "audio", "video"]);
const TEXT_FORMAT_FIELDS = new Set(["type", "mime_type", "schema"]);

/**
 * `response_format` (a format or a list of them: text with a MIME type and schema, image,
 * audio) and the deprecated `response_mime_type` / `response_modalities`; a
 * `response_format` that is no format is the JSON schema itself, as older clients send it.
 */
function readResponseFormat(object: JsonObject): InteractionResponseFormat | undefined {
  const format: InteractionResponseFormat = {};
  const modalities = new Set<InteractionModality>();
  const given = field(object, "response_format");
  if (given !== undefined) {
    const items = Array.isArray(given) ? given : [given];
    items.forEach((item, index) => {
      const path = Array.isArray(given) ? `response_format[${index}]` : "response_format";
      const entry = objectAt(item, path);
      const type = field(entry, "type");
      if (typeof type !== "string" || !FORMAT_TYPES.has(type)) {
        format.schema = entry;
        modalities.add("text");
        return;
      }
      modalities.add(type as InteractionModality);
      if (type !== "text") return;
      knownFields(entry, TEXT_FORMAT_FIELDS, path);
      const mimeType = optionalString(entry, "mime_type", path);
      if (mimeType !== undefined) format.mime_type = mimeType;
      const schema = field(entry, "schema");
      if (schema !== undefined) format.schema = objectAt(schema, join(path, "schema"));
    });
  }
  const mimeType = optionalString(object, "response_mime_type", "");
  if (mimeType !== undefined) format.mime_type = mimeType;
  const listed = optionalStringList(object, "response_modalities", "");
  listed?.forEach((modality, index) => {
    const lower = modality.toLowerCase() as InteractionModality;
    if (!MODALITIES.includes(lower))
      throw invalidInteractionField(
        `response_modalities[${index}]`,
        `'${modality.slice(0, 40)}' is not a modality.`,
      );
    modalities.add(lower);
  });
  if (format.schema !== undefined && format.mime_type === undefined)
    format.mime_type = "application/json";
  if (modalities.size > 0) format.modalities = [...modalities];
  return Object.keys(format).length > 0 ? format : undefined;
}

function readSafetySettings(value: unknown): { category: string; threshold: string }[] {
  return listAt(value, "safety_settings").map((item, index) => {
    const path = `safety_settings[${index}]`;
    const object = objectAt(item, path);
    knownFields(object, new Set(["type", "threshold", "method"]), path);
    const category = optionalString(object, "type", path);
    const threshold = optionalString(object, "threshold", path);
    if (!category) throw invalidInteractionField(join(path, "type"), "is required.");
    if (!threshold) throw invalidInteractionField(join(path, "threshold"), "is required.");
    return { category, threshold };
  });
}
