/**
 * Wire shapes of the OpenAI-compatible endpoint's bodies, built like the API's own (lib/gemini
 * schemas/wire): names in snake_case or camelCase, unknown names refused as `Unknown name "x":
 * Cannot find field.` (the service refuses OpenAI fields it does not take that way: recorded in
 * public issues for `reasoning` and `web_search_options`), wrong types as `Invalid value at
 * 'field'`. A message's content may be a string or a list of parts; both read as parts.
 */
import { z } from "zod";
import type {
  ChatCompletionRequest,
  ChatContentPart,
  ChatToolChoice,
  OpenAIEmbeddingsRequest,
} from "./openai-types";
import {
  isPlainObject,
  renderValue,
  repeated,
  wireBoolean,
  wireEnum,
  wireInteger,
  wireNumber,
  wireObject,
  wireString,
  wireStruct,
  wireValue,
  type WireIssue,
} from "../schemas/wire";

const lowerCase = (text: string) => text.toLowerCase();

/** A field that must be present: absent is the service's "is required" violation. */
function present<Output>(schema: z.ZodType<Output, unknown>) {
  return z.transform((input: unknown, context): Output => {
    if (input === undefined) return report(context, { wire: "required" });
    return parseAt(schema, input, [], context) as Output;
  });
}

type IssueSink = Parameters<Parameters<typeof z.transform>[0]>[1];

function report(context: IssueSink, params: WireIssue, path: PropertyKey[] = []): never {
  context.addIssue({ code: "custom", message: params.wire, params, path, input: undefined });
  return z.NEVER;
}

/** Parses `input` with `schema`, re-reporting its issues under `path` (a list item's index). */
function parseAt<Output>(
  schema: z.ZodType<Output, unknown>,
  input: unknown,
  path: PropertyKey[],
  context: IssueSink,
): Output | undefined {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  for (const issue of result.error.issues)
    context.addIssue({ ...issue, path: [...path, ...issue.path] } as Parameters<
      IssueSink["addIssue"]
    >[0]);
  return undefined;
}

const contentPartSchema = wireObject("ContentPart", {
  type: wireEnum("ContentPart.Type", ["text", "image_url", "input_audio", "file"], lowerCase),
  text: wireString().optional(),
  imageUrl: wireObject("ImageUrl", {
    url: wireString(),
    detail: wireString().optional(),
  }).optional(),
  inputAudio: wireObject("InputAudio", {
    data: wireString(),
    format: wireString(),
  }).optional(),
  file: wireObject("FileContent", {
    fileData: wireString().optional(),
    fileId: wireString().optional(),
    filename: wireString().optional(),
  }).optional(),
});

/** A message's content: a string (one text part), a list of parts, or null (no parts). */
const messageContentSchema = z.transform((input: unknown, context): ChatContentPart[] => {
  if (input === undefined) return [];
  if (typeof input === "string") return [{ type: "text", text: input }];
  if (!Array.isArray(input)) {
    if (isPlainObject(input)) return report(context, { wire: "not-repeating" });
    return report(context, {
      wire: "invalid-value",
      type: "TYPE_STRING",
      rendered: renderValue(input),
    });
  }
  const parts: ChatContentPart[] = [];
  input.forEach((item, index) => {
    const part = parseAt(contentPartSchema, item, [index], context);
    if (part) parts.push(part as ChatContentPart);
  });
  return parts;
});

const extraContentSchema = wireObject("ExtraContent", {
  google: wireObject("GoogleExtraContent", {
    thoughtSignature: wireString().optional(),
    thought: wireBoolean().optional(),
  }).optional(),
});

const toolCallSchema = wireObject("ToolCall", {
  id: wireString().optional(),
  type: wireEnum("ToolCall.Type", ["function"], lowerCase).optional(),
  function: wireObject("FunctionCall", {
    name: wireString(),
    arguments: wireString().optional(),
  }),
  extraContent: extraContentSchema.optional(),
});

const messageSchema = wireObject("ChatMessage", {
  role: wireEnum(
    "ChatMessage.Role",
    ["system", "developer", "user", "assistant", "tool", "function"],
    lowerCase,
  ),
  content: messageContentSchema,
  name: wireString().optional(),
  toolCalls: repeated(toolCallSchema).optional(),
  toolCallId: wireString().optional(),
  extraContent: extraContentSchema.optional(),
  // The recorded answers carry it beside extra_content; a client may send a message back whole.
  thoughtSignature: wireString().optional(),
  refusal: wireValue().optional(),
});

const functionToolSchema = wireObject("Tool", {
  type: wireEnum("Tool.Type", ["function"], lowerCase),
  function: wireObject("FunctionDefinition", {
    name: wireString(),
    description: wireString().optional(),
    parameters: wireStruct().optional(),
    strict: wireBoolean().optional(),
  }),
});

const namedToolChoiceSchema = wireObject("ToolChoice", {
  type: wireEnum("ToolChoice.Type", ["function"], lowerCase),
  function: wireObject("ToolChoice.Function", { name: wireString() }),
});

/** `tool_choice`: a mode by name, or one function to call. */
const toolChoiceSchema = z.transform((input: unknown, context): ChatToolChoice => {
  if (typeof input === "string") {
    const mode = input.toLowerCase();
    if (mode === "none" || mode === "auto" || mode === "required") return mode;
    return report(context, {
      wire: "invalid-value",
      type: "ToolChoice",
      rendered: renderValue(input),
    });
  }
  return parseAt(namedToolChoiceSchema, input, [], context) as ChatToolChoice;
});

/** `stop`: one string or a list of them. */
const stopSchema = z.transform((input: unknown, context): string[] => {
  if (typeof input === "string") return [input];
  return parseAt(z.array(wireString()), input, [], context) ?? [];
});

const responseFormatSchema = wireObject("ResponseFormat", {
  type: wireEnum("ResponseFormat.Type", ["text", "json_object", "json_schema"], lowerCase),
  jsonSchema: wireObject("JsonSchema", {
    name: wireString().optional(),
    description: wireString().optional(),
    schema: wireStruct().optional(),
    strict: wireBoolean().optional(),
  }).optional(),
});

const googleOptionsSchema = wireObject("GoogleOptions", {
  thinkingConfig: wireObject("ThinkingConfig", {
    thinkingBudget: wireInteger().optional(),
    includeThoughts: wireBoolean().optional(),
    thinkingLevel: wireString().optional(),
  }).optional(),
  cachedContent: wireString().optional(),
});

export const chatCompletionRequestSchema = wireObject("ChatCompletionRequest", {
  model: wireString(),
  messages: present(repeated(messageSchema)),
  stream: wireBoolean().optional(),
  streamOptions: wireObject("StreamOptions", { includeUsage: wireBoolean().optional() }).optional(),
  temperature: wireNumber().optional(),
  topP: wireNumber().optional(),
  n: wireInteger().optional(),
  maxTokens: wireInteger().optional(),
  maxCompletionTokens: wireInteger().optional(),
  stop: stopSchema.optional(),
  seed: wireInteger("TYPE_INT64").optional(),
  presencePenalty: wireNumber().optional(),
  frequencyPenalty: wireNumber().optional(),
  logprobs: wireBoolean().optional(),
  topLogprobs: wireInteger().optional(),
  responseFormat: responseFormatSchema.optional(),
  tools: repeated(functionToolSchema).optional(),
  toolChoice: toolChoiceSchema.optional(),
  parallelToolCalls: wireBoolean().optional(),
  reasoningEffort: wireEnum(
    "ReasoningEffort",
    ["none", "minimal", "low", "medium", "high"],
    lowerCase,
  ).optional(),
  user: wireString().optional(),
  extraBody: wireObject("ExtraBody", { google: googleOptionsSchema.optional() }).optional(),
}).transform((request) => request as ChatCompletionRequest);

/** `input`: one text or a list of texts (token arrays are not taken). */
const embeddingInputSchema = z.transform((input: unknown, context): string[] => {
  if (typeof input === "string") return [input];
  return parseAt(z.array(wireString()), input, [], context) ?? [];
});

export const openaiEmbeddingsRequestSchema = wireObject("EmbeddingsRequest", {
  model: wireString(),
  input: present(embeddingInputSchema),
  encodingFormat: wireEnum("EncodingFormat", ["float", "base64"], lowerCase).optional(),
  dimensions: wireInteger().optional(),
  user: wireString().optional(),
}).transform((request) => request as OpenAIEmbeddingsRequest);
