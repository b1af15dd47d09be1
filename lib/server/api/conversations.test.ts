import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverEnvironment } from "@/lib/testing/server-environment";

/**
 * The studio's own routes under the API's limits: every /api call takes a
 * token of the caller's rate, and what conversations store counts against a per-owner quota.
 * The handlers run as the server runs them, on a real SQLite database of their own (this file
 * runs in a process of its own, so its configuration is its alone).
 */

const KEYS = { alice: "alice-key-for-limits-0001", bob: "bob-key-for-limits-000002" };
const QUOTA = 64 * 1024;
const dataDir = serverEnvironment("conversation-limits", {
  STUDIO_API_KEYS: `alice:${KEYS.alice},bob:${KEYS.bob}`,
  STUDIO_RATE_LIMIT_PER_MINUTE: "60",
  STUDIO_RATE_LIMIT_BURST: "40",
  STUDIO_CONVERSATION_QUOTA_BYTES: String(QUOTA),
});

const { conversationHandlers } = await import("./conversations");
const { getPricesHandler } = await import("./prices");
const { dataStores } = await import("../persistence/database-handle");

const settings = {
  model: "models/gemini-2.5-flash",
  systemInstruction: "",
  generationConfig: {},
  safetySettings: [],
};

function post(url: string, key: string, body: unknown): Request {
  return new Request(`http://127.0.0.1:3000${url}`, {
    method: "POST",
    headers: { "x-goog-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

interface ErrorBody {
  error: {
    code: number;
    status: string;
    message: string;
    details?: { "@type": string; quotaMetric?: string; violations?: unknown[] }[];
  };
}

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the studio's routes", () => {
  beforeAll(async () => {
    await dataStores();
  });

  it("refuse conversation writes past the owner's quota with the service's 429 body, and only the owner's", async () => {
    const created = await conversationHandlers.create(
      post("/api/conversations", KEYS.alice, { title: "big", settings }),
    );
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const text = "x".repeat(20 * 1024);
    const statuses: number[] = [];
    let refused: ErrorBody | null = null;
    for (let index = 0; index < 5; index++) {
      const response = await conversationHandlers.appendMessages(
        post(`/api/conversations/${id}/messages`, KEYS.alice, {
          messages: [
            { id: `m${index}`, role: "user", content: { role: "user", parts: [{ text }] } },
          ],
        }),
        id,
      );
      statuses.push(response.status);
      if (response.status === 429) refused = (await response.json()) as ErrorBody;
    }
    // Three 20 KiB messages fit in 64 KiB; the fourth would not.
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(refused!.error.status).toBe("RESOURCE_EXHAUSTED");
    expect(refused!.error.message).toContain("You exceeded your current quota");
    expect(refused!.error.details?.[0]).toMatchObject({
      "@type": "type.googleapis.com/google.rpc.QuotaFailure",
      violations: [{ quotaMetric: "genstudio/conversation_bytes", quotaValue: String(QUOTA) }],
    });
    const used = await (await dataStores()).conversations.usedBytes("key:alice");
    expect(used).toBeGreaterThan(60 * 1024);
    expect(used).toBeLessThanOrEqual(QUOTA);
    // Bob's conversations are his own budget.
    const bobs = await conversationHandlers.create(
      post("/api/conversations", KEYS.bob, { title: "small", settings }),
    );
    expect(bobs.status).toBe(200);
  });

  it("count every call against the caller's rate, as the API does", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 45; index++) {
      const response = await conversationHandlers.list(
        new Request("http://127.0.0.1:3000/api/conversations", {
          headers: { "x-goog-api-key": KEYS.bob },
        }),
      );
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    // Bob spent one token above; the burst of 40 then runs out.
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(40);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(5);
    const limited = await getPricesHandler(
      new Request("http://127.0.0.1:3000/api/prices", { headers: { "x-goog-api-key": KEYS.bob } }),
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another caller is not affected.
    const other = await getPricesHandler(
      new Request("http://127.0.0.1:3000/api/prices", {
        headers: { "x-goog-api-key": KEYS.alice },
      }),
    );
    expect(other.status).toBe(200);
  });
});
