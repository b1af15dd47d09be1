/**
 * @google/generative-ai (the legacy JS SDK, still under @langchain/google-genai), with
 * GoogleAIFileManager and GoogleAICacheManager from `@google/generative-ai/server`. Unchanged
 * but for `requestOptions.baseUrl` and the key. It has no models list or get.
 */
import { expect } from "@playwright/test";
import {
  FunctionCallingMode,
  GoogleGenerativeAI,
  HarmBlockThreshold,
  HarmCategory,
  SchemaType,
  type FunctionDeclaration,
  type GenerateContentResponse,
  type ResponseSchema,
} from "@google/generative-ai";
import { GoogleAICacheManager, GoogleAIFileManager } from "@google/generative-ai/server";
import { defineClientSuite, type ClientTarget } from "./client-suite";
import {
  BLOCKED_ANSWER_PROMPT,
  BLOCKED_PROMPT,
  CACHE_TEXT,
  FILE_TEXT,
  FOX,
  FOX_TOKENS,
  LIGHTS_PROMPT,
  MODEL,
  NO_THINKING,
  SYSTEM_INSTRUCTION,
  WEATHER_PROMPT,
} from "./fixtures";

const generationConfig = { thinkingConfig: NO_THINKING } as Record<string, unknown>;
const safetySettings = [
  {
    category: HarmCategory.HARM_CATEGORY_DANGEROUS_CONTENT,
    threshold: HarmBlockThreshold.BLOCK_ONLY_HIGH,
  },
];
const lights: FunctionDeclaration = {
  name: "set_light_level",
  description: "Set the brightness of the lights in a room.",
  parameters: {
    type: SchemaType.OBJECT,
    properties: {
      room: { type: SchemaType.STRING, description: "The room." },
      level: { type: SchemaType.INTEGER, description: "Brightness from 0 to 100." },
    },
    required: ["room", "level"],
  },
};
const weather: FunctionDeclaration = {
  name: "get_weather",
  description: "Get the current weather in a city.",
  parameters: {
    type: SchemaType.OBJECT,
    properties: { city: { type: SchemaType.STRING, description: "The city." } },
    required: ["city"],
  },
};

function model(target: ClientTarget, params: Record<string, unknown> = {}) {
  return new GoogleGenerativeAI(target.apiKey).getGenerativeModel(
    { model: MODEL, generationConfig, ...params },
    { baseUrl: target.baseUrl },
  );
}

/** The legacy SDK's accessor throws for a blocked answer; its message names the reason. */
function textError(response: GenerateContentResponse & { text(): string }): string {
  try {
    response.text();
  } catch (error) {
    return String((error as Error).message);
  }
  return "";
}

defineClientSuite("@google/generative-ai (legacy)", [
  {
    name: "countTokens matches the usage of a generation",
    async run(target) {
      const fox = model(target);
      const { totalTokens } = await fox.countTokens(FOX);
      expect(totalTokens).toBe(FOX_TOKENS);
      const { response } = await fox.generateContent(FOX);
      expect(response.usageMetadata?.promptTokenCount).toBe(totalTokens);
    },
  },
  {
    name: "generate with config, system instruction and response schema",
    async run(target) {
      const schema: ResponseSchema = {
        type: SchemaType.OBJECT,
        properties: {
          city: { type: SchemaType.STRING },
          population: { type: SchemaType.INTEGER },
        },
        required: ["city", "population"],
      };
      const { response } = await model(target, {
        systemInstruction: SYSTEM_INSTRUCTION,
        generationConfig: {
          ...generationConfig,
          temperature: 0.2,
          maxOutputTokens: 200,
          responseMimeType: "application/json",
          responseSchema: schema,
        },
      }).generateContent("Name a city by the sea and its population.");
      const parsed = JSON.parse(response.text()) as { city: unknown; population: unknown };
      expect(typeof parsed.city).toBe("string");
      expect(Number.isInteger(parsed.population)).toBe(true);
    },
  },
  {
    name: "stream",
    async run(target) {
      const result = await model(target, {
        generationConfig: { ...generationConfig, maxOutputTokens: 120 },
      }).generateContentStream("Tell me about lighthouses.");
      let text = "";
      let chunks = 0;
      for await (const chunk of result.stream) {
        text += chunk.text();
        chunks += 1;
      }
      expect(chunks).toBeGreaterThan(1);
      expect(text.length).toBeGreaterThan(20);
      const whole = await result.response;
      expect(whole.text()).toBe(text);
      expect(whole.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
    },
  },
  {
    name: "chat with stream keeps the history",
    async run(target) {
      const chat = model(target).startChat();
      const first = await chat.sendMessage("My name is Ada.");
      expect(first.response.text().length).toBeGreaterThan(0);
      const result = await chat.sendMessageStream("What is my name?");
      let text = "";
      for await (const chunk of result.stream) text += chunk.text();
      expect(text.length).toBeGreaterThan(0);
      const history = await chat.getHistory();
      expect(history.map((content) => content.role)).toEqual(["user", "model", "user", "model"]);
    },
  },
  {
    name: "GoogleAICacheManager create, then use in a stream",
    async run(target) {
      const caches = new GoogleAICacheManager(target.apiKey, { baseUrl: target.baseUrl });
      const cache = await caches.create({
        model: `models/${MODEL}`,
        contents: [{ role: "user", parts: [{ text: CACHE_TEXT }] }],
        systemInstruction: SYSTEM_INSTRUCTION,
        ttlSeconds: 600,
      });
      expect(cache.name).toMatch(/^cachedContents\//);
      // The legacy types omit usageMetadata, but the resource carries it (api-notes §6).
      const size = (cache as { usageMetadata?: { totalTokenCount: number } }).usageMetadata!
        .totalTokenCount;
      expect(size).toBeGreaterThanOrEqual(1024);
      const cached = new GoogleGenerativeAI(target.apiKey).getGenerativeModelFromCachedContent(
        cache,
        { generationConfig: { ...generationConfig, maxOutputTokens: 60 } },
        { baseUrl: target.baseUrl },
      );
      const result = await cached.generateContentStream("What did the keeper log?");
      let text = "";
      for await (const chunk of result.stream) text += chunk.text();
      expect(text.length).toBeGreaterThan(0);
      expect((await result.response).usageMetadata?.cachedContentTokenCount).toBe(size);
      await caches.delete(cache.name!);
    },
  },
  {
    name: "GoogleAIFileManager upload (multipart), ACTIVE, used in a prompt",
    async run(target) {
      const files = new GoogleAIFileManager(target.apiKey, { baseUrl: target.baseUrl });
      const uploaded = await files.uploadFile(Buffer.from(FILE_TEXT), {
        mimeType: "text/plain",
        displayName: "harbour log",
      });
      let file = uploaded.file;
      for (let attempt = 0; file.state !== "ACTIVE" && attempt < 100; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        file = await files.getFile(uploaded.file.name);
      }
      expect(file.state).toBe("ACTIVE");
      const parts = [
        { fileData: { fileUri: file.uri, mimeType: file.mimeType } },
        { text: "How many boats did the Harbourmaster count?" },
      ];
      const withFile = model(target);
      const { totalTokens } = await withFile.countTokens(parts);
      expect(totalTokens).toBeGreaterThan(300);
      const { response } = await withFile.generateContent(parts);
      expect(response.usageMetadata?.promptTokenCount).toBe(totalTokens);
      await files.deleteFile(file.name);
    },
  },
  {
    name: "function calling, manual: call, response, answer",
    async run(target) {
      const tools = [{ functionDeclarations: [lights] }];
      const { response } = await model(target, {
        tools,
        toolConfig: { functionCallingConfig: { mode: FunctionCallingMode.ANY } },
      }).generateContent(LIGHTS_PROMPT);
      const call = response.functionCalls()?.[0];
      expect(call?.name).toBe("set_light_level");
      expect(typeof (call?.args as { room?: unknown }).room).toBe("string");
      const chat = model(target, {
        tools,
        toolConfig: { functionCallingConfig: { mode: FunctionCallingMode.NONE } },
      }).startChat({
        history: [
          { role: "user", parts: [{ text: LIGHTS_PROMPT }] },
          { role: "model", parts: [{ functionCall: call! }] },
        ],
      });
      const answer = await chat.sendMessage([
        { functionResponse: { name: call!.name, response: { result: "done", level: 50 } } },
      ]);
      expect(answer.response.text().length).toBeGreaterThan(0);
    },
  },
  {
    name: "function calling, AUTO: the weather question calls get_weather(Paris)",
    async run(target) {
      const { response } = await model(target, {
        tools: [{ functionDeclarations: [weather] }],
      }).generateContent(WEATHER_PROMPT);
      expect(response.functionCalls()?.[0]).toMatchObject({
        name: "get_weather",
        args: { city: "Paris" },
      });
    },
  },
  {
    name: "safety block, unary: the prompt is blocked",
    async run(target) {
      const { response } = await model(target, { safetySettings }).generateContent(BLOCKED_PROMPT);
      expect(response.promptFeedback?.blockReason).toBe("SAFETY");
      expect(response.candidates).toBeUndefined();
      expect(textError(response)).toContain("SAFETY");
    },
  },
  {
    name: "safety block, streamed: the answer stops with finishReason SAFETY",
    async run(target) {
      const result = await model(target, { safetySettings }).generateContentStream(
        BLOCKED_ANSWER_PROMPT,
      );
      const reasons: unknown[] = [];
      for await (const chunk of result.stream) reasons.push(chunk.candidates?.[0]?.finishReason);
      expect(reasons.at(-1)).toBe("SAFETY");
      const whole = await result.response;
      expect(whole.candidates?.[0]?.finishReason).toBe("SAFETY");
      expect(textError(whole)).toContain("SAFETY");
    },
  },
]);
