import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverEnvironment } from "@/lib/testing/server-environment";

/**
 * Requests through the API surface's route module as the server serves them (the local engine,
 * a real SQLite database of this file's own): each answer's usage reaches the ledger and the
 * metrics, a key that asked for logging gets its requests logged as recorded exchanges (a
 * stream byte for byte, inline media left out, its key scrubbed), a key that did not is not
 * logged, and `GET /metrics` serves this machine only.
 */

const ENV_KEY = "observed-env-key-0123456789";
const dataDir = serverEnvironment(
  "observed",
  {
    STUDIO_API_KEYS: `plain:${ENV_KEY}`,
    STUDIO_RATE_LIMIT_PER_MINUTE: "0",
  },
  ["STUDIO_METRICS_TOKEN", "OTEL_EXPORTER_OTLP_ENDPOINT"],
);

const { POST } = await import("../api/catch-all-route");
const { metricsHandler } = await import("../api/metrics");
const { dataStores } = await import("../persistence/database-handle");
const { keyHashingSecret, forgetIdentities } = await import("../auth/identity-cache");
const { hashKeySecret, keyDisplayPrefix, newKeySecret } = await import("../auth/key-secrets");
const { flushAnswerUsage } = await import("../usage/answer-usage");
const { flushLogEntries } = await import("../logs/log-writer");
const { spendPeriods } = await import("@/lib/studio/key-limits");

const MODEL = "gemini-2.5-flash";
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
let managed: { id: string; secret: string };

function post(pathAndQuery: string, key: string, body: unknown): Request {
  return new Request(`http://127.0.0.1:3000/v1beta/${pathAndQuery}`, {
    method: "POST",
    headers: { "x-goog-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function settle(): Promise<void> {
  // The log entry is queued once the request body's copy is read: let it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  await flushAnswerUsage();
  await flushLogEntries();
}

beforeAll(async () => {
  const stores = await dataStores();
  const secret = newKeySecret();
  const created = await stores.apiKeys.create({
    ownerId: "studio",
    personId: null,
    name: "logged",
    prefix: keyDisplayPrefix(secret),
    secretHash: hashKeySecret(secret, await keyHashingSecret()),
    limits: {},
  });
  managed = { id: created!.id, secret };
  await stores.requestLogs.setSettings(`key:${managed.id}`, {
    retentionDays: 2,
    includeMedia: false,
  });
  forgetIdentities();
});

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("observed API requests", () => {
  it("records usage, logs a logging key's exchanges as recorded exchanges, and counts metrics", async () => {
    const unary = await POST(
      post(`models/${MODEL}:generateContent`, managed.secret, {
        contents: [
          {
            parts: [
              { text: `Describe it. ${managed.secret}` },
              { inlineData: { mimeType: "image/png", data: PIXEL } },
            ],
          },
        ],
      }),
    );
    expect(unary.status).toBe(200);
    const answer = (await unary.json()) as { usageMetadata: { totalTokenCount: number } };
    const stream = await POST(
      post(`models/${MODEL}:streamGenerateContent?alt=sse`, managed.secret, {
        contents: [{ parts: [{ text: "Count to five." }] }],
      }),
    );
    const streamed = await stream.text();
    expect(streamed.startsWith("data: ")).toBe(true);
    const plain = await POST(
      post(`models/${MODEL}:generateContent`, ENV_KEY, {
        contents: [{ parts: [{ text: "Not logged." }] }],
      }),
    );
    expect(plain.status).toBe(200);
    await settle();

    const stores = await dataStores();
    const today = spendPeriods(Date.now()).day;
    const summary = await stores.usage.summary({ from: today, to: today });
    expect(summary.byKey.find((row) => row.keyId === managed.id)?.requests).toBe(2);
    expect(summary.byKey.find((row) => row.keyId === "env:plain")?.requests).toBe(1);
    expect(summary.byModel.map((row) => row.model)).toEqual([MODEL]);
    // The managed key's budget counts the same answers.
    const spend = await stores.limits.readSpend([managed.id], today, today.slice(0, 7));
    expect(spend.get(managed.id)?.dayTokens).toBe(
      summary.byKey.find((row) => row.keyId === managed.id)?.totalTokens,
    );

    const logs = await stores.requestLogs.listWithExchanges({ limit: 10 });
    expect(logs.map((entry) => [entry.operation, entry.keyId])).toEqual([
      ["streamGenerateContent", managed.id],
      ["generateContent", managed.id],
    ]);
    const [streamLine, unaryLine] = logs.map(
      (entry) => JSON.parse(entry.exchangeJson) as Record<string, unknown>,
    );
    expect(streamLine!.responseBody).toBe(streamed);
    expect(streamLine!.query).toEqual({ alt: "sse" });
    expect(streamLine!.responseHeaders).toMatchObject({
      "content-type": expect.stringContaining("text/event-stream"),
    });
    expect(unaryLine!.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(unaryLine!.requestBodyEncoding).toBe("json");
    const parts = (
      unaryLine!.requestBody as { contents: Array<{ parts: Array<Record<string, unknown>> }> }
    ).contents[0]!.parts;
    expect(parts[0]!.text).toBe("Describe it. [redacted]");
    expect(parts[1]).toEqual({
      inlineData: {
        mimeType: "image/png",
        data: `[inline data not logged: ${PIXEL.length} characters]`,
      },
    });
    expect(logs[1]!.totalTokens).toBe(answer.usageMetadata.totalTokenCount);
    for (const entry of logs) expect(entry.exchangeJson).not.toContain(managed.secret);

    const local = await metricsHandler(
      new Request("http://127.0.0.1:3000/metrics", {
        headers: { "x-genstudio-client-address": "127.0.0.1" },
      }),
    );
    expect(local.status).toBe(200);
    const text = await local.text();
    expect(text).toContain(
      `genstudio_requests_total{operation="generateContent",model="${MODEL}",status="200"} 2`,
    );
    expect(text).toContain(
      `genstudio_request_duration_seconds_count{operation="streamGenerateContent",model="${MODEL}",status="200"} 1`,
    );
    const remote = await metricsHandler(
      new Request("http://127.0.0.1:3000/metrics", {
        headers: { "x-genstudio-client-address": "10.1.2.3" },
      }),
    );
    expect(remote.status).toBe(403);
    const proxied = await metricsHandler(
      new Request("http://127.0.0.1:3000/metrics", {
        headers: { "x-genstudio-client-address": "127.0.0.1", "x-forwarded-for": "10.1.2.3" },
      }),
    );
    expect(proxied.status).toBe(403);
  });

  it("names unmatched paths as one label, never as the client wrote them", async () => {
    for (const name of ["a", "b", "c"]) {
      const answer = await POST(post(`${name}/whatever:${name}`, ENV_KEY, {}));
      expect(answer.status).toBe(404);
    }
    const text = await (
      await metricsHandler(
        new Request("http://127.0.0.1:3000/metrics", {
          headers: { "x-genstudio-client-address": "::1" },
        }),
      )
    ).text();
    expect(text).toContain(
      'genstudio_requests_total{operation="unmatched",model="",status="404"} 3',
    );
    expect(text).not.toContain("whatever");
  });
});
