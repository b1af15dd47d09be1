/**
 * Reading the OpenAI-compatible endpoint's bodies into their canonical forms: the wire shape
 * (openai-schemas.ts), then the rules that concern the OpenAI shape itself, each a violation
 * naming its field (`* ChatCompletionRequest.messages[1].tool_call_id: ...`). What a request
 * asks of its model (ranges, capabilities) is checked once translated, by the API's own rules.
 */
import type { ChatCompletionRequest, ChatMessage, OpenAIEmbeddingsRequest } from "./openai-types";
import { chatCompletionRequestSchema, openaiEmbeddingsRequestSchema } from "./openai-schemas";
import { Violations, violationError } from "../schemas/rules/violations";
import { runSchema } from "../validate";

/** Most inputs one embeddings request may carry (as batchEmbedContents, which it becomes). */
export const MAX_OPENAI_EMBEDDING_INPUTS = 100;

const PART_FIELD = {
  text: "text",
  image_url: "imageUrl",
  input_audio: "inputAudio",
  file: "file",
} as const;

function checkMessage(message: ChatMessage, path: string, violations: Violations): void {
  message.content.forEach((part, index) => {
    const field = PART_FIELD[part.type];
    if ((part as Record<string, unknown>)[field] === undefined)
      violations.add(
        `${path}.content[${index}].${part.type}`,
        `a ${part.type} part needs its ${part.type} field.`,
      );
  });
  if (message.role === "tool" && message.toolCallId === undefined)
    violations.add(`${path}.tool_call_id`, "a tool message needs the tool_call_id it answers.");
  if (message.toolCalls && message.role !== "assistant")
    violations.add(`${path}.tool_calls`, "only an assistant message carries tool_calls.");
  if (message.content.length === 0 && !message.toolCalls?.length && message.role !== "assistant")
    violations.add(`${path}.content`, `a ${message.role} message needs content.`);
}

/** Reads a `chat/completions` body. Throws ApiError 400 naming the field. */
export function readChatCompletionRequest(body: unknown): ChatCompletionRequest {
  const requestName = "ChatCompletionRequest";
  const request = runSchema(chatCompletionRequestSchema, body ?? {}, { requestName });
  const violations = new Violations();
  if (request.messages.length === 0) violations.add("messages", "messages must not be empty.");
  request.messages.forEach((message, index) =>
    checkMessage(message, `messages[${index}]`, violations),
  );
  if (request.responseFormat?.type === "json_schema" && !request.responseFormat.jsonSchema)
    violations.add(
      "response_format.json_schema",
      "a json_schema response format needs its json_schema.",
    );
  if (request.reasoningEffort !== undefined && request.extraBody?.google?.thinkingConfig)
    violations.add(
      "reasoning_effort",
      "reasoning_effort and extra_body.google.thinking_config both set how the model thinks; set one of them.",
    );
  if (request.n !== undefined && request.n < 1)
    violations.add("n", `n must be at least 1; got ${request.n}.`);
  if (!violations.empty) throw violationError(requestName, violations.list);
  return request;
}

/** Reads an `embeddings` body: one input at least, at most 100. Throws ApiError 400. */
export function readOpenAIEmbeddingsRequest(body: unknown): OpenAIEmbeddingsRequest {
  const requestName = "EmbeddingsRequest";
  const request = runSchema(openaiEmbeddingsRequestSchema, body ?? {}, { requestName });
  const count = request.input.length;
  if (count === 0)
    throw violationError(requestName, [
      { field: "input", description: "input must not be empty." },
    ]);
  if (count > MAX_OPENAI_EMBEDDING_INPUTS)
    throw violationError(requestName, [
      {
        field: "input",
        description: `at most ${MAX_OPENAI_EMBEDDING_INPUTS} inputs can be embedded at once; got ${count}.`,
      },
    ]);
  return request;
}
