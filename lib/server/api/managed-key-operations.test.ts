import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverEnvironment } from "@/lib/testing/server-environment";

/**
 * A managed key's limits and spend on the operations that name their model in the body or
 * answer in a shape of their own: embeddings, the OpenAI-compatible endpoint and the
 * Interactions API. Requests go through the API's one entry (router.ts) to the local engine,
 * on a real SQLite database of this file's own (it runs in a process of its own); keys are
 * made in the database as the studio makes them.
 */

const dataDir = serverEnvironment("managed-key-operations", {
  STUDIO_API_KEYS: "ops:ops-key-for-managed-key-tests-01",
  STUDIO_RATE_LIMIT_PER_MINUTE: "0",
});

const { handleApiRequest } = await import("./router");
const { dataStores } = await import("../persistence/database-handle");
const { keyHashingSecret, forgetIdentities } = await import("../auth/identity-cache");
const { hashKeySecret, keyDisplayPrefix, newKeySecret } = await import("../auth/key-secrets");
const { flushAnswerUsage } = await import("../usage/answer-usage");
const { spendPeriods } = await import("@/lib/studio/key-limits");

type Limits = { models?: string[]; tokensPerDay?: number };

/** A key made as the studio makes one: its secret, and its id for reading its spend. */
async function managedKey(limits: Limits): Promise<{ secret: string; id: string }> {
  const secret = newKeySecret();
  const created = await (
    await dataStores()
  ).apiKeys.create({
    ownerId: "person:tester",
    personId: null,
    name: `key ${Math.random()}`,
    prefix: keyDisplayPrefix(secret),
    secretHash: hashKeySecret(secret, await keyHashingSecret()),
    limits,
  });
  forgetIdentities();
  return { secret, id: created!.id };
}

async function dayTokens(keyId: string): Promise<number> {
  await flushAnswerUsage();
  const { day, month } = spendPeriods(Date.now());
  const spend = await (await dataStores()).limits.readSpend([keyId], day, month);
  return spend.get(keyId)?.dayTokens ?? 0;
}

/** A POST with the key as each surface's clients send it (OpenAI's as a bearer token). */
function post(route: string, secret: string, body: unknown): Promise<Response> {
  const bearer = route.startsWith("/v1beta/openai/");
  return handleApiRequest(
    new Request(`http://127.0.0.1:3000${route}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(bearer ? { authorization: `Bearer ${secret}` } : { "x-goog-api-key": secret }),
      },
      body: JSON.stringify(body),
    }),
  );
}

const CHAT = "/v1beta/openai/chat/completions";
const OPENAI_EMBEDDINGS = "/v1beta/openai/embeddings";
const INTERACTIONS = "/v1beta/interactions";
const embed = (model: string) => `/v1beta/models/${model}:embedContent`;
const batchEmbed = (model: string) => `/v1beta/models/${model}:batchEmbedContents`;
const chat = (model: string, extra: object = {}) => ({
  model,
  messages: [{ role: "user", content: "Tell me about rivers." }],
  max_tokens: 20,
  ...extra,
});
const interaction = (model: string, extra: object = {}) => ({
  model,
  input: "Tell me about rivers.",
  generation_config: { max_output_tokens: 20 },
  ...extra,
});

beforeAll(async () => {
  await dataStores();
});

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a managed key on embeddings, the OpenAI-compatible endpoint and Interactions", () => {
  it("may call only its models, named in the path or the body, each refusal in its surface's shape", async () => {
    const { secret } = await managedKey({ models: ["gemini-2.5-flash", "gemini-embedding-2"] });
    const text = { content: { parts: [{ text: "rivers" }] } };

    const refused = [
      await post(embed("gemini-embedding-001"), secret, text),
      await post(batchEmbed("gemini-embedding-001"), secret, {
        requests: [{ model: "models/gemini-embedding-001", ...text }],
      }),
      await post(CHAT, secret, chat("gemini-2.5-pro")),
      await post(CHAT, secret, chat("models/gemini-2.5-pro", { stream: true })),
      await post(OPENAI_EMBEDDINGS, secret, { model: "gemini-embedding-001", input: "rivers" }),
      await post(INTERACTIONS, secret, interaction("gemini-2.5-pro")),
      await post(INTERACTIONS, secret, interaction("gemini-2.5-pro", { stream: true })),
      // A body that names no model as a string names none the key may call.
      await post(CHAT, secret, { ...chat("x"), model: ["gemini-2.5-flash"] }),
    ];
    expect(refused.map((response) => response.status)).toEqual(Array(8).fill(403));
    const bodies = await Promise.all(refused.map((response) => response.json()));
    expect(bodies[0]).toMatchObject({ error: { status: "PERMISSION_DENIED" } });
    // The OpenAI-compatible endpoint's error is the service's body in a list of one.
    expect(bodies[2]).toMatchObject([{ error: { status: "PERMISSION_DENIED" } }]);
    expect(bodies[4]).toMatchObject([{ error: { status: "PERMISSION_DENIED" } }]);
    expect(bodies[5].error.message).toContain("may not call model gemini-2.5-pro");
    expect(bodies[5].error.status).toBeUndefined();

    const allowed = [
      await post(embed("gemini-embedding-2"), secret, text),
      await post(CHAT, secret, chat("gemini-2.5-flash")),
      await post(OPENAI_EMBEDDINGS, secret, { model: "gemini-embedding-2", input: "rivers" }),
      await post(INTERACTIONS, secret, interaction("gemini-2.5-flash")),
    ];
    expect(allowed.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  });

  it("spends what each answer reports, streams included", async () => {
    const { secret, id } = await managedKey({});
    const spent = async (call: () => Promise<Response>): Promise<[number, unknown]> => {
      const before = await dayTokens(id);
      const response = await call();
      expect(response.status).toBe(200);
      const text = await response.text();
      let after = await dayTokens(id);
      // A stream's usage is recorded as it ends, just after its last byte.
      for (let tries = 0; after === before && tries < 20; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        after = await dayTokens(id);
      }
      return [after - before, text.startsWith("{") ? JSON.parse(text) : text];
    };

    const [embedded, embedding] = await spent(() =>
      post(embed("gemini-embedding-2"), secret, { content: { parts: [{ text: "river banks" }] } }),
    );
    expect(embedded).toBe(
      (embedding as { usageMetadata: { promptTokenCount: number } }).usageMetadata.promptTokenCount,
    );
    expect(embedded).toBeGreaterThan(0);

    const [batched] = await spent(() =>
      post(batchEmbed("gemini-embedding-2"), secret, {
        requests: ["one river", "two rivers"].map((text) => ({
          model: "models/gemini-embedding-2",
          content: { parts: [{ text }] },
        })),
      }),
    );
    expect(batched).toBeGreaterThan(0);

    const [chatted, completion] = await spent(() => post(CHAT, secret, chat("gemini-2.5-flash")));
    expect(chatted).toBe((completion as { usage: { total_tokens: number } }).usage.total_tokens);

    // No stream_options.include_usage: the chunks carry no usage, the key spends anyway.
    const [streamed, chunks] = await spent(() =>
      post(CHAT, secret, chat("gemini-2.5-flash", { stream: true })),
    );
    expect(chunks as string).not.toContain('"usage"');
    expect(streamed).toBeGreaterThan(0);

    const [vectors, listed] = await spent(() =>
      post(OPENAI_EMBEDDINGS, secret, { model: "gemini-embedding-2", input: ["a", "b c"] }),
    );
    expect(vectors).toBe((listed as { usage: { total_tokens: number } }).usage.total_tokens);

    const [interacted, created] = await spent(() =>
      post(INTERACTIONS, secret, interaction("gemini-2.5-flash")),
    );
    expect(interacted).toBe((created as { usage: { total_tokens: number } }).usage.total_tokens);

    const [eventsSpent, events] = await spent(() =>
      post(INTERACTIONS, secret, interaction("gemini-2.5-flash", { stream: true })),
    );
    const completed = (events as string)
      .split("\n\n")
      .find((block) => block.startsWith("event: interaction.completed"))!;
    const total = (
      JSON.parse(completed.slice(completed.indexOf("data: ") + 6)) as {
        interaction: { usage: { total_tokens: number } };
      }
    ).interaction.usage.total_tokens;
    expect(eventsSpent).toBe(total);
  });

  it("spends what a background interaction reports once its run ends, after the create answered", async () => {
    const { secret, id } = await managedKey({});
    const before = await dayTokens(id);
    // Agents run only in the background (the model entries refuse it); a report takes seconds.
    const created = await post(INTERACTIONS, secret, {
      agent: "deep-research-pro-preview-12-2025",
      input: "Research the history of lighthouses.",
      background: true,
    });
    if (created.status !== 200) throw new Error(await created.text());
    const { id: interactionId } = (await created.json()) as { id: string };
    let ended: { status: string; usage?: { total_tokens: number } } = { status: "in_progress" };
    for (let tries = 0; ended.status === "in_progress" && tries < 300; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const read = await handleApiRequest(
        new Request(`http://127.0.0.1:3000${INTERACTIONS}/${interactionId}`, {
          headers: { "x-goog-api-key": secret },
        }),
      );
      ended = (await read.json()) as typeof ended;
    }
    expect(ended.status).toBe("completed");
    expect(ended.usage!.total_tokens).toBeGreaterThan(0);
    let spent = (await dayTokens(id)) - before;
    for (let tries = 0; spent === 0 && tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      spent = (await dayTokens(id)) - before;
    }
    expect(spent).toBe(ended.usage!.total_tokens);
    // Reading it again spends nothing more.
    await handleApiRequest(
      new Request(`http://127.0.0.1:3000${INTERACTIONS}/${interactionId}`, {
        headers: { "x-goog-api-key": secret },
      }),
    );
    expect((await dayTokens(id)) - before).toBe(ended.usage!.total_tokens);
  });

  it("is held to its budget once its answers have spent it, on every surface", async () => {
    const { secret } = await managedKey({ tokensPerDay: 1 });
    expect((await post(CHAT, secret, chat("gemini-2.5-flash"))).status).toBe(200);
    await flushAnswerUsage();
    const refused = [
      await post(CHAT, secret, chat("gemini-2.5-flash")),
      await post(OPENAI_EMBEDDINGS, secret, { model: "gemini-embedding-2", input: "rivers" }),
      await post(INTERACTIONS, secret, interaction("gemini-2.5-flash")),
      await post(embed("gemini-embedding-2"), secret, {
        content: { parts: [{ text: "rivers" }] },
      }),
    ];
    expect(refused.map((response) => response.status)).toEqual([429, 429, 429, 429]);
    expect(await refused[0]!.json()).toMatchObject([{ error: { status: "RESOURCE_EXHAUSTED" } }]);
  });
});
