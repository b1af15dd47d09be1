/**
 * @google/genai 1.x, 2.x and 3.x (npm aliases google-genai-1 and google-genai-3 beside the
 * 2.x devDependency), unchanged but for `httpOptions.baseUrl` and the key. 3.x calls
 * `/v1/...` by default, 1.x and 2.x `/v1beta/...` (their src/_api_client.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
import * as genai2 from "@google/genai";
import * as genai1 from "google-genai-1";
import * as genai3 from "google-genai-3";
import { defineClientSuite, type ClientCase } from "./client-suite";
import {
  BLOCKED_ANSWER_PROMPT,
  BLOCKED_PROMPT,
  CACHE_TEXT,
  CITY_SCHEMA,
  DANGEROUS_ONLY_HIGH,
  FILE_TEXT,
  FOX,
  FOX_TOKENS,
  HOSTILE_TEXT,
  LIGHTS_FUNCTION,
  LIGHTS_PROMPT,
  MODEL,
  NO_THINKING,
  BATCH_ENDED,
  BATCH_PROMPTS,
  EMBEDDING_DOCUMENTS,
  EMBEDDING_MODEL,
  EMBEDDING_QUERY,
  MULTIMODAL_EMBEDDING_MODEL,
  cosine,
  SYSTEM_INSTRUCTION,
  WEATHER_FUNCTION,
  WEATHER_PROMPT,
} from "./fixtures";

type Module = typeof genai2;
type Client = genai2.GoogleGenAI;

/** The wire's enum spellings, as every version's types accept them. */
const loose = <T>(value: unknown) => value as T;

function cases(sdk: Module): ClientCase[] {
  const connect = (baseUrl: string, apiKey: string): Client =>
    new sdk.GoogleGenAI({ apiKey, httpOptions: { baseUrl } });
  const config = { thinkingConfig: NO_THINKING };
  return [
    {
      name: "models list and get",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const names: string[] = [];
        for await (const model of await ai.models.list({ config: { pageSize: 3 } }))
          names.push(model.name ?? "");
        expect(names).toContain(`models/${MODEL}`);
        const model = await ai.models.get({ model: MODEL });
        expect(model.inputTokenLimit).toBe(1_048_576);
        expect(model.supportedActions).toContain("generateContent");
      },
    },
    {
      name: "countTokens matches the usage of a generation",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const { totalTokens } = await ai.models.countTokens({ model: MODEL, contents: FOX });
        expect(totalTokens).toBe(FOX_TOKENS);
        const response = await ai.models.generateContent({ model: MODEL, contents: FOX, config });
        expect(response.usageMetadata?.promptTokenCount).toBe(totalTokens);
        expect(response.usageMetadata?.totalTokenCount).toBe(
          totalTokens! + response.usageMetadata!.candidatesTokenCount!,
        );
      },
    },
    {
      name: "generate with config, system instruction and response schema",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const response = await ai.models.generateContent({
          model: MODEL,
          contents: "Name a city by the sea and its population.",
          config: {
            ...config,
            systemInstruction: SYSTEM_INSTRUCTION,
            temperature: 0.2,
            maxOutputTokens: 200,
            responseMimeType: "application/json",
            responseSchema: loose(CITY_SCHEMA),
          },
        });
        const parsed = JSON.parse(response.text ?? "") as { city: unknown; population: unknown };
        expect(typeof parsed.city).toBe("string");
        expect(Number.isInteger(parsed.population)).toBe(true);
        // The system instruction is one more Content: counted in the prompt.
        expect(response.usageMetadata!.promptTokenCount).toBeGreaterThan(10);
      },
    },
    {
      name: "stream",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        let text = "";
        let chunks = 0;
        let last: genai2.GenerateContentResponse | undefined;
        for await (const chunk of await ai.models.generateContentStream({
          model: MODEL,
          contents: "Tell me about lighthouses.",
          config: { ...config, maxOutputTokens: 120 },
        })) {
          text += chunk.text ?? "";
          chunks += 1;
          last = chunk;
        }
        expect(chunks).toBeGreaterThan(1);
        expect(text.length).toBeGreaterThan(20);
        expect(last?.candidates?.[0]?.finishReason).toBeDefined();
        expect(last?.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
      },
    },
    {
      name: "chat with stream keeps the history",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const chat = ai.chats.create({ model: MODEL, config });
        const first = await chat.sendMessage({ message: "My name is Ada." });
        expect(first.text?.length).toBeGreaterThan(0);
        let text = "";
        for await (const chunk of await chat.sendMessageStream({ message: "What is my name?" }))
          text += chunk.text ?? "";
        expect(text.length).toBeGreaterThan(0);
        // Streamed replies are recorded chunk by chunk (js-genai src/chats.ts, recordHistory).
        const history = chat.getHistory();
        expect(
          history
            .filter((content) => content.role === "user")
            .map((content) => content.parts?.[0]?.text),
        ).toEqual(["My name is Ada.", "What is my name?"]);
        expect(history.at(-1)?.role).toBe("model");
      },
    },
    {
      name: "cache create, then use in a stream",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const cache = await ai.caches.create({
          model: MODEL,
          config: {
            contents: [{ role: "user", parts: [{ text: CACHE_TEXT }] }],
            systemInstruction: SYSTEM_INSTRUCTION,
            ttl: "600s",
          },
        });
        expect(cache.name).toMatch(/^cachedContents\//);
        const size = cache.usageMetadata!.totalTokenCount!;
        expect(size).toBeGreaterThanOrEqual(1024);
        let last: genai2.GenerateContentResponse | undefined;
        let text = "";
        for await (const chunk of await ai.models.generateContentStream({
          model: MODEL,
          contents: "What did the keeper log?",
          config: { ...config, cachedContent: cache.name, maxOutputTokens: 60 },
        })) {
          text += chunk.text ?? "";
          last = chunk;
        }
        expect(text.length).toBeGreaterThan(0);
        expect(last?.usageMetadata?.cachedContentTokenCount).toBe(size);
        await ai.caches.delete({ name: cache.name! });
      },
    },
    {
      name: "file upload, ACTIVE, used in a prompt",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const uploaded = await ai.files.upload({
          file: new Blob([FILE_TEXT], { type: "text/plain" }),
          config: { mimeType: "text/plain", displayName: "harbour log" },
        });
        let file = uploaded;
        for (let attempt = 0; file.state !== "ACTIVE" && attempt < 100; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          file = await ai.files.get({ name: uploaded.name! });
        }
        expect(file.state).toBe("ACTIVE");
        const contents = [
          sdk.createPartFromUri(file.uri!, file.mimeType!),
          "How many boats did the Harbourmaster count?",
        ];
        const counted = await ai.models.countTokens({ model: MODEL, contents });
        const response = await ai.models.generateContent({ model: MODEL, contents, config });
        // The file's text is in the prompt: the count says so, and generation agrees.
        expect(counted.totalTokens).toBeGreaterThan(300);
        expect(response.usageMetadata?.promptTokenCount).toBe(counted.totalTokens);
        await ai.files.delete({ name: file.name! });
      },
    },
    {
      name: "function calling, manual: call, response, answer",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const tools = [
          { functionDeclarations: [loose<genai2.FunctionDeclaration>(LIGHTS_FUNCTION)] },
        ];
        const first = await ai.models.generateContent({
          model: MODEL,
          contents: LIGHTS_PROMPT,
          config: {
            ...config,
            tools,
            toolConfig: { functionCallingConfig: { mode: loose("ANY") } },
          },
        });
        const call = first.functionCalls?.[0];
        expect(call?.name).toBe("set_light_level");
        expect(typeof call?.args?.room).toBe("string");
        const second = await ai.models.generateContent({
          model: MODEL,
          contents: [
            { role: "user", parts: [{ text: LIGHTS_PROMPT }] },
            first.candidates![0]!.content!,
            {
              role: "user",
              parts: [
                {
                  functionResponse: { name: call!.name!, response: { result: "done", level: 50 } },
                },
              ],
            },
          ],
          config: {
            ...config,
            tools,
            toolConfig: { functionCallingConfig: { mode: loose("NONE") } },
          },
        });
        expect(second.text?.length).toBeGreaterThan(0);
      },
    },
    {
      name: "function calling, AUTO: the weather question calls get_weather(Paris)",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const response = await ai.models.generateContent({
          model: MODEL,
          contents: WEATHER_PROMPT,
          config: {
            ...config,
            tools: [
              { functionDeclarations: [loose<genai2.FunctionDeclaration>(WEATHER_FUNCTION)] },
            ],
          },
        });
        expect(response.functionCalls?.[0]).toMatchObject({
          name: "get_weather",
          args: { city: "Paris" },
        });
      },
    },
    {
      name: "function calling, automatic: the SDK runs a CallableTool and answers",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const calls: unknown[] = [];
        const weatherTool: genai2.CallableTool = {
          tool: async () => ({
            functionDeclarations: [loose<genai2.FunctionDeclaration>(WEATHER_FUNCTION)],
          }),
          callTool: async (functionCalls) => {
            calls.push(...functionCalls);
            return functionCalls.map((call) => ({
              functionResponse: { name: call.name, response: { forecast: "sunny, 21 C" } },
            }));
          },
        };
        const response = await ai.models.generateContent({
          model: MODEL,
          contents: WEATHER_PROMPT,
          config: { ...config, tools: [weatherTool] },
        });
        expect(calls).toEqual([expect.objectContaining({ name: "get_weather" })]);
        expect(response.text?.length).toBeGreaterThan(0);
      },
    },
    {
      name: "safety block, unary: the prompt is blocked",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const response = await ai.models.generateContent({
          model: MODEL,
          contents: BLOCKED_PROMPT,
          config: { ...config, safetySettings: loose(DANGEROUS_ONLY_HIGH) },
        });
        expect(response.promptFeedback?.blockReason).toBe("SAFETY");
        expect(response.candidates).toBeUndefined();
        expect(response.text).toBeUndefined();
      },
    },
    {
      name: "safety block, streamed: the answer stops with finishReason SAFETY",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const chunks: genai2.GenerateContentResponse[] = [];
        for await (const chunk of await ai.models.generateContentStream({
          model: MODEL,
          contents: BLOCKED_ANSWER_PROMPT,
          config: { ...config, safetySettings: loose(DANGEROUS_ONLY_HIGH) },
        }))
          chunks.push(chunk);
        const last = chunks.at(-1)!.candidates![0]!;
        expect(last.finishReason).toBe("SAFETY");
        expect(last.safetyRatings).toContainEqual(
          expect.objectContaining({ category: "HARM_CATEGORY_DANGEROUS_CONTENT", blocked: true }),
        );
        expect(chunks.map((chunk) => chunk.text ?? "").join("")).not.toContain("bomb");
      },
    },
    {
      name: "safety: ordinary hostile text is blocked at BLOCK_LOW_AND_ABOVE",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const response = await ai.models.generateContent({
          model: MODEL,
          contents: HOSTILE_TEXT,
          config: {
            ...config,
            safetySettings: [
              {
                category: loose("HARM_CATEGORY_HARASSMENT"),
                threshold: loose("BLOCK_LOW_AND_ABOVE"),
              },
            ],
          },
        });
        expect(response.promptFeedback?.blockReason).toBe("SAFETY");
        expect(response.promptFeedback?.safetyRatings).toContainEqual(
          expect.objectContaining({ category: "HARM_CATEGORY_HARASSMENT", blocked: true }),
        );
      },
    },
    {
      name: "embedContent: vectors that rank a matching document first, shortened on request",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const documents = await ai.models.embedContent({
          model: EMBEDDING_MODEL,
          contents: EMBEDDING_DOCUMENTS,
          config: { taskType: "RETRIEVAL_DOCUMENT" },
        });
        const [matching, other] = documents.embeddings!.map((embedding) => embedding.values!);
        const query = await ai.models.embedContent({
          model: EMBEDDING_MODEL,
          contents: EMBEDDING_QUERY,
          config: { taskType: "RETRIEVAL_QUERY" },
        });
        const values = query.embeddings![0]!.values!;
        expect(values).toHaveLength(3072);
        expect(cosine(values, matching!)).toBeGreaterThan(cosine(values, other!));
        const short = await ai.models.embedContent({
          model: MULTIMODAL_EMBEDDING_MODEL,
          contents: EMBEDDING_QUERY,
          config: { outputDimensionality: 256 },
        });
        expect(short.embeddings![0]!.values).toHaveLength(256);
        await expect(
          ai.models.embedContent({
            model: EMBEDDING_MODEL,
            contents: EMBEDDING_QUERY,
            config: { outputDimensionality: 100_000 },
          }),
        ).rejects.toThrow(/output_dimensionality/);
      },
    },
    {
      name: "batches: an embedding batch (createEmbeddings), its vectors read",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const created = await ai.batches.createEmbeddings({
          model: EMBEDDING_MODEL,
          src: {
            inlinedRequests: {
              contents: EMBEDDING_DOCUMENTS.map((text) => ({ parts: [{ text }] })),
              config: { outputDimensionality: 64 },
            },
          },
          config: { displayName: "client suite vectors" },
        });
        let job = created;
        for (
          let attempt = 0;
          attempt < 600 && !BATCH_ENDED.includes(String(job.state));
          attempt++
        ) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          job = await ai.batches.get({ name: created.name! });
        }
        expect(String(job.state)).toBe("JOB_STATE_SUCCEEDED");
        // The SDK moves results that hold embeddings to inlinedEmbedContentResponses (src/_transformers.ts).
        const results = job.dest!.inlinedEmbedContentResponses!;
        expect(results.map((result) => result.response?.embedding?.values?.length)).toEqual([
          64, 64,
        ]);
        await ai.batches.delete({ name: created.name! });
      },
    },
    {
      name: "batches: inline and JSONL file, results read and downloaded",
      async run({ baseUrl, apiKey }) {
        const ai = connect(baseUrl, apiKey);
        const ended = async (name: string) => {
          for (let attempt = 0; attempt < 600; attempt++) {
            const job = await ai.batches.get({ name });
            if (BATCH_ENDED.includes(String(job.state))) return job;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          throw new Error(`${name} did not end`);
        };
        const inline = await ai.batches.create({
          model: MODEL,
          src: BATCH_PROMPTS.map((text, index) => ({
            contents: [{ role: "user", parts: [{ text }] }],
            metadata: { key: `q${index}` },
            config: { ...config, maxOutputTokens: 40 },
          })),
          config: { displayName: "client suite" },
        });
        expect(String(inline.state)).toBe("JOB_STATE_PENDING");
        const inlineDone = await ended(inline.name!);
        expect(String(inlineDone.state)).toBe("JOB_STATE_SUCCEEDED");
        const answers = inlineDone.dest!.inlinedResponses!;
        expect(answers.map((answer) => answer.metadata?.key)).toEqual(["q0", "q1"]);
        for (const answer of answers)
          expect(answer.response?.candidates?.[0]?.content?.parts?.[0]?.text).toBeTruthy();

        const lines = BATCH_PROMPTS.map((text, index) =>
          JSON.stringify({
            key: `f${index}`,
            request: {
              contents: [{ parts: [{ text }] }],
              generationConfig: { ...config, maxOutputTokens: 40 },
            },
          }),
        );
        const input = await ai.files.upload({
          file: new Blob([lines.join("\n") + "\n"], { type: "application/jsonl" }),
          config: { mimeType: "application/jsonl" },
        });
        const fromFile = await ai.batches.create({ model: MODEL, src: input.name! });
        const fileDone = await ended(fromFile.name!);
        expect(String(fileDone.state)).toBe("JOB_STATE_SUCCEEDED");
        const directory = fs.mkdtempSync(path.join(os.tmpdir(), "client-batch-"));
        const downloadPath = path.join(directory, "results.jsonl");
        await ai.files.download({ file: fileDone.dest!.fileName!, downloadPath });
        // The SDK resolves once the response is piped; the file may still be closing.
        await expect
          .poll(
            () =>
              fs.existsSync(downloadPath) &&
              fs.readFileSync(downloadPath, "utf8").split("\n").length,
          )
          .toBe(BATCH_PROMPTS.length + 1);
        const keys = fs
          .readFileSync(downloadPath, "utf8")
          .trimEnd()
          .split("\n")
          .map((line) => (JSON.parse(line) as { key: string }).key);
        expect(keys).toEqual(["f0", "f1"]);

        const listed: string[] = [];
        for await (const job of await ai.batches.list({ config: { pageSize: 5 } }))
          listed.push(job.name!);
        expect(listed).toEqual(expect.arrayContaining([inline.name, fromFile.name]));
        await ai.batches.delete({ name: inline.name! });
        await ai.batches.delete({ name: fromFile.name! });
        await expect(ai.batches.get({ name: inline.name! })).rejects.toThrow(/NOT_FOUND|not found/);
      },
    },
  ];
}

defineClientSuite("@google/genai 1.x", cases(genai1 as unknown as Module));
defineClientSuite("@google/genai 2.x", cases(genai2));
defineClientSuite("@google/genai 3.x", cases(genai3 as unknown as Module));
