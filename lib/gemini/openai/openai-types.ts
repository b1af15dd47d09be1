/**
 * The OpenAI-compatible endpoint (`/v1beta/openai/...`): chat completions, embeddings and
 * models, in the shapes OpenAI's clients send and read (openai/openai-node
 * `src/resources/chat/completions`, `embeddings.ts`, `models.ts`) and the service answers
 * (recorded: shared/conformance/recorded-exchanges-agents `openai.chat.completions`, with
 * `extra_content.google.thought_signature`). Requests are canonical after their read
 * (lib/gemini/openai/validate-openai.ts): camelCase, a message's content always a list of parts.
 */
import type { DeferredEmbeddingValues, EmbeddingValues } from "../embedding-values";

export type ChatRole = "system" | "developer" | "user" | "assistant" | "tool" | "function";

/** A part of a message's content; a string content reads as one text part. */
export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; imageUrl: { url: string; detail?: string } }
  | { type: "input_audio"; inputAudio: { data: string; format: string } }
  | { type: "file"; file: { fileData?: string; fileId?: string; filename?: string } };

/** `extra_content.google` as the service writes it beside a message or a tool call. */
export interface GoogleExtraContent {
  google?: { thoughtSignature?: string; thought?: boolean };
}

export interface ChatToolCall {
  id?: string;
  type?: "function";
  function: { name: string; arguments?: string };
  extraContent?: GoogleExtraContent;
}

export interface ChatMessage {
  role: ChatRole;
  /** Absent or null content reads as no parts (an assistant turn of tool calls). */
  content: ChatContentPart[];
  name?: string;
  toolCalls?: ChatToolCall[];
  toolCallId?: string;
  extraContent?: GoogleExtraContent;
}

export interface ChatFunctionTool {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters?: Record<string, unknown>;
    strict?: boolean;
  };
}

export type ChatToolChoice =
  "none" | "auto" | "required" | { type: "function"; function: { name: string } };

export type ChatResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | {
      type: "json_schema";
      jsonSchema: {
        name?: string;
        description?: string;
        schema?: Record<string, unknown>;
        strict?: boolean;
      };
    };

export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high";

/** What `extra_body.google` may carry (the service's documented extensions). */
export interface GoogleChatOptions {
  thinkingConfig?: { thinkingBudget?: number; includeThoughts?: boolean; thinkingLevel?: string };
  cachedContent?: string;
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  streamOptions?: { includeUsage?: boolean };
  temperature?: number;
  topP?: number;
  n?: number;
  maxTokens?: number;
  maxCompletionTokens?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  logprobs?: boolean;
  topLogprobs?: number;
  responseFormat?: ChatResponseFormat;
  tools?: ChatFunctionTool[];
  toolChoice?: ChatToolChoice;
  parallelToolCalls?: boolean;
  reasoningEffort?: ReasoningEffort;
  user?: string;
  extraBody?: { google?: GoogleChatOptions };
}

export type ChatFinishReason = "stop" | "length" | "tool_calls" | "content_filter";

/** A tool call as answers carry it (snake_case on the wire, as OpenAI's clients read it). */
export interface ChatToolCallAnswer {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  extra_content?: { google: { thought_signature: string } };
}

export interface ChatAnswerMessage {
  role: "assistant";
  content?: string;
  tool_calls?: ChatToolCallAnswer[];
  extra_content?: { google: { thought?: true; thought_signature: string } };
  thought_signature?: string;
}

export interface ChatUsage {
  completion_tokens: number;
  prompt_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

export interface ChatCompletion {
  choices: { finish_reason: ChatFinishReason; index: number; message: ChatAnswerMessage }[];
  created: number;
  id: string;
  model: string;
  object: "chat.completion";
  usage: ChatUsage;
}

export interface ChatCompletionChunk {
  choices: {
    delta: Partial<ChatAnswerMessage> & {
      tool_calls?: (ChatToolCallAnswer & { index: number })[];
    };
    finish_reason?: ChatFinishReason;
    index: number;
  }[];
  created: number;
  id: string;
  model: string;
  object: "chat.completion.chunk";
  usage?: ChatUsage;
}

export interface OpenAIEmbeddingsRequest {
  model: string;
  /** One text or several, in order. */
  input: string[];
  encodingFormat?: "float" | "base64";
  dimensions?: number;
  user?: string;
}

export interface OpenAIEmbeddingsResponse {
  object: "list";
  /** The engine's floats as a Float64Array (embedding-values.ts), written as a JSON array. */
  data: {
    object: "embedding";
    embedding: number[] | EmbeddingValues | DeferredEmbeddingValues | string;
    index: number;
  }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

export interface OpenAIModel {
  id: string;
  object: "model";
  owned_by: "google";
  display_name?: string;
}

export interface OpenAIModelList {
  object: "list";
  data: OpenAIModel[];
}
