/**
 * The generation core's answers in the OpenAI shape: a GenerateContentResponse as one
 * `chat.completion`, a stream's chunks as `chat.completion.chunk`s. As recorded of the service
 * (recorded-exchanges-agents, pydantic-ai `test_compatible_api_with_tool_calls_without_id`):
 * `id` the answer's responseId, `model` as the request named it, function calls as
 * `tool_calls` (arguments as JSON text, finish_reason "tool_calls"), the answer's thought
 * signature in `extra_content.google.thought_signature` (and `thought_signature`) of the
 * message, `usage.total_tokens` counting thoughts that `completion_tokens` leaves out. Families
 * that sign every answer (Gemini 3) also sign each tool call, as the service documents for
 * them. Asked thought summaries are written into the content in `<thought>` tags.
 */
import type {
  ChatAnswerMessage,
  ChatCompletion,
  ChatCompletionChunk,
  ChatFinishReason,
  ChatToolCallAnswer,
  ChatUsage,
} from "@/lib/gemini/openai/openai-types";
import type { Candidate, FinishReason, GenerateContentResponse, Part } from "@/lib/gemini/types";

export interface ChatAnswerOptions {
  /** The model as the request named it. */
  model: string;
  /** Seconds since the epoch, once per answer. */
  created: number;
  /** Thought summaries go into the content (`include_thoughts`). */
  thoughtsInContent: boolean;
  /** Each tool call carries its own part's signature (families that sign every answer). */
  signedToolCalls: boolean;
}

const FILTERED: readonly FinishReason[] = [
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
];

function finishReasonOf(reason: FinishReason | undefined, calledTools: boolean): ChatFinishReason {
  if (calledTools) return "tool_calls";
  if (reason === "MAX_TOKENS") return "length";
  if (reason && FILTERED.includes(reason)) return "content_filter";
  return "stop";
}

export function usageOf(response: GenerateContentResponse): ChatUsage {
  const usage = response.usageMetadata ?? {};
  const prompt = usage.promptTokenCount ?? 0;
  const completion = usage.candidatesTokenCount ?? 0;
  return {
    completion_tokens: completion,
    prompt_tokens: prompt,
    total_tokens: usage.totalTokenCount ?? prompt + completion + (usage.thoughtsTokenCount ?? 0),
    ...(usage.cachedContentTokenCount
      ? { prompt_tokens_details: { cached_tokens: usage.cachedContentTokenCount } }
      : {}),
  };
}

/** What a candidate's parts say in the OpenAI shape. */
interface ReadParts {
  text: string;
  toolCalls: ChatToolCallAnswer[];
  signature?: string;
}

function readParts(parts: readonly Part[], options: ChatAnswerOptions): ReadParts {
  const read: ReadParts = { text: "", toolCalls: [] };
  for (const part of parts) {
    if (part.thoughtSignature && read.signature === undefined)
      read.signature = part.thoughtSignature;
    if (part.functionCall) {
      read.toolCalls.push({
        id: part.functionCall.id ?? "",
        type: "function",
        function: {
          name: part.functionCall.name,
          arguments: JSON.stringify(part.functionCall.args ?? {}),
        },
        ...(options.signedToolCalls && part.thoughtSignature
          ? { extra_content: { google: { thought_signature: part.thoughtSignature } } }
          : {}),
      });
    } else if (part.text !== undefined) {
      if (!part.thought) read.text += part.text;
      else if (options.thoughtsInContent) read.text += `<thought>${part.text}</thought>`;
    }
  }
  return read;
}

/** The message fields of what was read: content, tool calls, the signature as recorded. */
function messageFields(read: ReadParts, thought: boolean): Partial<ChatAnswerMessage> {
  return {
    ...(read.text !== "" || read.toolCalls.length === 0 ? { content: read.text } : {}),
    ...(read.signature
      ? {
          extra_content: {
            google: {
              ...(thought ? { thought: true as const } : {}),
              thought_signature: read.signature,
            },
          },
        }
      : {}),
    ...(read.signature ? { thought_signature: read.signature } : {}),
    ...(read.toolCalls.length ? { tool_calls: read.toolCalls } : {}),
  };
}

/** A whole answer as one chat completion. */
export function chatCompletionOf(
  response: GenerateContentResponse,
  options: ChatAnswerOptions,
): ChatCompletion {
  const thought = (response.usageMetadata?.thoughtsTokenCount ?? 0) > 0;
  const choices = (response.candidates ?? []).map((candidate: Candidate, position) => {
    const read = readParts(candidate.content?.parts ?? [], options);
    return {
      finish_reason: finishReasonOf(candidate.finishReason, read.toolCalls.length > 0),
      index: candidate.index ?? position,
      message: { role: "assistant" as const, ...messageFields(read, thought) },
    };
  });
  return {
    choices,
    created: options.created,
    id: response.responseId ?? "",
    model: options.model,
    object: "chat.completion",
    usage: usageOf(response),
  };
}

/**
 * A stream's chunks as chat completion chunks, one for each: the role on a choice's first
 * delta, text and whole tool calls as they come (tool calls numbered across the stream),
 * the finish reason on the chunk that carries it, and the usage there too when asked
 * (`stream_options.include_usage`).
 */
export class ChatChunkWriter {
  private readonly started = new Set<number>();
  private readonly calls = new Map<number, number>();

  constructor(private readonly options: ChatAnswerOptions & { includeUsage: boolean }) {}

  chunkOf(response: GenerateContentResponse): ChatCompletionChunk {
    const thought = (response.usageMetadata?.thoughtsTokenCount ?? 0) > 0;
    let finished = false;
    const choices = (response.candidates ?? []).map((candidate, position) => {
      const index = candidate.index ?? position;
      const read = readParts(candidate.content?.parts ?? [], this.options);
      const first = !this.started.has(index);
      this.started.add(index);
      const before = this.calls.get(index) ?? 0;
      this.calls.set(index, before + read.toolCalls.length);
      const { tool_calls: _calls, content, ...rest } = messageFields(read, thought);
      const delta: ChatCompletionChunk["choices"][number]["delta"] = {
        ...(first ? { role: "assistant" as const } : {}),
        ...(content ? { content } : {}),
        ...rest,
        ...(read.toolCalls.length
          ? {
              tool_calls: read.toolCalls.map((call, offset) => ({
                index: before + offset,
                ...call,
              })),
            }
          : {}),
      };
      const reason = candidate.finishReason;
      const ends = reason !== undefined && reason !== "FINISH_REASON_UNSPECIFIED";
      finished ||= ends;
      return {
        delta,
        ...(ends
          ? { finish_reason: finishReasonOf(reason, (this.calls.get(index) ?? 0) > 0) }
          : {}),
        index,
      };
    });
    return {
      choices,
      created: this.options.created,
      id: response.responseId ?? "",
      model: this.options.model,
      object: "chat.completion.chunk",
      ...(finished && this.options.includeUsage ? { usage: usageOf(response) } : {}),
    };
  }
}
