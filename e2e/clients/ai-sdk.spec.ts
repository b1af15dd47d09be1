/**
 * The Vercel AI SDK: `ai` 6 with `@ai-sdk/google` 3 (7 and 4 are out but need Node 22; their
 * package.json engines), unchanged but for `baseURL` (the provider's default is the service's
 * `/v1beta` root) and the key. It offers no models list, token count, upload or cache
 * creation: files and caches come from the API, counts are checked against its countTokens.
 * A file URL under `${baseURL}/files/` is passed as fileData (its supportedUrls).
 */
import { expect } from "@playwright/test";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import {
  cosineSimilarity,
  embed,
  embedMany,
  generateText,
  Output,
  stepCountIs,
  streamText,
  tool,
  type ModelMessage,
} from "ai";
import { z } from "zod";
import { defineClientSuite, type ClientTarget } from "./client-suite";
import {
  BLOCKED_ANSWER_PROMPT,
  BLOCKED_PROMPT,
  countTokensRaw,
  createCacheRaw,
  DANGEROUS_ONLY_HIGH,
  EMBEDDING_DOCUMENTS,
  EMBEDDING_MODEL,
  EMBEDDING_QUERY,
  FOX,
  MULTIMODAL_EMBEDDING_MODEL,
  LIGHTS_PROMPT,
  MODEL,
  NO_THINKING,
  SYSTEM_INSTRUCTION,
  uploadFileRaw,
  WEATHER_PROMPT,
} from "./fixtures";

function model(target: ClientTarget) {
  return createGoogleGenerativeAI({
    apiKey: target.apiKey,
    baseURL: `${target.baseUrl}/v1beta`,
  })(MODEL);
}

function embeddingModel(target: ClientTarget, modelId = EMBEDDING_MODEL) {
  return createGoogleGenerativeAI({
    apiKey: target.apiKey,
    baseURL: `${target.baseUrl}/v1beta`,
  }).embedding(modelId);
}

const google = (extra: Record<string, unknown> = {}) => ({
  google: { thinkingConfig: NO_THINKING, ...extra },
});
const lights = {
  description: "Set the brightness of the lights in a room.",
  inputSchema: z.object({
    room: z.string().describe("The room."),
    level: z.number().int().describe("Brightness from 0 to 100."),
  }),
};

defineClientSuite("ai + @ai-sdk/google", [
  {
    name: "embed and embedMany: the matching document ranks first",
    async run(target) {
      // embedMany sends batchEmbedContents, embed one embedContent (@ai-sdk/google doEmbed).
      const documents = await embedMany({
        model: embeddingModel(target),
        values: EMBEDDING_DOCUMENTS,
        providerOptions: { google: { taskType: "RETRIEVAL_DOCUMENT" } },
      });
      const query = await embed({
        model: embeddingModel(target),
        value: EMBEDDING_QUERY,
        providerOptions: { google: { taskType: "RETRIEVAL_QUERY" } },
      });
      expect(query.embedding).toHaveLength(3072);
      const [matching, other] = documents.embeddings;
      expect(cosineSimilarity(query.embedding, matching!)).toBeGreaterThan(
        cosineSimilarity(query.embedding, other!),
      );
      const short = await embed({
        model: embeddingModel(target, MULTIMODAL_EMBEDDING_MODEL),
        value: EMBEDDING_QUERY,
        providerOptions: { google: { outputDimensionality: 768 } },
      });
      expect(short.embedding).toHaveLength(768);
    },
  },
  {
    name: "usage input tokens match countTokens",
    async run(target) {
      const result = await generateText({
        model: model(target),
        prompt: FOX,
        providerOptions: google(),
      });
      const counted = await countTokensRaw(target.baseUrl, target.apiKey, [
        { role: "user", parts: [{ text: FOX }] },
      ]);
      expect(result.usage.inputTokens).toBe(counted);
      expect(result.text.length).toBeGreaterThan(0);
    },
  },
  {
    name: "generate with config, system instruction and a structured output",
    async run(target) {
      const result = await generateText({
        model: model(target),
        system: SYSTEM_INSTRUCTION,
        prompt: "Name a city by the sea and its population.",
        temperature: 0.2,
        maxOutputTokens: 200,
        output: Output.object({
          schema: z.object({ city: z.string(), population: z.number().int() }),
        }),
        providerOptions: google(),
      });
      expect(typeof result.output.city).toBe("string");
      expect(Number.isInteger(result.output.population)).toBe(true);
    },
  },
  {
    name: "stream",
    async run(target) {
      const result = streamText({
        model: model(target),
        prompt: "Tell me about lighthouses.",
        maxOutputTokens: 120,
        providerOptions: google(),
      });
      let text = "";
      let pieces = 0;
      for await (const piece of result.textStream) {
        text += piece;
        pieces += 1;
      }
      expect(pieces).toBeGreaterThan(1);
      expect(text.length).toBeGreaterThan(20);
      expect((await result.usage).outputTokens).toBeGreaterThan(0);
    },
  },
  {
    name: "chat with stream: the history goes with the next turn",
    async run(target) {
      const messages: ModelMessage[] = [{ role: "user", content: "My name is Ada." }];
      const first = await generateText({
        model: model(target),
        messages,
        providerOptions: google(),
      });
      messages.push(...first.response.messages);
      messages.push({ role: "user", content: "What is my name?" });
      const result = streamText({ model: model(target), messages, providerOptions: google() });
      expect((await result.text).length).toBeGreaterThan(0);
      const counted = await countTokensRaw(target.baseUrl, target.apiKey, [
        { role: "user", parts: [{ text: "My name is Ada." }] },
        { role: "model", parts: [{ text: first.text }] },
        { role: "user", parts: [{ text: "What is my name?" }] },
      ]);
      expect((await result.usage).inputTokens).toBe(counted);
    },
  },
  {
    name: "a cache used in a stream (providerOptions cachedContent)",
    async run(target) {
      const cache = await createCacheRaw(target.baseUrl, target.apiKey);
      const result = streamText({
        model: model(target),
        prompt: "What did the keeper log?",
        maxOutputTokens: 60,
        providerOptions: google({ cachedContent: cache }),
      });
      expect((await result.text).length).toBeGreaterThan(0);
      expect((await result.usage).inputTokenDetails.cacheReadTokens).toBeGreaterThanOrEqual(1024);
    },
  },
  {
    name: "an uploaded file used in a prompt (file part by URL)",
    async run(target) {
      const file = await uploadFileRaw(target.baseUrl, target.apiKey);
      const question = "How many boats did the Harbourmaster count?";
      const result = await generateText({
        model: model(target),
        messages: [
          {
            role: "user",
            content: [
              { type: "file", data: new URL(file.uri), mediaType: file.mimeType },
              { type: "text", text: question },
            ],
          },
        ],
        providerOptions: google(),
      });
      const counted = await countTokensRaw(target.baseUrl, target.apiKey, [
        {
          role: "user",
          parts: [{ fileData: { fileUri: file.uri, mimeType: file.mimeType } }, { text: question }],
        },
      ]);
      expect(counted).toBeGreaterThan(300);
      expect(result.usage.inputTokens).toBe(counted);
    },
  },
  {
    name: "function calling, manual: tool call, tool result, answer",
    async run(target) {
      const first = await generateText({
        model: model(target),
        prompt: LIGHTS_PROMPT,
        tools: { set_light_level: tool(lights) },
        toolChoice: "required",
        providerOptions: google(),
      });
      const call = first.toolCalls[0];
      expect(call?.toolName).toBe("set_light_level");
      expect(typeof (call?.input as { room?: unknown }).room).toBe("string");
      const answer = await generateText({
        model: model(target),
        messages: [
          { role: "user", content: LIGHTS_PROMPT },
          ...first.response.messages,
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: call!.toolCallId,
                toolName: call!.toolName,
                output: { type: "json", value: { result: "done", level: 50 } },
              },
            ],
          },
        ],
        tools: { set_light_level: tool(lights) },
        toolChoice: "none",
        providerOptions: google(),
      });
      expect(answer.text.length).toBeGreaterThan(0);
    },
  },
  {
    name: "function calling, automatic: the SDK runs the tool and the model answers",
    async run(target) {
      const calls: unknown[] = [];
      const result = await generateText({
        model: model(target),
        prompt: LIGHTS_PROMPT,
        tools: {
          set_light_level: tool({
            ...lights,
            execute: async (input) => {
              calls.push(input);
              return { result: "done" };
            },
          }),
        },
        toolChoice: "required",
        // After the tool ran, the next step answers in text.
        prepareStep: ({ stepNumber }) => (stepNumber > 0 ? { toolChoice: "none" } : {}),
        stopWhen: stepCountIs(2),
        providerOptions: google(),
      });
      expect(calls).toHaveLength(1);
      expect(result.steps).toHaveLength(2);
      expect(result.text.length).toBeGreaterThan(0);
    },
  },
  {
    name: "function calling, AUTO: the weather question calls get_weather(Paris)",
    async run(target) {
      const result = await generateText({
        model: model(target),
        prompt: WEATHER_PROMPT,
        tools: {
          get_weather: tool({
            description: "Get the current weather in a city.",
            inputSchema: z.object({ city: z.string().describe("The city.") }),
          }),
        },
        providerOptions: google(),
      });
      expect(result.toolCalls[0]).toMatchObject({
        toolName: "get_weather",
        input: { city: "Paris" },
      });
    },
  },
  {
    name: "safety block, unary: finishReason content-filter with the prompt feedback",
    async run(target) {
      const result = await generateText({
        model: model(target),
        prompt: BLOCKED_PROMPT,
        providerOptions: google({ safetySettings: DANGEROUS_ONLY_HIGH }),
      });
      expect(result.finishReason).toBe("content-filter");
      expect(result.text).toBe("");
      expect(result.providerMetadata?.google?.promptFeedback).toMatchObject({
        blockReason: "SAFETY",
      });
    },
  },
  {
    name: "safety block, streamed: finishReason content-filter, no blocked text",
    async run(target) {
      const result = streamText({
        model: model(target),
        prompt: BLOCKED_ANSWER_PROMPT,
        providerOptions: google({ safetySettings: DANGEROUS_ONLY_HIGH }),
      });
      expect(await result.text).not.toContain("bomb");
      expect(await result.finishReason).toBe("content-filter");
    },
  },
]);
