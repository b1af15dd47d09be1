import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { serverEnvironment } from "@/lib/testing/server-environment";
import { GoogleGenAI } from "@google/genai";
import OpenAI, { APIError } from "openai";

/**
 * Scripted embeddings and OpenAI-compatible answers as official clients see them, unchanged
 * but for their base URL, key and transport: `@google/genai` and `openai` send their requests
 * through the API's one entry (router.ts) and the emulator's routes, in process, to the local
 * engine on a real SQLite database of this file's own (it runs in a process of its own).
 */

const KEY = "scripted-clients-key-for-tests-0001";
const dataDir = serverEnvironment("scripted-clients", {
  STUDIO_API_KEYS: `tester:${KEY}`,
  STUDIO_RATE_LIMIT_PER_MINUTE: "0",
});

const { handleApiRequest } = await import("../api/router");
const { handleEmulatorRequest } = await import("../api/emulator-routes");

const ORIGIN = "http://studio.test";

/** The studio's HTTP surface, in process: what the SDKs' fetch reaches. */
const studio = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  return new URL(request.url).pathname.startsWith("/emulator/")
    ? handleEmulatorRequest(request)
    : handleApiRequest(request);
};

async function scenario(body: unknown): Promise<void> {
  const response = await studio(`${ORIGIN}/emulator/scenarios`, {
    method: "POST",
    headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function clearScenarios(): Promise<void> {
  await studio(`${ORIGIN}/emulator/scenarios`, {
    method: "DELETE",
    headers: { "x-goog-api-key": KEY },
  });
}

const genai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: ORIGIN, fetch: studio } });
const openai = new OpenAI({
  apiKey: KEY,
  baseURL: `${ORIGIN}/v1beta/openai/`,
  fetch: studio,
  maxRetries: 0,
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("scripted answers through the official clients", () => {
  it("@google/genai gets the scripted vectors, one per input, and a scripted error", async () => {
    await scenario({
      match: { operation: "embeddings", textContains: "lantern" },
      respond: [
        {
          embeddings: [
            [1, 0, 0],
            [0, 0.5, -0.5],
          ],
        },
        { error: { code: 429 } },
      ],
    });
    const answer = await genai.models.embedContent({
      model: "gemini-embedding-001",
      contents: ["river", "lantern"],
      config: { outputDimensionality: 3 },
    });
    expect(answer.embeddings?.map((embedding) => embedding.values)).toEqual([
      [1, 0, 0],
      [0, 0.5, -0.5],
    ]);
    const refused = await genai.models
      .embedContent({ model: "gemini-embedding-001", contents: ["lantern"] })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect((refused as { status?: number }).status).toBe(429);
    await clearScenarios();
  });

  it("openai gets scripted embeddings (base64, as it asks by default) and chat text, tool calls and errors", async () => {
    await scenario({
      match: { operation: "openai.embeddings" },
      respond: { embedding: [0.5, -0.25] },
    });
    const embedded = await openai.embeddings.create({
      model: "gemini-embedding-001",
      input: ["a", "b"],
      dimensions: 2,
    });
    expect(embedded.data.map((item) => item.embedding)).toEqual([
      [0.5, -0.25],
      [0.5, -0.25],
    ]);

    await scenario({
      match: { operation: "openai.chat.completions", textContains: "weather" },
      respond: [
        { text: "Sunny, 21 °C." },
        { functionCalls: [{ name: "get_weather", args: { city: "Paris" } }] },
        { error: { code: 429, message: "Quota exceeded for this test." } },
      ],
    });
    const messages = [{ role: "user" as const, content: "What is the weather in Paris?" }];
    const text = await openai.chat.completions.create({ model: "gemini-2.5-flash", messages });
    expect(text.choices[0]?.message.content).toBe("Sunny, 21 °C.");
    expect(text.usage?.completion_tokens).toBeGreaterThan(0);
    const called = await openai.chat.completions.create({
      model: "gemini-2.5-flash",
      messages,
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            parameters: { type: "object", properties: { city: { type: "string" } } },
          },
        },
      ],
    });
    expect(called.choices[0]?.finish_reason).toBe("tool_calls");
    const call = called.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === "function" && JSON.parse(call.function.arguments)).toEqual({
      city: "Paris",
    });
    const refused = await openai.chat.completions
      .create({ model: "gemini-2.5-flash", messages })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).status).toBe(429);
    await clearScenarios();
  });

  it("openai streams scripted chunks, then the scripted failure as an error event", async () => {
    await scenario({
      match: { operation: "openai.chat.completions" },
      respond: { chunks: ["one ", "two ", "three"], failAfterChunks: 2, error: { code: 503 } },
    });
    const stream = await openai.chat.completions.create({
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "count" }],
      stream: true,
    });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
      return null;
    })().catch((error: unknown) => error);
    expect(seen).toEqual(["one ", "two "]);
    expect(failure).toBeInstanceOf(APIError);
    await clearScenarios();
  });
});
