/**
 * An OpenAI chat completion request as the API's own GenerateContentRequest, for the one
 * generation core: system and developer messages as the system instruction, user turns as
 * user contents (images and files from data URLs as inline data, other URLs as file data,
 * audio as inline audio), assistant turns as model contents (tool calls as function calls
 * with their thought signatures from `extra_content.google`), tool results as function
 * responses named by the call they answer. `reasoning_effort` becomes a thinking budget
 * (the service's documented mapping: low 1,024, medium 8,192, high 24,576, none 0; minimal the
 * model's least), kept within the model's range.
 */
import type { ThinkingTraits } from "@/lib/gemini/model-traits";
import type {
  ChatCompletionRequest,
  ChatContentPart,
  ChatMessage,
  ReasoningEffort,
} from "@/lib/gemini/openai/openai-types";
import { violationError } from "@/lib/gemini/schemas/rules/violations";
import type {
  Content,
  GenerateContentRequest,
  GenerationConfig,
  Part,
  ThinkingConfig,
  Tool,
  ToolConfig,
} from "@/lib/gemini/types";

const REQUEST = "ChatCompletionRequest";

export interface ChatTranslation {
  /** `models/{id}` of the request's `model` (which may already carry the prefix). */
  model: string;
  request: GenerateContentRequest;
  /** Thought summaries asked for (`include_thoughts`): answered in the content, in `<thought>` tags. */
  thoughtsInContent: boolean;
}

const EFFORT_BUDGETS: Record<Exclude<ReasoningEffort, "none" | "minimal">, number> = {
  low: 1024,
  medium: 8192,
  high: 24_576,
};

/** The thinking budget `effort` stands for on a model that thinks as `thinking` says. */
function effortBudget(effort: ReasoningEffort, thinking: ThinkingTraits | undefined): number {
  if (effort === "none") return 0;
  const wanted = effort === "minimal" ? (thinking?.minBudget ?? 1) : EFFORT_BUDGETS[effort];
  if (!thinking) return wanted;
  return Math.min(thinking.maxBudget, Math.max(thinking.minBudget, wanted));
}

const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*);base64,(.*)$/s;

/** A data URL's type and base64 bytes, or null for any other URL. */
function dataUrl(url: string): { mimeType: string; data: string } | null {
  const match = DATA_URL.exec(url.trim());
  return match ? { mimeType: match[1]!.toLowerCase(), data: match[3]! } : null;
}

const AUDIO_TYPES: Record<string, string> = { wav: "audio/wav", mp3: "audio/mp3" };

/** The API part of one content part of message `path`. */
function partOf(part: ChatContentPart, path: string): Part {
  switch (part.type) {
    case "text":
      return { text: part.text };
    case "image_url": {
      const inline = dataUrl(part.imageUrl.url);
      if (inline) return { inlineData: inline };
      if (!/^https?:\/\//i.test(part.imageUrl.url.trim()))
        throw violationError(REQUEST, [
          {
            field: `${path}.image_url.url`,
            description: "an image url must be a data: URL (base64) or an http(s) URL.",
          },
        ]);
      return { fileData: { fileUri: part.imageUrl.url.trim(), mimeType: "image/jpeg" } };
    }
    case "input_audio":
      return {
        inlineData: {
          mimeType:
            AUDIO_TYPES[part.inputAudio.format.toLowerCase()] ?? `audio/${part.inputAudio.format}`,
          data: part.inputAudio.data,
        },
      };
    case "file": {
      const inline = part.file.fileData ? dataUrl(part.file.fileData) : null;
      if (inline) return { inlineData: inline };
      if (part.file.fileId) return { fileData: { fileUri: part.file.fileId } };
      throw violationError(REQUEST, [
        {
          field: `${path}.file`,
          description: "a file part needs file_data (a base64 data: URL) or file_id (files/{id}).",
        },
      ]);
    }
  }
}

function contentParts(message: ChatMessage, path: string): Part[] {
  return message.content.map((part, index) => partOf(part, `${path}.content[${index}]`));
}

/** A tool call's arguments as the object a function call carries. */
function callArguments(text: string | undefined, path: string): Record<string, unknown> {
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw violationError(REQUEST, [
      { field: `${path}.function.arguments`, description: "arguments must be a JSON object." },
    ]);
  return value as Record<string, unknown>;
}

/** The contents and system instruction of the messages, in order. */
function conversation(messages: readonly ChatMessage[]): {
  contents: Content[];
  systemInstruction?: Content;
} {
  const contents: Content[] = [];
  const system: Part[] = [];
  // Calls not yet answered, so a tool result finds its function's name by id (or, without ids, by order).
  let pending: { id?: string; name: string }[] = [];
  const push = (role: "user" | "model", parts: Part[]) => {
    const last = contents[contents.length - 1];
    // Consecutive tool results answer one turn of calls: one user content.
    if (last && last.role === role && role === "user" && parts[0]?.functionResponse)
      last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    switch (message.role) {
      case "system":
      case "developer":
        system.push(...contentParts(message, path));
        return;
      case "user":
        push("user", contentParts(message, path));
        return;
      case "assistant": {
        const parts = contentParts(message, path);
        const signature = message.extraContent?.google?.thoughtSignature;
        pending = [];
        (message.toolCalls ?? []).forEach((call, callIndex) => {
          const callPath = `${path}.tool_calls[${callIndex}]`;
          const callSignature = call.extraContent?.google?.thoughtSignature;
          parts.push({
            functionCall: {
              ...(call.id ? { id: call.id } : {}),
              name: call.function.name,
              args: callArguments(call.function.arguments, callPath),
            },
            ...(callSignature ? { thoughtSignature: callSignature } : {}),
          });
          pending.push({ ...(call.id ? { id: call.id } : {}), name: call.function.name });
        });
        if (signature && parts[0] && !parts[0].thoughtSignature)
          parts[0].thoughtSignature = signature;
        if (parts.length) push("model", parts);
        return;
      }
      case "tool":
      case "function": {
        const byId = pending.findIndex(
          (call) => call.id !== undefined && call.id === message.toolCallId,
        );
        const at = byId >= 0 ? byId : 0;
        const name = message.role === "function" ? message.name : pending[at]?.name;
        if (!name)
          throw violationError(REQUEST, [
            {
              field: `${path}.tool_call_id`,
              description: `no earlier tool call answers to ${JSON.stringify(message.toolCallId ?? "")}.`,
            },
          ]);
        if (message.role === "tool") pending.splice(at, 1);
        const text = message.content
          .map((part) => (part.type === "text" ? part.text : ""))
          .join("");
        push("user", [
          {
            functionResponse: {
              ...(message.toolCallId ? { id: message.toolCallId } : {}),
              name,
              response: { content: text },
            },
          },
        ]);
        return;
      }
    }
  });
  return { contents, ...(system.length ? { systemInstruction: { parts: system } } : {}) };
}

function generationConfig(
  request: ChatCompletionRequest,
  thinking: ThinkingTraits | undefined,
): GenerationConfig | undefined {
  const config: GenerationConfig = {};
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.n !== undefined) config.candidateCount = request.n;
  const limit = request.maxCompletionTokens ?? request.maxTokens;
  if (limit !== undefined) config.maxOutputTokens = limit;
  if (request.stop?.length) config.stopSequences = request.stop;
  if (request.seed !== undefined) config.seed = request.seed;
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty;
  if (request.logprobs !== undefined) config.responseLogprobs = request.logprobs;
  if (request.topLogprobs !== undefined) config.logprobs = request.topLogprobs;
  const format = request.responseFormat;
  if (format?.type === "json_object" || format?.type === "json_schema")
    config.responseMimeType = "application/json";
  if (format?.type === "json_schema" && format.jsonSchema.schema)
    config.responseJsonSchema = format.jsonSchema.schema;
  const asked = request.extraBody?.google?.thinkingConfig;
  const thinkingConfig: ThinkingConfig = {};
  if (asked?.thinkingBudget !== undefined) thinkingConfig.thinkingBudget = asked.thinkingBudget;
  if (asked?.includeThoughts !== undefined) thinkingConfig.includeThoughts = asked.includeThoughts;
  if (asked?.thinkingLevel !== undefined)
    thinkingConfig.thinkingLevel =
      asked.thinkingLevel.toUpperCase() as ThinkingConfig["thinkingLevel"];
  if (request.reasoningEffort !== undefined)
    thinkingConfig.thinkingBudget = effortBudget(request.reasoningEffort, thinking);
  if (Object.keys(thinkingConfig).length) config.thinkingConfig = thinkingConfig;
  return Object.keys(config).length ? config : undefined;
}

function toolsOf(request: ChatCompletionRequest): { tools?: Tool[]; toolConfig?: ToolConfig } {
  const declarations = (request.tools ?? []).map((tool) => ({
    name: tool.function.name,
    ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
    ...(tool.function.parameters !== undefined
      ? { parametersJsonSchema: tool.function.parameters }
      : {}),
  }));
  const choice = request.toolChoice;
  const toolConfig: ToolConfig | undefined =
    choice === undefined
      ? undefined
      : typeof choice === "string"
        ? {
            functionCallingConfig: {
              mode: choice === "none" ? "NONE" : choice === "auto" ? "AUTO" : "ANY",
            },
          }
        : { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [choice.function.name] } };
  return {
    ...(declarations.length ? { tools: [{ functionDeclarations: declarations }] } : {}),
    ...(toolConfig && declarations.length ? { toolConfig } : {}),
  };
}

/**
 * The GenerateContentRequest of a chat completion request. `thinking` is the model's thinking
 * range (absent for a model that does not think). Throws ApiError 400 naming the OpenAI field.
 */
export function translateChatRequest(
  request: ChatCompletionRequest,
  thinking: ThinkingTraits | undefined,
): ChatTranslation {
  const model = request.model.startsWith("models/") ? request.model : `models/${request.model}`;
  const config = generationConfig(request, thinking);
  const cachedContent = request.extraBody?.google?.cachedContent;
  const translated: GenerateContentRequest = {
    ...conversation(request.messages),
    ...toolsOf(request),
    ...(config ? { generationConfig: config } : {}),
    ...(cachedContent ? { cachedContent } : {}),
  };
  return {
    model,
    request: translated,
    thoughtsInContent: config?.thinkingConfig?.includeThoughts === true,
  };
}
