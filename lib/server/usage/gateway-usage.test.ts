import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * What the gateway's answers spend, in the usage ledger, for the answers it passes on without
 * modelling them: the OpenAI-compatible endpoint's (unary, and streamed with
 * `stream_options.include_usage`), an embedding answer's, and a background interaction's (first
 * seen ended by a read).
 * The handlers, the gateway's real UpstreamClient and the ledger on a SQLite database of this
 * file's own (it runs in a process of its own), in front of a stand-in upstream answering as
 * the recorded service does (usage of recordings
 * `pydantic/pydantic-ai:tests/models/cassettes/test_openai/test_compatible_api_with_tool_calls_without_id.yaml#0`
 * and the background agent's create, in progress with no usage, of
 * `Arize-ai/openinference:python/instrumentation/openinference-instrumentation-google-genai/tests/cassettes/test_interactions_instrumentation/test_agent_stream.yaml#0`,
 * both in ../shared/conformance/recorded-exchanges-agents; the usage names of an interaction
 * are lib/gemini/interactions/types.ts's).
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-gateway-usage-"));
for (const name of ["DATABASE_URL", "STUDIO_ACCESS_CODE", "GEMINI_API_KEY", "GOOGLE_API_KEY"])
  delete process.env[name];
Object.assign(process.env, { DATA_DIR: dataDir, STUDIO_RATE_LIMIT_PER_MINUTE: "0" });

const { dataStores } = await import("../persistence/database-handle");
const { flushAnswerUsage } = await import("./answer-usage");
const { chatCompletionsHandler, openaiEmbeddingsHandler } = await import("../api/openai");
const { batchEmbedContentsHandler } = await import("../api/embeddings");
const { createInteractionHandler, getInteractionHandler } = await import("../api/interactions");
const { testUpstreamBackend, testUpstreamSettings } =
  await import("@/lib/testing/upstream-backend");
type RequestContext = import("../api/request-context").RequestContext;
type UpstreamBackend = import("../upstream/upstream-backend").UpstreamBackend;

/** The recorded compatible answer's usage: thoughts are what total_tokens counts beyond the rest. */
const RECORDED_USAGE = { completion_tokens: 12, prompt_tokens: 35, total_tokens: 109 };
const INTERACTION_USAGE = {
  total_tokens: 1234,
  total_input_tokens: 34,
  total_cached_tokens: 0,
  total_output_tokens: 1000,
  total_tool_use_tokens: 0,
  total_thought_tokens: 200,
};

/** Reads of each background interaction: the first finds it running, the rest ended. */
const reads = new Map<string, number>();

function standIn(): http.Server {
  let made = 0;
  return http.createServer((request, response) => {
    let body = "";
    request.on("data", (piece: Buffer) => (body += piece.toString()));
    request.on("end", () => {
      const url = request.url ?? "/";
      const json = (value: unknown) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      if (url === "/v1beta/openai/chat/completions") {
        const asked = JSON.parse(body) as {
          stream?: boolean;
          stream_options?: { include_usage?: boolean };
        };
        const message = { role: "assistant", content: 'Noon. "usage": {"prompt_tokens": 1}' };
        if (!asked.stream)
          return json({
            choices: [{ finish_reason: "stop", index: 0, message }],
            model: "gemini-2.5-flash",
            object: "chat.completion",
            usage: RECORDED_USAGE,
          });
        response.writeHead(200, { "content-type": "text/event-stream" });
        const usage = asked.stream_options?.include_usage;
        for (const text of ["Noon", " it is."])
          response.write(
            `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: text } }], ...(usage ? { usage: null } : {}) })}\n\n`,
          );
        if (usage)
          response.write(
            `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [], usage: RECORDED_USAGE })}\n\n`,
          );
        return response.end("data: [DONE]\n\n");
      }
      if (url === "/v1beta/openai/embeddings")
        return json({
          object: "list",
          data: [{ object: "embedding", index: 0, embedding: [0.1, 0.2] }],
          model: "gemini-embedding-2",
          usage: { prompt_tokens: 7, total_tokens: 7 },
        });
      if (url === "/v1beta/models/gemini-embedding-2:batchEmbedContents")
        return json({
          embeddings: [{ values: [0.0032758126, -0.0067946287] }],
          usageMetadata: {
            promptTokenCount: 7,
            promptTokenDetails: [{ modality: "TEXT", tokenCount: 7 }],
          },
        });
      const agent = "deep-research-pro-preview-12-2025";
      if (request.method === "POST" && url === "/v1beta/interactions") {
        const id = `v1_background${++made}`;
        return json({ id, status: "in_progress", object: "interaction", agent });
      }
      const id = url.split("/")[3]!.split("?")[0]!;
      const count = (reads.get(id) ?? 0) + 1;
      reads.set(id, count);
      const ended = {
        id,
        status: "completed",
        usage: INTERACTION_USAGE,
        object: "interaction",
        agent,
      };
      if (!url.includes("stream=true"))
        return json(
          count === 1 ? { id, status: "in_progress", object: "interaction", agent } : ended,
        );
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (const event of [
        { event_type: "interaction.status_update", interaction_id: id, status: "in_progress" },
        { event_type: "interaction.completed", interaction: ended },
      ])
        response.write(`event: ${event.event_type}\ndata: ${JSON.stringify(event)}\n\n`);
      response.end("event: done\ndata: [DONE]\n\n");
    });
  });
}

let server: http.Server;
let backend: UpstreamBackend;

beforeAll(async () => {
  server = standIn();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  backend = testUpstreamBackend(await dataStores(), testUpstreamSettings(url));
});

afterAll(async () => {
  await backend.client.close();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let keys = 0;

/** A caller with a key of its own, so its ledger rows are its own. */
function newCaller() {
  const id = `gateway-key-${++keys}`;
  return {
    ownerId: "person:p1",
    person: { id: "p1", role: "member" as const },
    key: { id, name: id, managed: false },
  };
}

function contextFor(
  caller: ReturnType<typeof newCaller>,
  route: string,
  body: unknown,
  params: Record<string, string> = {},
): RequestContext {
  const url = new URL(`http://studio.test/v1beta/${route}`);
  const request = new Request(url, {
    method: body === null ? "GET" : "POST",
    headers: body === null ? {} : { "content-type": "application/json" },
    body: body === null ? null : JSON.stringify(body),
  });
  return { request, url, params, caller, backend, signal: new AbortController().signal };
}

/** The caller's key's ledger sums of today (after what is waiting is written). */
async function ledger(keyId: string) {
  await flushAnswerUsage();
  const today = new Date().toISOString().slice(0, 10);
  return (await (await dataStores()).usage.summary({ from: today, to: today, keyId })).total;
}

/** The ledger once what a passed-on body spent has been recorded (just after its last byte). */
async function settled(keyId: string, requests: number) {
  let sums = await ledger(keyId);
  for (let tries = 0; sums.requests < requests && tries < 40; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    sums = await ledger(keyId);
  }
  return sums;
}

describe("what the gateway's passed-on answers spend", () => {
  it("records an OpenAI-compatible answer's usage, unary and streamed with include_usage", async () => {
    const caller = newCaller();
    const chat = { model: "gemini-2.5-flash", messages: [{ role: "user", content: "Time?" }] };
    const unary = await chatCompletionsHandler(contextFor(caller, "openai/chat/completions", chat));
    expect(((await unary.json()) as { usage: unknown }).usage).toEqual(RECORDED_USAGE);
    expect(await settled(caller.key.id, 1)).toMatchObject({
      requests: 1,
      promptTokens: 35,
      outputTokens: 12,
      thoughtTokens: 62,
      totalTokens: 109,
    });

    const streamed = await chatCompletionsHandler(
      contextFor(caller, "openai/chat/completions", {
        ...chat,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(await streamed.text()).toContain('"usage":{"completion_tokens":12');
    expect(await settled(caller.key.id, 2)).toMatchObject({ requests: 2, totalTokens: 218 });

    // A stream that carries no usage records none: there is nothing to count.
    const bare = await chatCompletionsHandler(
      contextFor(caller, "openai/chat/completions", { ...chat, stream: true }),
    );
    expect(await bare.text()).not.toContain("usage");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await ledger(caller.key.id)).requests).toBe(2);

    const embedded = await openaiEmbeddingsHandler(
      contextFor(caller, "openai/embeddings", { model: "gemini-embedding-2", input: "rivers" }),
    );
    expect(embedded.status).toBe(200);
    await embedded.text();
    expect(await settled(caller.key.id, 3)).toMatchObject({ requests: 3, totalTokens: 225 });
  });

  it("records an embedding answer's usageMetadata (gemini-embedding-2 reports it)", async () => {
    // The answer of recording pydantic/pydantic-ai:tests/cassettes/test_embeddings/
    // test_google_task_prefix[asymmetric-document-empty-title].yaml#0, shortened.
    const caller = newCaller();
    const answer = await batchEmbedContentsHandler(
      contextFor(
        caller,
        "models/gemini-embedding-2:batchEmbedContents",
        {
          requests: [
            { model: "models/gemini-embedding-2", content: { parts: [{ text: "rivers" }] } },
          ],
        },
        { model: "gemini-embedding-2" },
      ),
    );
    expect(answer.status).toBe(200);
    expect(await settled(caller.key.id, 1)).toMatchObject({
      requests: 1,
      promptTokens: 7,
      totalTokens: 7,
    });
  });

  it("records a background interaction's usage once, when a read first finds it ended", async () => {
    const caller = newCaller();
    const created = await createInteractionHandler(
      contextFor(caller, "interactions", {
        agent: "deep-research-pro-preview-12-2025",
        input: "Research lighthouses.",
        background: true,
      }),
    );
    const { id } = (await created.json()) as { id: string };
    const get = (query = "") =>
      getInteractionHandler(
        contextFor(caller, `interactions/${id}${query}`, null, { interaction: id }),
      );
    expect(((await (await get()).json()) as { status: string }).status).toBe("in_progress");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await ledger(caller.key.id)).requests).toBe(0);
    // Ended: recorded once, whichever reads come after (a get again, a stream to its end).
    expect(((await (await get()).json()) as { status: string }).status).toBe("completed");
    expect(await settled(caller.key.id, 1)).toMatchObject({
      requests: 1,
      promptTokens: 34,
      outputTokens: 1000,
      thoughtTokens: 200,
      totalTokens: 1234,
    });
    await (await get()).text();
    await (await get("?stream=true")).text();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await ledger(caller.key.id)).requests).toBe(1);
  });

  it("records a background interaction first seen ended by a stream", async () => {
    const caller = newCaller();
    const created = await createInteractionHandler(
      contextFor(caller, "interactions", {
        agent: "deep-research-pro-preview-12-2025",
        input: "Research rivers.",
        background: true,
      }),
    );
    const { id } = (await created.json()) as { id: string };
    reads.set(id, 1);
    const streamed = await getInteractionHandler(
      contextFor(caller, `interactions/${id}?stream=true`, null, { interaction: id }),
    );
    expect(await streamed.text()).toContain("interaction.completed");
    expect(await settled(caller.key.id, 1)).toMatchObject({ requests: 1, totalTokens: 1234 });
  });
});
