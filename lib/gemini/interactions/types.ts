/**
 * Wire types of the Interactions API (`/v1beta/interactions`), as the service sends them from
 * its 2026-05 schema on (`steps`, `step.*` events) and as `@google/genai` 3.x reads them
 * (its generated interactions client, `src/gaos/models/interactions/`). Unlike the rest of the
 * API these are snake_case JSON, not proto JSON: field names are kept as on the wire. The
 * canonical create request (`InteractionCreate`) is what `read-create.ts` makes of a body.
 * Safe in the browser.
 */

export type InteractionStatus =
  | "queued"
  | "in_progress"
  | "requires_action"
  | "completed"
  | "failed"
  | "cancelled"
  | "incomplete";

/** A modality as usage and response formats name it (lower case). */
export type InteractionModality = "text" | "image" | "audio" | "video" | "document";

export interface TextContent {
  type: "text";
  text: string;
  annotations?: Record<string, unknown>[];
}

/** Media given inline (`data`, base64) or by reference (`uri`). */
export interface MediaContent {
  type: "image" | "audio" | "video" | "document";
  data?: string;
  uri?: string;
  mime_type?: string;
  /** `low`, `medium`, `high`, `ultra_high`. */
  resolution?: string;
}

export type InteractionContent = TextContent | MediaContent;

export interface UserInputStep {
  type: "user_input";
  content?: InteractionContent[];
}

export interface ModelOutputStep {
  type: "model_output";
  content?: InteractionContent[];
  error?: { code?: number; message?: string };
}

export interface ThoughtStep {
  type: "thought";
  signature?: string;
  summary?: InteractionContent[];
}

export interface FunctionCallStep {
  type: "function_call";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  signature?: string;
}

export interface FunctionResultStep {
  type: "function_result";
  call_id: string;
  name?: string;
  is_error?: boolean;
  result: string | InteractionContent[] | Record<string, unknown>;
  signature?: string;
}

/** A built-in tool's call (`google_search_call`, `code_execution_call`, `url_context_call`, ...). */
export interface ToolCallStep {
  type: `${BuiltInToolName}_call`;
  id: string;
  arguments: Record<string, unknown>;
  signature?: string;
}

/** A built-in tool's result, answering the call `call_id`. */
export interface ToolResultStep {
  type: `${BuiltInToolName}_result`;
  call_id: string;
  result: unknown;
  is_error?: boolean;
  signature?: string;
}

export type BuiltInToolName =
  "google_search" | "code_execution" | "url_context" | "file_search" | "google_maps";

export type Step =
  | UserInputStep
  | ModelOutputStep
  | ThoughtStep
  | FunctionCallStep
  | FunctionResultStep
  | ToolCallStep
  | ToolResultStep;

export interface ModalityTokens {
  modality: InteractionModality;
  tokens: number;
}

/** Token usage, named and ordered as the service sends it (recorded 2026-05 on). */
export interface InteractionUsage {
  total_tokens: number;
  total_input_tokens: number;
  input_tokens_by_modality?: ModalityTokens[];
  total_cached_tokens: number;
  cached_tokens_by_modality?: ModalityTokens[];
  total_output_tokens: number;
  output_tokens_by_modality?: ModalityTokens[];
  total_tool_use_tokens: number;
  tool_use_tokens_by_modality?: ModalityTokens[];
  total_thought_tokens: number;
}

/** The interaction resource. Key order follows the service's (id, status, usage, times, ...). */
export interface Interaction {
  id: string;
  status: InteractionStatus;
  usage?: InteractionUsage;
  created?: string;
  updated?: string;
  service_tier?: string;
  steps?: Step[];
  /** The input as sent, on a get with `include_input=true`. */
  input?: unknown;
  previous_interaction_id?: string;
  object: "interaction";
  model?: string;
  agent?: string;
}

/** An error as the Interactions API words it: a string code, not the proto status. */
export interface InteractionErrorObject {
  code: string;
  message: string;
}

export interface InteractionErrorBody {
  error: InteractionErrorObject;
}

/** The events of a stream, each also carrying its `event_id` when the interaction is stored. */
export type InteractionEvent =
  | {
      event_type: "interaction.created" | "interaction.completed";
      interaction: Interaction;
      event_id?: string;
    }
  | {
      event_type: "interaction.status_update";
      interaction_id: string;
      status: InteractionStatus;
      event_id?: string;
    }
  | { event_type: "step.start"; index: number; step: Step; event_id?: string }
  | {
      event_type: "step.delta";
      index: number;
      delta: Record<string, unknown> & { type: string };
      event_id?: string;
    }
  | { event_type: "step.stop"; index: number; event_id?: string }
  | { event_type: "error"; error: InteractionErrorObject; event_id?: string };

export type InteractionEventType = InteractionEvent["event_type"];

/** A function the model may call (`tools[].type: "function"`). */
export interface InteractionFunction {
  name: string;
  description?: string;
  /** A JSON schema (lower-case types), as `parametersJsonSchema` takes it. */
  parameters?: unknown;
}

/** A built-in tool, with its options as sent (snake_case). */
export interface InteractionBuiltInTool {
  type: BuiltInToolName;
  options: Record<string, unknown>;
}

export type InteractionTool =
  { type: "function"; function: InteractionFunction } | InteractionBuiltInTool;

export interface InteractionGenerationConfig {
  temperature?: number;
  top_p?: number;
  seed?: number;
  stop_sequences?: string[];
  max_output_tokens?: number;
  thinking_level?: "minimal" | "low" | "medium" | "high";
  thinking_summaries?: "auto" | "none";
  /** `auto`, `any`, `none`, `validated`, with the functions allowed. */
  tool_choice?: { mode: string; allowed?: string[] };
  /** Voices, as `{voice, speaker?, language?}` entries. */
  speech?: { voice?: string; speaker?: string; language?: string }[];
  image_config?: { aspect_ratio?: string; image_size?: string };
}

/** What the answer should be: JSON to a schema, plain text, and which modalities. */
export interface InteractionResponseFormat {
  mime_type?: string;
  schema?: unknown;
  modalities?: InteractionModality[];
}

/** The canonical create request: read once from the body, then only this is read. */
export interface InteractionCreate {
  /** `models/{id}` when a model answers. */
  model?: string;
  /** The agent's id when an agent answers. */
  agent?: string;
  /** The input as steps (a string, content or contents become one `user_input` step). */
  input: Step[];
  system_instruction?: string;
  generation_config?: InteractionGenerationConfig;
  tools?: InteractionTool[];
  response_format?: InteractionResponseFormat;
  safety_settings?: { category: string; threshold: string }[];
  previous_interaction_id?: string;
  store: boolean;
  stream: boolean;
  background: boolean;
  /** `cachedContents/{id}`: a cache whose contents go before the conversation (deprecated by the service). */
  cached_content?: string;
  /** The agent's configuration, as sent (read by the agent, never by the model). */
  agent_config?: Record<string, unknown>;
  service_tier?: string;
}

/** The query of `GET interactions/{id}`. */
export interface InteractionGetQuery {
  stream: boolean;
  lastEventId?: string;
  includeInput: boolean;
}
