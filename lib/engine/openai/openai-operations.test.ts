/**
 * The local engine's OpenAI-compatible endpoint below HTTP: bodies as OpenAI's clients send
 * them, translated to the one generation core and back in the shapes the service answers
 * (recorded: recorded-exchanges-agents `openai.chat.completions`), and refusals naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { OperationContext } from "@/lib/gemini/backend/contract";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  OpenAIEmbeddingsResponse,
} from "@/lib/gemini/openai/openai-types";
import { PNG_1X1, tempData, TestClock, type TempData } from "@/lib/testing/engine-files";
import { createLocalBackend, type LocalBackend } from "../local-backend";

const context: OperationContext = {
  caller: { ownerId: "key:alice" },
  signal: new AbortController().signal,
};
const WEATHER_TOOL = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the current weather in a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "The city." } },
      required: ["city"],
      additionalProperties: false,
    },
  },
};

async function apiError(work: () => Promise<unknown>): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe("the OpenAI-compatible endpoint on the local engine", () => {
  let data: TempData;
  let backend: LocalBackend;

  beforeAll(async () => {
    data = await tempData();
    backend = createLocalBackend({
      stores: data.stores,
      dataDir: data.dataDir,
      now: new TestClock(Date.now()).now,
      sweepIntervalMs: 0,
    });
  });
  afterAll(async () => {
    await backend.close();
    await data.cleanup();
  });

  async function complete(body: Record<string, unknown>): Promise<ChatCompletion> {
    const answer = await backend.openaiChatCompletion(body, context);
    if (!("value" in answer)) throw new Error("expected a whole completion");
    return answer.value;
  }

  async function chunks(body: Record<string, unknown>): Promise<ChatCompletionChunk[]> {
    const answer = await backend.openaiChatCompletion({ ...body, stream: true }, context);
    if (!("chunks" in answer)) throw new Error("expected chunks");
    const all: ChatCompletionChunk[] = [];
    for await (const chunk of answer.chunks) all.push(chunk);
    return all;
  }

  it("answers a chat completion in the recorded shape, through the generation core", async () => {
    const completion = await complete({
      model: "gemini-2.5-flash",
      messages: [
        { role: "system", content: "You are a lighthouse keeper. Answer briefly." },
        { role: "user", content: "Say something about the sea." },
      ],
      reasoning_effort: "none",
      max_tokens: 40,
    });
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("gemini-2.5-flash");
    expect(completion.id).toMatch(/^\S+$/);
    expect(completion.choices[0]!.message.role).toBe("assistant");
    expect(completion.choices[0]!.message.content!.length).toBeGreaterThan(0);
    expect(["stop", "length"]).toContain(completion.choices[0]!.finish_reason);
    const { usage } = completion;
    // Thinking off: the total is the prompt and the answer; the prompt counts as countTokens does.
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    const counted = await backend.countTokens(
      "models/gemini-2.5-flash",
      {
        generateContentRequest: {
          model: "models/gemini-2.5-flash",
          systemInstruction: { parts: [{ text: "You are a lighthouse keeper. Answer briefly." }] },
          contents: [{ role: "user", parts: [{ text: "Say something about the sea." }] }],
        },
      },
      context,
    );
    expect(usage.prompt_tokens).toBe(counted.totalTokens);
  });

  it("calls tools with JSON arguments, and takes their results back", async () => {
    const called = await complete({
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "What's the weather in Paris?" }],
      tools: [WEATHER_TOOL],
      tool_choice: "required",
    });
    const choice = called.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    const call = choice.message.tool_calls![0]!;
    expect(call.type).toBe("function");
    expect(call.function.name).toBe("get_weather");
    expect(typeof JSON.parse(call.function.arguments).city).toBe("string");
    // Thinking on 2.5 with declared functions signs the answer, beside the message (recorded).
    if (choice.message.thought_signature)
      expect(choice.message.extra_content?.google.thought_signature).toBe(
        choice.message.thought_signature,
      );
    const answered = await complete({
      model: "gemini-2.5-flash",
      messages: [
        { role: "user", content: "What's the weather in Paris?" },
        { ...choice.message, content: null },
        { role: "tool", tool_call_id: call.id, content: "Sunny, 24 degrees." },
      ],
      tools: [WEATHER_TOOL],
      reasoning_effort: "none",
    });
    expect(answered.choices[0]!.finish_reason).not.toBe("tool_calls");
    expect(answered.choices[0]!.message.content).toBeTruthy();
  });

  it("answers JSON for a json_schema response format", async () => {
    const completion = await complete({
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "Name a city by the sea and its population." }],
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "city",
          schema: {
            type: "object",
            properties: { city: { type: "string" }, population: { type: "integer" } },
            required: ["city", "population"],
          },
        },
      },
      reasoning_effort: "none",
    });
    const value = JSON.parse(completion.choices[0]!.message.content!);
    expect(typeof value.city).toBe("string");
    expect(Number.isInteger(value.population)).toBe(true);
  });

  it("reads an image from a data URL as the model's image input", async () => {
    const message = (parts: unknown[]) => ({
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: parts }],
      reasoning_effort: "none",
      max_completion_tokens: 8,
    });
    const text = { type: "text", text: "What is in this picture?" };
    const image = {
      type: "image_url",
      image_url: { url: `data:image/png;base64,${Buffer.from(PNG_1X1).toString("base64")}` },
    };
    const withImage = await complete(message([text, image]));
    const without = await complete(message([text]));
    // An image counts 258 on 2.5 (recorded).
    expect(withImage.usage.prompt_tokens - without.usage.prompt_tokens).toBe(258);
  });

  it("streams chunks: the role first, the finish reason and the usage asked for last", async () => {
    const all = await chunks({
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "Tell me about lighthouses." }],
      stream_options: { include_usage: true },
      reasoning_effort: "none",
      max_tokens: 30,
    });
    expect(all[0]!.object).toBe("chat.completion.chunk");
    expect(all[0]!.choices[0]!.delta.role).toBe("assistant");
    const last = all[all.length - 1]!;
    expect(last.choices[0]!.finish_reason).toBeDefined();
    expect(last.usage!.total_tokens).toBeGreaterThan(0);
    expect(all.slice(0, -1).every((chunk) => chunk.usage === undefined)).toBe(true);
    const text = all.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text.length).toBeGreaterThan(0);
  });

  it("refuses wrong types and unknown fields naming them, and asks the core for the rest", async () => {
    const notList = await apiError(() =>
      backend.openaiChatCompletion({ model: "gemini-2.5-flash", messages: "hi" }, context),
    );
    expect(notList.httpStatus).toBe(400);
    expect(notList.message).toContain("messages");
    const unknown = await apiError(() =>
      backend.openaiChatCompletion(
        { model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }], reasoning: {} },
        context,
      ),
    );
    expect(unknown.message).toBe(
      'Invalid JSON payload received. Unknown name "reasoning": Cannot find field.',
    );
    const badType = await apiError(() =>
      backend.openaiChatCompletion(
        {
          model: "gemini-2.5-flash",
          messages: [{ role: "user", content: "hi" }],
          temperature: "hot",
        },
        context,
      ),
    );
    expect(badType.message).toContain("'temperature'");
    const noResult = await apiError(() =>
      backend.openaiChatCompletion(
        { model: "gemini-2.5-flash", messages: [{ role: "tool", content: "Noon" }] },
        context,
      ),
    );
    expect(noResult.message).toContain("messages[0].tool_call_id");
    const unknownModel = await apiError(() =>
      backend.openaiChatCompletion(
        { model: "gemini-0-nothing", messages: [{ role: "user", content: "hi" }] },
        context,
      ),
    );
    expect(unknownModel.httpStatus).toBe(404);
  });

  it("embeds in floats or base64 float32, and refuses dimensions out of range", async () => {
    // As a client reads the answer: the engine's vectors are computed when they are written.
    const embed = async (body: Record<string, unknown>) =>
      JSON.parse(
        JSON.stringify(
          ((await backend.openaiEmbeddings(body, context)) as { value: OpenAIEmbeddingsResponse })
            .value,
        ),
      ) as OpenAIEmbeddingsResponse;
    const floats = await embed({
      model: "gemini-embedding-001",
      input: ["tomato soup", "a compiler error"],
      encoding_format: "float",
    });
    expect(floats.object).toBe("list");
    expect(floats.data.map((item) => item.index)).toEqual([0, 1]);
    expect((floats.data[0]!.embedding as number[]).length).toBe(3072);
    expect(floats.usage.prompt_tokens).toBeGreaterThan(0);
    const encoded = await embed({
      model: "gemini-embedding-001",
      input: "tomato soup",
      encoding_format: "base64",
      dimensions: 16,
    });
    const bytes = Buffer.from(encoded.data[0]!.embedding as string, "base64");
    const decoded = Array.from({ length: 16 }, (_, index) => bytes.readFloatLE(index * 4));
    const expected = (floats.data[0]!.embedding as number[]).slice(0, 16);
    decoded.forEach((value, index) => expect(value).toBeCloseTo(expected[index]!, 6));
    const tooWide = await apiError(() =>
      embed({ model: "gemini-embedding-001", input: "x", dimensions: 5000 }),
    );
    expect(tooWide.message).toContain("EmbeddingsRequest.dimensions");
  });

  it("lists and gets models as the service names them", async () => {
    const list = await backend.openaiListModels(context);
    if (!("value" in list)) throw new Error("expected a list");
    expect(list.value.object).toBe("list");
    expect(list.value.data).toContainEqual({
      id: "models/gemini-2.5-flash",
      object: "model",
      owned_by: "google",
      display_name: "Gemini 2.5 Flash",
    });
    const one = await backend.openaiGetModel("models/gemini-embedding-2", context);
    expect("value" in one && one.value.id).toBe("models/gemini-embedding-2");
    expect((await apiError(() => backend.openaiGetModel("nothing-9", context))).httpStatus).toBe(
      404,
    );
  });
});
