/**
 * The official `openai` npm package against the OpenAI-compatible endpoint, unchanged but for
 * `baseURL` (`<server>/v1beta/openai/`, as the service's own guide sets it) and the key, which
 * it sends as `Authorization: Bearer`. Embeddings are asked, as the client does by default, in
 * base64 and decoded by it (openai-node src/lib/embeddings.ts).
 */
import { expect } from "@playwright/test";
import OpenAI from "openai";
import { defineClientSuite, type ClientTarget } from "./client-suite";
import {
  cosine,
  EMBEDDING_DOCUMENTS,
  EMBEDDING_MODEL,
  EMBEDDING_QUERY,
  MODEL,
  SYSTEM_INSTRUCTION,
  WEATHER_PROMPT,
} from "./fixtures";
import { makePng } from "../fixtures/media";

/** A small picture, as a data URL. */
const PICTURE = `data:image/png;base64,${Buffer.from(makePng(8, 8)).toString("base64")}`;

function client(target: ClientTarget): OpenAI {
  return new OpenAI({
    apiKey: target.apiKey,
    baseURL: `${target.baseUrl}/v1beta/openai/`,
    maxRetries: 0,
  });
}

const weatherTool: OpenAI.Chat.Completions.ChatCompletionFunctionTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the current weather in a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "The city." } },
      required: ["city"],
    },
  },
};

defineClientSuite("openai (npm)", [
  {
    name: "chat completion with a system message, thinking off",
    async run(target) {
      const completion = await client(target).chat.completions.create({
        model: MODEL,
        messages: [
          { role: "system", content: SYSTEM_INSTRUCTION },
          { role: "user", content: "What do you see tonight?" },
        ],
        reasoning_effort: "none",
        max_completion_tokens: 60,
      });
      expect(completion.object).toBe("chat.completion");
      expect(completion.model).toBe(MODEL);
      const choice = completion.choices[0]!;
      expect(choice.message.role).toBe("assistant");
      expect(choice.message.content?.length).toBeGreaterThan(0);
      expect(completion.usage!.total_tokens).toBe(
        completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
      );
    },
  },
  {
    name: "chat completion streamed, with the usage asked for",
    async run(target) {
      const stream = await client(target).chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: "Tell me about lighthouses." }],
        stream: true,
        stream_options: { include_usage: true },
        reasoning_effort: "none",
        max_tokens: 80,
      });
      let text = "";
      let chunks = 0;
      let finish: string | null | undefined;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        chunks += 1;
        text += chunk.choices[0]?.delta.content ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(chunks).toBeGreaterThan(1);
      expect(text.length).toBeGreaterThan(20);
      expect(["stop", "length"]).toContain(finish);
      expect(usage?.completion_tokens).toBeGreaterThan(0);
    },
  },
  {
    name: "tools: a call, its result sent back, an answer",
    async run(target) {
      const openai = client(target);
      const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
        { role: "user", content: WEATHER_PROMPT },
      ];
      const first = await openai.chat.completions.create({
        model: MODEL,
        messages,
        tools: [weatherTool],
        tool_choice: "auto",
      });
      const choice = first.choices[0]!;
      expect(choice.finish_reason).toBe("tool_calls");
      const call = choice.message
        .tool_calls![0]! as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
      expect(call.function.name).toBe("get_weather");
      expect(JSON.parse(call.function.arguments)).toEqual({ city: "Paris" });
      messages.push(choice.message, {
        role: "tool",
        tool_call_id: call.id,
        content: JSON.stringify({ sky: "clear", celsius: 24 }),
      });
      const second = await openai.chat.completions.create({
        model: MODEL,
        messages,
        tools: [weatherTool],
        reasoning_effort: "none",
      });
      expect(second.choices[0]!.finish_reason).not.toBe("tool_calls");
      expect(second.choices[0]!.message.content?.length).toBeGreaterThan(0);
    },
  },
  {
    name: "response_format json_schema: JSON of the schema",
    async run(target) {
      const completion = await client(target).chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: "Name a city by the sea and its population." }],
        response_format: {
          type: "json_schema",
          json_schema: {
            name: "city",
            strict: true,
            schema: {
              type: "object",
              properties: { city: { type: "string" }, population: { type: "integer" } },
              required: ["city", "population"],
              additionalProperties: false,
            },
          },
        },
        reasoning_effort: "none",
      });
      const value = JSON.parse(completion.choices[0]!.message.content!) as Record<string, unknown>;
      expect(typeof value.city).toBe("string");
      expect(Number.isInteger(value.population)).toBe(true);
    },
  },
  {
    name: "an image as a data URL is read as the model's image input",
    async run(target) {
      const ask = (withImage: boolean) =>
        client(target).chat.completions.create({
          model: MODEL,
          messages: [
            {
              role: "user",
              content: [
                { type: "text", text: "What is in this picture?" },
                ...(withImage
                  ? [
                      {
                        type: "image_url" as const,
                        image_url: { url: PICTURE },
                      },
                    ]
                  : []),
              ],
            },
          ],
          reasoning_effort: "none",
          max_tokens: 16,
        });
      const [withImage, without] = await Promise.all([ask(true), ask(false)]);
      // An image counts 258 tokens on 2.5 models.
      expect(withImage.usage!.prompt_tokens - without.usage!.prompt_tokens).toBe(258);
    },
  },
  {
    name: "reasoning_effort: a model that thinks counts its thoughts in the total",
    async run(target) {
      const completion = await client(target).chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: "Why is the sea salty?" }],
        reasoning_effort: "low",
        max_completion_tokens: 400,
      });
      const usage = completion.usage!;
      expect(usage.total_tokens).toBeGreaterThan(usage.prompt_tokens + usage.completion_tokens);
    },
  },
  {
    name: "embeddings: the client's default (base64) and floats, shortened on request",
    async run(target) {
      const openai = client(target);
      const documents = await openai.embeddings.create({
        model: EMBEDDING_MODEL,
        input: EMBEDDING_DOCUMENTS,
      });
      const query = await openai.embeddings.create({
        model: EMBEDDING_MODEL,
        input: EMBEDDING_QUERY,
        encoding_format: "float",
      });
      const [matching, other] = documents.data.map((item) => Array.from(item.embedding));
      const values = query.data[0]!.embedding;
      expect(values).toHaveLength(3072);
      expect(cosine(values, matching!)).toBeGreaterThan(cosine(values, other!));
      expect(documents.usage.prompt_tokens).toBeGreaterThan(0);
      const short = await openai.embeddings.create({
        model: EMBEDDING_MODEL,
        input: EMBEDDING_QUERY,
        dimensions: 256,
      });
      expect(short.data[0]!.embedding).toHaveLength(256);
    },
  },
  {
    name: "models list and retrieve",
    async run(target) {
      const openai = client(target);
      const ids: string[] = [];
      for await (const model of openai.models.list()) ids.push(model.id);
      expect(ids).toContain(`models/${MODEL}`);
      expect(ids).toContain(`models/${EMBEDDING_MODEL}`);
      const model = await openai.models.retrieve(MODEL);
      expect(model.id).toBe(`models/${MODEL}`);
      expect(model.owned_by).toBe("google");
    },
  },
  {
    name: "errors: a wrong type is a 400, an unknown model a 404, a wrong key refused",
    async run(target) {
      const openai = client(target);
      const wrongType = await openai.chat.completions
        .create({
          model: MODEL,
          messages: [{ role: "user", content: "hi" }],
          temperature: "hot" as unknown as number,
        })
        .catch((error: unknown) => error);
      expect(wrongType).toBeInstanceOf(OpenAI.BadRequestError);
      const unknown = await openai.chat.completions
        .create({ model: "gemini-0-nothing", messages: [{ role: "user", content: "hi" }] })
        .catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
      const wrongKey = await new OpenAI({
        apiKey: "not-a-key-of-this-studio",
        baseURL: `${target.baseUrl}/v1beta/openai/`,
        maxRetries: 0,
      }).models
        .list()
        .catch((error: unknown) => error);
      expect(wrongKey).toBeInstanceOf(OpenAI.APIError);
      expect((wrongKey as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    },
  },
]);
