/**
 * Embeddings and the OpenAI-compatible endpoint over HTTP, in both modes (the local engine
 * with two studio keys, and a gateway in front of a local engine with two of its own): the
 * wire shapes and errors the service answers (recorded-exchanges-agents), the endpoint's
 * Bearer keys and list-wrapped errors, its stream framing, and tenants kept apart (another
 * tenant's embedding batch, or a resource named anywhere in an OpenAI body, is refused).
 */
import { expect, test } from "@playwright/test";
import { api } from "./support/api";
import {
  GATEWAY_KEYS,
  STUDIO_KEYS,
  gatewayServer,
  keyedServer,
  type ServerInfo,
} from "./support/servers";

const MODES: { name: string; server: ServerInfo; alice: string; bob: string }[] = [
  { name: "local engine", server: keyedServer, alice: STUDIO_KEYS.alice, bob: STUDIO_KEYS.bob },
  { name: "gateway", server: gatewayServer, alice: GATEWAY_KEYS.alice, bob: GATEWAY_KEYS.bob },
];

interface ErrorBody {
  error: { code: number; message: string; status: string };
}

/** A call of the OpenAI-compatible endpoint, with the key as OpenAI's clients send it. */
async function openai(
  server: ServerInfo,
  key: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${server.baseUrl}/v1beta/openai/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    text: await response.text(),
  };
}

for (const mode of MODES) {
  test.describe(`embeddings and the OpenAI-compatible endpoint: ${mode.name}`, () => {
    const native = (path: string, body?: unknown, key = mode.alice) =>
      api(path, {
        server: mode.server,
        key,
        ...(body !== undefined ? { method: "POST", body } : {}),
      });

    test("embedContent and batchEmbedContents answer as the service does", async () => {
      const one = await native("/v1beta/models/gemini-embedding-001:embedContent", {
        content: { parts: [{ text: "Some text goes here" }] },
        outputDimensionality: 768,
      });
      expect(one.status, one.text).toBe(200);
      expect(one.headers.get("content-type")).toBe("application/json; charset=UTF-8");
      const embedding = (one.body as { embedding: { values: number[] } }).embedding;
      expect(embedding.values).toHaveLength(768);
      const many = await native("/v1beta/models/gemini-embedding-2:batchEmbedContents", {
        requests: ["First text", "Second text"].map((text) => ({
          model: "models/gemini-embedding-2",
          content: { parts: [{ text }] },
          outputDimensionality: 768,
        })),
      });
      expect(many.status, many.text).toBe(200);
      // Recorded (simonw/llm-gemini test_embedding_batch): two 768-value vectors, 4 tokens.
      expect(many.body).toMatchObject({
        embeddings: [{ values: expect.any(Array) }, { values: expect.any(Array) }],
        usageMetadata: {
          promptTokenCount: 4,
          promptTokenDetails: [{ modality: "TEXT", tokenCount: 4 }],
        },
      });
      const models = await native("/v1beta/models?pageSize=100");
      const names = (models.body as { models: { name: string }[] }).models.map(
        (model) => model.name,
      );
      expect(names).toEqual(
        expect.arrayContaining(["models/gemini-embedding-001", "models/gemini-embedding-2"]),
      );
    });

    test("bad embedding input gets the service's errors, naming the field", async () => {
      const tooWide = await native("/v1beta/models/gemini-embedding-001:batchEmbedContents", {
        requests: [{ content: { parts: [{ text: "x" }] }, outputDimensionality: 5000 }],
      });
      expect(tooWide.status).toBe(400);
      expect((tooWide.body as ErrorBody).error.message).toContain(
        "BatchEmbedContentsRequest.requests[0].output_dimensionality",
      );
      const wrongType = await native("/v1beta/models/gemini-embedding-001:embedContent", {
        content: { parts: [{ text: "x" }] },
        outputDimensionality: "wide",
      });
      expect(wrongType.status).toBe(400);
      expect((wrongType.body as ErrorBody).error.message).toContain("'output_dimensionality'");
      const generator = await native("/v1beta/models/gemini-2.5-flash:embedContent", {
        content: { parts: [{ text: "x" }] },
      });
      expect(generator.status).toBe(404);
      expect((generator.body as ErrorBody).error.message).toBe(
        "models/gemini-2.5-flash is not found for API version v1beta, or is not supported for embedContent. Call ModelService.ListModels to see the list of available models and their supported methods.",
      );
    });

    test("an embedding batch is its creator's only", async () => {
      const created = await native("/v1beta/models/gemini-embedding-001:asyncBatchEmbedContent", {
        batch: {
          display_name: "tenants",
          input_config: {
            requests: { requests: [{ request: { content: { parts: [{ text: "x" }] } } }] },
          },
        },
      });
      expect(created.status, created.text).toBe(200);
      const name = (created.body as { name: string }).name;
      expect((created.body as { metadata: { "@type": string } }).metadata["@type"]).toBe(
        "type.googleapis.com/google.ai.generativelanguage.v1main.EmbedContentBatch",
      );
      expect((await native(`/v1beta/${name}`, undefined, mode.bob)).status).toBe(404);
      expect((await native(`/v1beta/${name}`)).status).toBe(200);
      expect(
        (await api(`/v1beta/${name}`, { server: mode.server, key: mode.alice, method: "DELETE" }))
          .status,
      ).toBe(200);
    });

    test("the OpenAI-compatible endpoint takes Bearer keys and answers in its shapes", async () => {
      const completion = await openai(mode.server, mode.alice, "chat/completions", {
        model: "gemini-2.5-flash",
        messages: [{ role: "user", content: "Say hello." }],
        reasoning_effort: "none",
        max_tokens: 10,
      });
      expect(completion.status, completion.text).toBe(200);
      expect(completion.type).toMatch(/^application\/json/);
      expect(JSON.parse(completion.text)).toMatchObject({
        object: "chat.completion",
        model: "gemini-2.5-flash",
        choices: [{ index: 0, message: { role: "assistant" } }],
      });
      const stream = await openai(mode.server, mode.alice, "chat/completions", {
        model: "gemini-2.5-flash",
        messages: [{ role: "user", content: "Tell me about the sea." }],
        stream: true,
        reasoning_effort: "none",
        max_tokens: 30,
      });
      expect(stream.status).toBe(200);
      expect(stream.type).toMatch(/^text\/event-stream/);
      const events = stream.text.split("\n\n").filter(Boolean);
      expect(events.at(-1)).toBe("data: [DONE]");
      for (const event of events.slice(0, -1)) {
        expect(event.startsWith("data: {")).toBe(true);
        expect((JSON.parse(event.slice(6)) as { object: string }).object).toBe(
          "chat.completion.chunk",
        );
      }
      const models = await openai(mode.server, mode.alice, "models");
      expect(JSON.parse(models.text)).toMatchObject({ object: "list" });
      const model = await openai(mode.server, mode.alice, "models/gemini-2.5-flash");
      expect(JSON.parse(model.text)).toMatchObject({
        id: "models/gemini-2.5-flash",
        object: "model",
      });
    });

    test("the OpenAI-compatible endpoint's errors: the service's body in a list of one, the right status", async () => {
      const unknownField = await openai(mode.server, mode.alice, "chat/completions", {
        model: "gemini-2.5-flash",
        messages: [{ role: "user", content: "hi" }],
        web_search_options: {},
      });
      if (mode.name === "local engine") {
        // The gateway forwards what it does not model; the engine refuses it as the service does.
        expect(unknownField.status).toBe(400);
        const [body] = JSON.parse(unknownField.text) as ErrorBody[];
        expect(body!.error.message).toBe(
          'Invalid JSON payload received. Unknown name "web_search_options": Cannot find field.',
        );
      }
      const wrongTypes = await openai(mode.server, mode.alice, "chat/completions", {
        model: "gemini-2.5-flash",
        messages: [{ role: 7, content: "hi" }],
      });
      expect(wrongTypes.status).toBe(400);
      const [wrong] = JSON.parse(wrongTypes.text) as ErrorBody[];
      expect(wrong!.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
      expect(wrong!.error.message).toContain("messages[0].role");
      const badKey = await openai(mode.server, "not-a-key-of-this-studio", "models");
      expect(badKey.status).toBe(400);
      expect((JSON.parse(badKey.text) as ErrorBody[])[0]!.error.message).toBe(
        "API key not valid. Please pass a valid API key.",
      );
      const embeddingsTooWide = await openai(mode.server, mode.alice, "embeddings", {
        model: "gemini-embedding-001",
        input: "x",
        dimensions: 9999,
      });
      expect(embeddingsTooWide.status).toBe(400);
      expect(embeddingsTooWide.text).toContain("dimensions");
      const nowhere = await openai(mode.server, mode.alice, "responses", { model: "x" });
      expect(nowhere.status).toBe(404);
      expect(Array.isArray(JSON.parse(nowhere.text))).toBe(true);
    });

    test("a resource named anywhere in an OpenAI body must be the caller's", async () => {
      const cache = await native("/v1beta/cachedContents", {
        model: "models/gemini-2.5-flash",
        contents: [{ role: "user", parts: [{ text: "A keeper's log. ".repeat(400) }] }],
        ttl: "300s",
      });
      expect(cache.status, cache.text).toBe(200);
      const name = (cache.body as { name: string }).name;
      const ask = (key: string) =>
        openai(mode.server, key, "chat/completions", {
          model: "gemini-2.5-flash",
          messages: [{ role: "user", content: "What does the log say?" }],
          reasoning_effort: "none",
          max_tokens: 10,
          extra_body: { google: { cached_content: name } },
        });
      expect((await ask(mode.alice)).status).toBe(200);
      const other = await ask(mode.bob);
      expect(other.status).toBe(403);
      expect((JSON.parse(other.text) as ErrorBody[])[0]!.error.status).toBe("PERMISSION_DENIED");
      await api(`/v1beta/${name}`, { server: mode.server, key: mode.alice, method: "DELETE" });
    });
  });
}
