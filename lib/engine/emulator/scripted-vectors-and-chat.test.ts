// Scenarios answering embeddings (given vectors, checked against the request's count and size)
// and OpenAI-compatible chat completions (scripted content in that API's shapes), at the
// Backend: the emulated local engine on a real SQLite database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { OperationContext } from "@/lib/gemini/backend/contract";
import { embeddingNumbers } from "@/lib/gemini/embedding-values";
import type { ChatCompletion, ChatCompletionChunk } from "@/lib/gemini/openai/openai-types";
import { createLocalBackend, type LocalBackend } from "@/lib/engine/local-backend";
import { countTexts } from "@/lib/engine/tokens";
import { testDatabaseKinds } from "@/lib/testing/databases";
import type { TempData } from "@/lib/testing/engine-files";
import { emulatedBackend } from "./emulated-backend";
import { ScenarioRegistry } from "./scenario-registry";

const EMBEDDING = "models/gemini-embedding-001";
const alice: OperationContext = {
  caller: { ownerId: "key:alice" },
  signal: new AbortController().signal,
};
const bob: OperationContext = { caller: { ownerId: "key:bob" }, signal: alice.signal };
const [sqlite] = testDatabaseKinds();

const embedRequest = (text: string, outputDimensionality?: number) => ({
  content: { parts: [{ text }] },
  ...(outputDimensionality ? { outputDimensionality } : {}),
});

async function failure(work: Promise<unknown>): Promise<ApiError> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("scripted embeddings and OpenAI-compatible answers", () => {
  let data: TempData;
  let local: LocalBackend;
  let backend: LocalBackend;
  const scenarios = new ScenarioRegistry();

  beforeAll(async () => {
    data = await sqlite!.open();
    local = createLocalBackend({ stores: data.stores, dataDir: data.dataDir, sweepIntervalMs: 0 });
    backend = emulatedBackend(local, { scenarios });
  });

  afterAll(async () => {
    await local.close();
    await data.cleanup();
  });

  it("answers embedContent and batchEmbedContents with the given vectors, for that caller only", async () => {
    scenarios.register("key:alice", [
      {
        match: { operation: "embedContent", textContains: "river" },
        respond: { embedding: [0.5, -0.5, 0.5, -0.5] },
      },
      {
        match: { operation: "batchEmbedContents" },
        respond: {
          embeddings: [
            [1, 0, 0],
            [0, 1, 0],
          ],
        },
      },
    ]);
    const single = await backend.embedContent(EMBEDDING, embedRequest("the river", 4), alice);
    expect(single).toEqual({ embedding: { values: [0.5, -0.5, 0.5, -0.5] } });
    const batch = await backend.batchEmbedContents(
      EMBEDDING,
      { requests: [embedRequest("a", 3), embedRequest("b", 3)] },
      alice,
    );
    expect(batch.embeddings.map((embedding) => embedding.values)).toEqual([
      [1, 0, 0],
      [0, 1, 0],
    ]);
    const engine = await backend.embedContent(EMBEDDING, embedRequest("the river", 4), bob);
    const engineValues = Array.from(embeddingNumbers(engine.embedding.values));
    expect(engineValues).toHaveLength(4);
    expect(engineValues).not.toEqual([0.5, -0.5, 0.5, -0.5]);
    scenarios.clear("key:alice");
  });

  it("keeps the engine's usage, checks and errors: the request is the engine's to refuse", async () => {
    scenarios.register("key:alice", [{ respond: { embedding: [0.25, 0.75] } }]);
    const answer = await backend.embedContent(
      "models/gemini-embedding-2",
      embedRequest("Some text goes here", 2),
      alice,
    );
    expect(answer.embedding.values).toEqual([0.25, 0.75]);
    const [tokens] = await countTexts("gemma3", ["Some text goes here"]);
    expect(answer.usageMetadata?.promptTokenCount).toBe(tokens);
    const unknown = await failure(
      backend.embedContent("models/gemini-0-none", embedRequest("x", 2), alice),
    );
    expect(unknown.httpStatus).toBe(404);
    scenarios.clear("key:alice");
  });

  it("refuses vectors that do not fit the request (another count or size) or another operation", async () => {
    scenarios.register("key:alice", [
      { match: { textContains: "count" }, respond: { embeddings: [[1, 0]] } },
      { match: { textContains: "size" }, respond: { embedding: [1, 0, 0] } },
    ]);
    const count = await failure(
      backend.batchEmbedContents(
        EMBEDDING,
        { requests: [embedRequest("count", 2), embedRequest("count", 2)] },
        alice,
      ),
    );
    expect(count.httpStatus).toBe(400);
    expect(count.message).toMatch(/answers 1 embedding to a request of 2 inputs/);
    const size = await failure(backend.embedContent(EMBEDDING, embedRequest("size"), alice));
    expect(size.message).toMatch(/an embedding of 3 values, but the request asks 3072/);
    scenarios.clear("key:alice");
    // Vectors answer embeddings only: another operation, or content beside them, is refused.
    const refused = (input: unknown) => {
      try {
        scenarios.register("key:alice", [input]);
      } catch (error) {
        return (error as ApiError).message;
      }
      return null;
    };
    expect(
      refused({ match: { operation: "generateContent" }, respond: { embedding: [1] } }),
    ).toMatch(
      /names generateContent, which embedding cannot answer: embeddings go to embedContent/,
    );
    expect(refused({ respond: [{ text: "x" }, { embeddings: [[1]] }] })).toMatch(
      /embeddings cannot answer what the other answers do/,
    );
    expect(scenarios.list("key:alice")).toEqual([]);
  });

  it("answers OpenAI-compatible embeddings as floats or base64 float32s, and scripted errors", async () => {
    scenarios.register("key:alice", [
      {
        match: { operation: "openai.embeddings" },
        respond: [
          {
            embeddings: [
              [0.5, 0.25],
              [-1, 0],
            ],
          },
          { embedding: [0.5, 0.25] },
          { error: { code: 429 } },
        ],
      },
    ]);
    const body = { model: "gemini-embedding-001", input: ["a", "b"], dimensions: 2 };
    const floats = await backend.openaiEmbeddings({ ...body, encoding_format: "float" }, alice);
    expect("value" in floats && floats.value.data.map((item) => item.embedding)).toEqual([
      [0.5, 0.25],
      [-1, 0],
    ]);
    const base64 = await backend.openaiEmbeddings({ ...body, encoding_format: "base64" }, alice);
    const encoded = "value" in base64 ? (base64.value.data[1]!.embedding as string) : "";
    const bytes = Buffer.from(encoded, "base64");
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4)]).toEqual([0.5, 0.25]);
    const limited = await failure(backend.openaiEmbeddings(body, alice));
    expect(limited.httpStatus).toBe(429);
    scenarios.clear("key:alice");
  });

  it("answers OpenAI-compatible chat completions with scripted text, tool calls and JSON, usage counted", async () => {
    const chat = (extra: Record<string, unknown> = {}) => ({
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "What is the weather in Paris?" }],
      ...extra,
    });
    scenarios.register("key:alice", [
      {
        match: { operation: "openai.chat.completions", textContains: "Paris" },
        respond: [
          { text: "Sunny, 21 °C." },
          { functionCalls: [{ name: "get_weather", args: { city: "Paris" } }] },
          { json: { city: "Paris", celsius: 21 } },
          { json: { city: "Paris" } },
        ],
      },
    ]);
    const text = await backend.openaiChatCompletion(chat(), alice);
    const completion = (text as { value: ChatCompletion }).value;
    expect(completion.choices[0]).toMatchObject({
      finish_reason: "stop",
      message: { role: "assistant", content: "Sunny, 21 °C." },
    });
    const [answerTokens] = await countTexts("gemma3", ["Sunny, 21 °C."]);
    expect(completion.usage.completion_tokens).toBe(answerTokens);
    expect(completion.usage.prompt_tokens).toBeGreaterThan(0);

    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      },
    ];
    const called = (await backend.openaiChatCompletion(chat({ tools }), alice)) as {
      value: ChatCompletion;
    };
    expect(called.value.choices[0]!.finish_reason).toBe("tool_calls");
    expect(called.value.choices[0]!.message.tool_calls?.[0]?.function).toEqual({
      name: "get_weather",
      arguments: '{"city":"Paris"}',
    });

    const schema = {
      type: "object",
      properties: { city: { type: "string" }, celsius: { type: "number" } },
      required: ["city", "celsius"],
    };
    const format = {
      response_format: { type: "json_schema", json_schema: { name: "weather", schema } },
    };
    const json = (await backend.openaiChatCompletion(chat(format), alice)) as {
      value: ChatCompletion;
    };
    expect(JSON.parse(json.value.choices[0]!.message.content!)).toEqual({
      city: "Paris",
      celsius: 21,
    });
    const misfit = await failure(backend.openaiChatCompletion(chat(format), alice));
    expect(misfit.message).toMatch(/does not fit the request's generationConfig/);
    scenarios.clear("key:alice");
  });

  it("streams scripted chunks as chat.completion.chunks, and fails after N of them as told", async () => {
    scenarios.register("key:alice", [
      {
        match: { operation: "openai.chat.completions" },
        respond: [
          { chunks: ["Hel", "lo"] },
          { chunks: ["one", "two", "three"], failAfterChunks: 1, error: { code: 503 } },
        ],
      },
    ]);
    const body = {
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    };
    const read = async () => {
      const answer = (await backend.openaiChatCompletion(body, alice)) as {
        chunks: AsyncIterable<ChatCompletionChunk>;
      };
      const chunks: ChatCompletionChunk[] = [];
      try {
        for await (const chunk of answer.chunks) chunks.push(chunk);
      } catch (error) {
        return { chunks, error };
      }
      return { chunks, error: null };
    };
    const whole = await read();
    expect(whole.chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(["Hel", "lo"]);
    expect(whole.chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(whole.chunks.at(-1)?.usage?.completion_tokens).toBeGreaterThan(0);
    const cut = await read();
    expect(cut.chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(["one"]);
    expect((cut.error as ApiError).httpStatus).toBe(503);
    scenarios.clear("key:alice");
  });
});
