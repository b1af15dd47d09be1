/**
 * The OpenAI-compatible endpoint through the gateway, below HTTP: the handlers' read, the
 * gateway's real UpstreamClient and a local test upstream. Bodies go upstream as the client
 * sent them, with the server's key as the bearer token; answers and streams come back as the
 * upstream sent them, scrubbed; a resource another tenant owns, named anywhere in the body,
 * stops the request before it leaves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestUpstream, type TestUpstream } from "@/e2e/support/test-upstream";
import { ApiError } from "@/lib/gemini/api-error";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { testUpstreamBackend, testUpstreamSettings } from "@/lib/testing/upstream-backend";
import { notingDispatchers } from "@/lib/testing/noting-dispatchers";
import type { RequestContext } from "../api/request-context";
import {
  chatCompletionsHandler,
  openaiEmbeddingsHandler,
  openaiListModelsHandler,
} from "../api/openai";
import type { UpstreamBackend } from "./upstream-backend";
import { UpstreamClient } from "./upstream-client";

const UPSTREAM_KEY = "upstream-secret-key-for-tests-0001";
let upstream: TestUpstream;
let data: TempData;
let backend: UpstreamBackend;

beforeAll(async () => {
  upstream = await startTestUpstream();
  data = await tempData();
  backend = testUpstreamBackend(data.stores, testUpstreamSettings(upstream.url));
  await data.stores.ownership.record("cachedContent", "cachedContents/alicecache", "key:alice");
  await data.stores.ownership.record("file", "files/bobfile", "key:bob");
});

afterAll(async () => {
  await backend.client.close();
  await upstream.close();
  await data.cleanup();
});

function contextFor(path: string, text: string | null, ownerId = "key:alice"): RequestContext {
  const url = new URL(`http://studio.test/v1beta/openai/${path}`);
  const request = new Request(url, {
    method: text === null ? "GET" : "POST",
    headers: text === null ? {} : { "content-type": "application/json" },
    body: text,
  });
  return {
    request,
    url,
    params: {},
    caller: { ownerId },
    backend,
    signal: new AbortController().signal,
  };
}

async function refusal(work: () => Promise<unknown>): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("the OpenAI-compatible endpoint through the gateway", () => {
  it("sends the body as the client sent it, with the key as a bearer token, and passes the answer on", async () => {
    const body = `{"model": "gemini-2.5-flash",  "messages": [{"role": "user", "content": "hi"}],
      "future_option": {"x": 1.50}, "extra_body": {"google": {"cached_content": "cachedContents/alicecache"}}}`;
    const before = upstream.requestsFor("/openai/").length;
    const response = await chatCompletionsHandler(contextFor("chat/completions", body));
    expect(response.status).toBe(200);
    const echo = (await response.json()) as Record<string, unknown>;
    expect(echo).toMatchObject({ method: "POST", path: "/v1beta/openai/chat/completions", body });
    // The upstream's key reached it as a bearer token only, and never comes back to the client.
    expect(echo.keyHeader).toBeNull();
    expect(echo.authorization).not.toContain(UPSTREAM_KEY);
    const sent = upstream.requestsFor("/openai/").slice(before);
    expect(sent.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${UPSTREAM_KEY}`,
    ]);
    expect(sent[0]!.bodyText).toBe(body);
  });

  it("passes a stream on event by event, scrubbed, to its [DONE]", async () => {
    const response = await chatCompletionsHandler(
      contextFor("chat/completions", JSON.stringify({ model: "m", messages: [], stream: true })),
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text();
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    expect(text.split("\n\n").filter(Boolean)).toHaveLength(4);
    expect(text).not.toContain(UPSTREAM_KEY);
  });

  it("refuses a resource of another tenant named as a value, before anything goes upstream", async () => {
    const before = upstream.requestsFor("/openai/").length;
    const bodies = [
      {
        model: "m",
        messages: [
          { role: "user", content: [{ type: "file", file: { file_id: "files/bobfile" } }] },
        ],
      },
      {
        model: "m",
        messages: [],
        extra_body: { google: { cached_content: "cachedContents/nobodys" } },
      },
      { model: "m", input: "http://studio.test/v1beta/files/bobfile" },
    ];
    for (const body of bodies) {
      const error = await refusal(() =>
        chatCompletionsHandler(contextFor("chat/completions", JSON.stringify(body))),
      );
      expect(error.httpStatus).toBe(403);
    }
    // Nothing but `model` and `stream` is modelled: a name anywhere, prose included, counts.
    const prose = await refusal(() =>
      openaiEmbeddingsHandler(
        contextFor(
          "embeddings",
          JSON.stringify({ model: "m", input: "see files/bobfile for details" }),
        ),
      ),
    );
    expect(prose.httpStatus).toBe(403);
    expect(upstream.requestsFor("/openai/").length).toBe(before);
    // One's own resource in prose goes through.
    const own = await openaiEmbeddingsHandler(
      contextFor("embeddings", JSON.stringify({ model: "m", input: "cachedContents/alicecache" })),
    );
    expect(own.status).toBe(200);
    expect(upstream.requestsFor("/openai/").length).toBe(before + 1);
  });

  it("sends a chat completion that asks for a stream as a held call, any other as unary", async () => {
    const { dispatchers, noted } = notingDispatchers();
    const settings = testUpstreamSettings(upstream.url);
    const client = new UpstreamClient(settings, dispatchers);
    const split = testUpstreamBackend(data.stores, settings, { client });
    const context = (body: object) => ({
      ...contextFor("chat/completions", JSON.stringify(body)),
      backend: split,
    });
    try {
      const whole = await chatCompletionsHandler(context({ model: "m", messages: [] }));
      await whole.text();
      const streamed = await chatCompletionsHandler(
        context({ model: "m", messages: [], stream: true }),
      );
      expect(await streamed.text()).toContain("[DONE]");
      expect(noted).toEqual({
        held: ["POST /v1beta/openai/chat/completions"],
        unary: ["POST /v1beta/openai/chat/completions"],
      });
    } finally {
      await client.close();
    }
  });

  it("reads the upstream's list-wrapped error as the error it holds", async () => {
    const error = await refusal(() =>
      chatCompletionsHandler(
        contextFor("chat/completions", JSON.stringify({ model: "bad-request" })),
      ),
    );
    expect(error.httpStatus).toBe(400);
    expect(error.message).toBe("A bad request.");
  });

  it("lists models from the upstream", async () => {
    const response = await openaiListModelsHandler(contextFor("models", null));
    expect(((await response.json()) as { path: string }).path).toBe("/v1beta/openai/models");
  });
});
