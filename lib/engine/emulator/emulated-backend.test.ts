import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { OperationContext } from "@/lib/gemini/backend/contract";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { createLocalBackend, type LocalBackend } from "@/lib/engine/local-backend";
import { countTexts } from "@/lib/engine/tokens";
import { readGenerateContentRequest } from "@/lib/gemini/validate";
import { testDatabaseKinds } from "@/lib/testing/databases";
import type { TempData } from "@/lib/testing/engine-files";
import { emulatedBackend } from "./emulated-backend";
import { TransportFault } from "./faults";
import { ScenarioRegistry } from "./scenario-registry";
import { readRequestFacts } from "./request-facts";

const MODEL = "models/gemini-2.5-flash";

function as(ownerId: string): OperationContext {
  return { caller: { ownerId }, signal: new AbortController().signal };
}
const alice = as("key:alice");
const bob = as("key:bob");

function ask(text: string, extra: Record<string, unknown> = {}) {
  return readGenerateContentRequest({ contents: [{ role: "user", parts: [{ text }] }], ...extra });
}

async function collect(stream: AsyncIterable<GenerateContentResponse>) {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const [sqlite] = testDatabaseKinds();

/** The local engine answers whole JSON, never a passed-on one. */
async function generate(
  backend: LocalBackend,
  model: string,
  request: ReturnType<typeof ask>,
  context: OperationContext,
): Promise<GenerateContentResponse> {
  return (await backend.generateContent(model, request, context)) as GenerateContentResponse;
}

describe("the scenario layer in front of the local engine", () => {
  let data: TempData;
  let local: LocalBackend;
  let backend: LocalBackend;
  let scenarios: ScenarioRegistry;

  beforeAll(async () => {
    data = await sqlite!.open();
    local = createLocalBackend({ stores: data.stores, dataDir: data.dataDir, sweepIntervalMs: 0 });
    scenarios = new ScenarioRegistry();
    backend = emulatedBackend(local, { scenarios });
  });

  afterAll(async () => {
    await local.close();
    await data.cleanup();
  });

  it("answers exact text with usage counted by the real tokenizer, for that caller only", async () => {
    scenarios.register("key:alice", [
      { match: { textContains: "weather" }, respond: { text: "Sunny, 21 °C." } },
    ]);
    const answer = await generate(backend, MODEL, ask("What is the weather?"), alice);
    expect(answer.candidates?.[0]?.content?.parts).toEqual([{ text: "Sunny, 21 °C." }]);
    expect(answer.candidates?.[0]?.finishReason).toBe("STOP");
    const [answerTokens] = await countTexts("gemma3", ["Sunny, 21 °C."]);
    expect(answer.usageMetadata?.candidatesTokenCount).toBe(answerTokens);
    const counted = await local.countTokens(
      MODEL,
      { contents: ask("What is the weather?").contents },
      alice,
    );
    expect(answer.usageMetadata?.promptTokenCount).toBe(counted.totalTokens);
    expect(answer.modelVersion).toBe("gemini-2.5-flash");
    const others = await generate(backend, MODEL, ask("What is the weather?"), bob);
    expect(others.candidates?.[0]?.content?.parts?.[0]?.text).not.toBe("Sunny, 21 °C.");
    scenarios.clear("key:alice");
  });

  it("answers twice with times: 2, then falls through to the engine", async () => {
    scenarios.register("key:alice", [
      { match: { textContains: "retry" }, respond: { error: { code: 429 } }, times: 2 },
    ]);
    for (let call = 0; call < 2; call++) {
      const failure = await backend
        .generateContent(MODEL, ask("please retry"), alice)
        .catch((error) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).httpStatus).toBe(429);
      expect((failure as ApiError).rpcStatus).toBe("RESOURCE_EXHAUSTED");
    }
    const third = await generate(backend, MODEL, ask("please retry"), alice);
    expect(third.candidates?.length).toBe(1);
    expect(scenarios.list("key:alice")[0]).toMatchObject({ calls: 2, remaining: 0 });
    scenarios.clear("key:alice");
  });

  it("plays a sequence in order, then falls through", async () => {
    scenarios.register("key:alice", [
      {
        match: { operation: "generateContent" },
        respond: [
          {
            error: {
              code: 503,
              details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "2s" }],
            },
          },
          { text: "second" },
        ],
      },
    ]);
    const first = (await backend
      .generateContent(MODEL, ask("x"), alice)
      .catch((error) => error)) as ApiError;
    expect(first.httpStatus).toBe(503);
    expect(first.rpcStatus).toBe("UNAVAILABLE");
    expect(first.details).toEqual([
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "2s" },
    ]);
    const second = await generate(backend, MODEL, ask("x"), alice);
    expect(second.candidates?.[0]?.content?.parts?.[0]?.text).toBe("second");
    const third = await generate(backend, MODEL, ask("x"), alice);
    expect(third.candidates?.[0]?.content?.parts?.[0]?.text).not.toBe("second");
    scenarios.clear("key:alice");
  });

  it("streams chunks and fails after N of them with the scripted error", async () => {
    scenarios.register("key:alice", [
      {
        match: { operation: "stream" },
        respond: { chunks: ["one ", "two ", "three"], failAfterChunks: 2, error: { code: 500 } },
      },
    ]);
    const chunks: GenerateContentResponse[] = [];
    const failure = await (async () => {
      for await (const chunk of backend.streamGenerateContent(MODEL, ask("count"), alice))
        chunks.push(chunk);
    })().catch((error) => error);
    expect(chunks.map((chunk) => chunk.candidates?.[0]?.content?.parts?.[0]?.text)).toEqual([
      "one ",
      "two ",
    ]);
    expect(chunks.every((chunk) => chunk.candidates?.[0]?.finishReason === undefined)).toBe(true);
    expect((failure as ApiError).httpStatus).toBe(500);
    scenarios.clear("key:alice");
  });

  it("streams whole chunks with a finishReason on the last and running usage", async () => {
    scenarios.register("key:alice", [{ respond: { chunks: ["Hello", ", world"] } }]);
    const chunks = await collect(backend.streamGenerateContent(MODEL, ask("hi"), alice));
    expect(chunks).toHaveLength(2);
    expect(chunks[1]!.candidates?.[0]?.finishReason).toBe("STOP");
    expect(chunks[0]!.responseId).toBe(chunks[1]!.responseId);
    expect(chunks[1]!.usageMetadata!.candidatesTokenCount!).toBeGreaterThan(
      chunks[0]!.usageMetadata!.candidatesTokenCount!,
    );
    scenarios.clear("key:alice");
  });

  it("calls a declared function with the given arguments, and refuses arguments its schema does not allow", async () => {
    const tools = [
      {
        functionDeclarations: [
          {
            name: "get_weather",
            description: "Weather of a city",
            parameters: {
              type: "OBJECT",
              properties: { city: { type: "STRING" } },
              required: ["city"],
            },
          },
        ],
      },
    ];
    scenarios.register("key:alice", [
      {
        match: { functionName: "get_weather" },
        respond: { functionCalls: [{ name: "get_weather", args: { city: "Paris" } }] },
        times: 1,
      },
      {
        match: { functionName: "get_weather" },
        respond: { functionCalls: [{ name: "get_weather", args: { town: "Paris" } }] },
      },
    ]);
    const answer = await generate(backend, MODEL, ask("weather?", { tools }), alice);
    expect(answer.candidates?.[0]?.content?.parts?.[0]?.functionCall).toMatchObject({
      name: "get_weather",
      args: { city: "Paris" },
    });
    const misfit = (await backend
      .generateContent(MODEL, ask("weather?", { tools }), alice)
      .catch((error) => error)) as ApiError;
    expect(misfit.httpStatus).toBe(400);
    expect(misfit.message).toMatch(/lacks the required property "city"/);
    scenarios.clear("key:alice");
  });

  it("checks a JSON answer against the request's schema", async () => {
    const generationConfig = {
      responseMimeType: "application/json",
      responseSchema: {
        type: "OBJECT",
        properties: { age: { type: "INTEGER" } },
        required: ["age"],
      },
    };
    scenarios.register("key:alice", [
      { respond: [{ json: { age: 42 } }, { json: { age: "old" } }] },
    ]);
    const fits = await generate(backend, MODEL, ask("age?", { generationConfig }), alice);
    expect(JSON.parse(fits.candidates![0]!.content!.parts![0]!.text!)).toEqual({ age: 42 });
    const misfit = (await backend
      .generateContent(MODEL, ask("age?", { generationConfig }), alice)
      .catch((error) => error)) as ApiError;
    expect(misfit.message).toMatch(/generationConfig\.responseSchema: \$\.age: expected a number/);
    scenarios.clear("key:alice");
  });

  it("blocks the prompt or the candidate with the given ratings", async () => {
    const ratings = [
      { category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH", blocked: true },
    ];
    scenarios.register("key:alice", [
      {
        respond: [
          { safetyBlock: { target: "prompt", ratings } },
          { safetyBlock: { target: "candidate", ratings } },
        ],
      },
    ]);
    const prompt = await generate(backend, MODEL, ask("x"), alice);
    expect(prompt.candidates).toBeUndefined();
    expect(prompt.promptFeedback).toEqual({ blockReason: "SAFETY", safetyRatings: ratings });
    const candidate = await generate(backend, MODEL, ask("x"), alice);
    expect(candidate.candidates?.[0]).toMatchObject({
      finishReason: "SAFETY",
      safetyRatings: ratings,
    });
    expect(candidate.candidates?.[0]?.content).toBeUndefined();
    scenarios.clear("key:alice");
  });

  it("fails an interaction's create (unary or streamed) as scripted, matched on its input, then lets the engine answer", async () => {
    const body = { model: "gemini-2.5-flash", input: "plan my trip to Lisbon" };
    scenarios.register("key:alice", [
      {
        match: { operation: "interactions", textContains: "Lisbon" },
        respond: [{ error: { code: 503 } }, { reset: true }],
      },
    ]);
    const failure = (await backend
      .createInteraction(body, alice)
      .catch((error) => error)) as ApiError;
    expect(failure.httpStatus).toBe(503);
    const streamed = (async () => {
      for await (const event of backend.streamCreateInteraction(body, alice)) void event;
    })();
    expect(TransportFault.is(await streamed.catch((error) => error))).toBe(true);
    const answered = await backend.createInteraction(body, alice);
    expect(answered.id).toMatch(/^v1_/);
    scenarios.clear("key:alice");
  });

  it("answers an interaction (unary, streamed) with a scenario's text, as the interaction's own output and usage", async () => {
    const body = { model: "gemini-2.5-flash", input: "Where is the ferry to Porto?" };
    scenarios.register("key:alice", [
      {
        match: { operation: "interactions", textContains: "ferry" },
        respond: { text: "Pier 4, at noon." },
        times: 2,
      },
    ]);
    const answered = (await backend.createInteraction(body, alice)) as unknown as {
      status: string;
      steps: { type: string; content?: { text?: string }[] }[];
      usage: { total_output_tokens: number };
    };
    expect(answered.status).toBe("completed");
    const output = answered.steps.find((step) => step.type === "model_output");
    expect(output?.content?.map((part) => part.text).join("")).toBe("Pier 4, at noon.");
    const [answerTokens] = await countTexts("gemma3", ["Pier 4, at noon."]);
    expect(answered.usage.total_output_tokens).toBe(answerTokens);
    const events: unknown[] = [];
    for await (const event of backend.streamCreateInteraction({ ...body, stream: true }, alice))
      events.push(event);
    expect(JSON.stringify(events)).toContain("Pier 4, at noon.");
    // Used up: the engine answers again, in its own words.
    const engine = (await backend.createInteraction(body, alice)) as unknown as {
      steps: { type: string; content?: { text?: string }[] }[];
    };
    expect(JSON.stringify(engine.steps)).not.toContain("Pier 4, at noon.");
    scenarios.clear("key:alice");
  });

  it("throws transport faults for a bare status and a reset, and still validates content answers", async () => {
    scenarios.register("key:alice", [
      {
        match: { operation: "countTokens" },
        respond: [{ httpStatus: 502, bodyText: "Bad Gateway" }, { reset: true }],
      },
    ]);
    const bare = await backend
      .countTokens(MODEL, { contents: ask("x").contents }, alice)
      .catch((error) => error);
    expect(TransportFault.is(bare)).toBe(true);
    expect((bare as TransportFault).fault).toEqual({
      kind: "status",
      httpStatus: 502,
      bodyText: "Bad Gateway",
    });
    const reset = await backend
      .countTokens(MODEL, { contents: ask("x").contents }, alice)
      .catch((error) => error);
    expect((reset as TransportFault).fault.kind).toBe("reset");
    scenarios.clear("key:alice");
    scenarios.register("key:alice", [{ respond: { text: "never" } }]);
    const unknown = (await backend
      .generateContent("models/gemini-0-none", ask("x"), alice)
      .catch((error) => error)) as ApiError;
    expect(unknown.httpStatus).toBe(404);
    scenarios.clear("key:alice");
  });
});

describe("scenario matching among many", () => {
  it("finds, in registration order, the first of thousands that matches, by text, pattern and operation", () => {
    const registry = new ScenarioRegistry();
    registry.register(
      "key:alice",
      Array.from({ length: 3000 }, (_, index) => ({
        match:
          index % 3 === 0
            ? { textContains: `order #${index} is late` }
            : index % 3 === 1
              ? { textMatches: `(?i)ORDER #${index} IS (late|lost)` }
              : { operation: "countTokens", textContains: `order #${index} is late` },
        respond: index % 3 === 2 ? { body: { totalTokens: index } } : { text: `answer ${index}` },
      })),
    );
    registry.register("key:alice", [
      { match: { textContains: "order" }, respond: { text: "any order" } },
    ]);
    const facts = (operation: string, text: string) =>
      readRequestFacts({
        operation,
        model: MODEL,
        request: { contents: [{ role: "user", parts: [{ text }] }] },
      });
    const text = (hit: ReturnType<ScenarioRegistry["take"]>) =>
      (hit?.answer as { text?: string }).text;
    expect(
      text(registry.take("key:alice", facts("generateContent", "my order #2998 is late"))),
    ).toBe("answer 2998");
    expect(
      text(registry.take("key:alice", facts("generateContent", "my order #2999 is lost"))),
    ).toBe("any order");
    expect(
      text(registry.take("key:alice", facts("generateContent", "my Order #2998 is lost"))),
    ).toBe("answer 2998");
    expect(registry.take("key:alice", facts("countTokens", "order #2999 is late"))?.answer).toEqual(
      {
        body: { totalTokens: 2999 },
      },
    );
    expect(text(registry.take("key:alice", facts("generateContent", "order #2999 is late")))).toBe(
      "any order",
    );
    expect(registry.take("key:alice", facts("generateContent", "parcel"))).toBeNull();
  });
});
