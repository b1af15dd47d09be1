/**
 * The emulator teams test against (README, "Testing your client against Genstudio"): scenarios
 * driven through the official SDK, per-caller isolation of scenarios, logs and cassettes, bad
 * input, the request log, state and time controls, record in gateway mode and replay in local
 * mode (the shared recordings included). Scenarios here use the keyed server's own `tester` and
 * `intruder` keys, so no other spec's requests can meet them. One file, long as its cases are
 * many: they share those keys, their cleanup and the helpers at the end.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ApiError, GoogleGenAI } from "@google/genai";
import { api } from "./support/api";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import {
  STUDIO_KEYS,
  UPSTREAM_KEY,
  chainUpstreamServer,
  gatewayServer,
  GATEWAY_KEYS,
  keyedServer,
} from "./support/servers";

const tester = STUDIO_KEYS.tester;
const intruder = STUDIO_KEYS.intruder;
const sdk = new GoogleGenAI({ apiKey: tester, httpOptions: { baseUrl: keyedServer.baseUrl } });
const MODEL = "gemini-2.5-flash";

const emulator = (urlPath: string, options: Parameters<typeof api>[1] = {}) =>
  api(`/emulator${urlPath}`, { server: keyedServer, key: tester, ...options });

test.describe.configure({ mode: "serial" });

test.beforeEach(async () => {
  for (const key of [tester, intruder]) {
    await emulator("/scenarios", { method: "DELETE", key });
    await emulator("/requests", { method: "DELETE", key });
    await emulator("/controls", { method: "DELETE", key });
    await emulator("/cassettes", { method: "DELETE", key });
  }
});

test("a scripted answer reaches the official SDK in the service's framing, for its caller only", async () => {
  const registered = await emulator("/scenarios", {
    method: "POST",
    body: { match: { textContains: "weather in Paris" }, respond: { text: "Sunny, 21 °C." } },
  });
  expect(registered.status).toBe(200);
  const answer = await sdk.models.generateContent({
    model: MODEL,
    contents: "What is the weather in Paris?",
  });
  expect(answer.text).toBe("Sunny, 21 °C.");
  expect(answer.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);

  const other = new GoogleGenAI({
    apiKey: intruder,
    httpOptions: { baseUrl: keyedServer.baseUrl },
  });
  const theirs = await other.models.generateContent({
    model: MODEL,
    contents: "What is the weather in Paris?",
  });
  expect(theirs.text).not.toBe("Sunny, 21 °C.");

  const stream = await emulator("/scenarios", {
    method: "POST",
    body: {
      match: { operation: "stream" },
      respond: { chunks: ["a", { text: "b", delayMs: 50 }] },
    },
  });
  expect(stream.status).toBe(200);
  const raw = await fetch(
    `${keyedServer.baseUrl}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    {
      method: "POST",
      headers: { "x-goog-api-key": tester, "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "x" }] }] }),
    },
  );
  const text = await raw.text();
  expect(raw.headers.get("content-type")).toBe("text/event-stream");
  expect(text).toMatch(/^data: \{.*\}\r\n\r\ndata: \{.*\}\r\n\r\n$/s);
});

test("times and sequences: the first call fails with the service's error and RetryInfo, then the scripted text, then the engine", async () => {
  await emulator("/scenarios", {
    method: "POST",
    body: {
      match: { operation: "generateContent" },
      respond: [
        {
          error: {
            code: 429,
            details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "7s" }],
          },
        },
        { text: "second" },
      ],
    },
  });
  const first = await api(`/v1beta/models/${MODEL}:generateContent`, {
    server: keyedServer,
    key: tester,
    method: "POST",
    body: { contents: [{ parts: [{ text: "hi" }] }] },
  });
  expect(first.status).toBe(429);
  expect(first.headers.get("retry-after")).toBe("7");
  expect(first.body).toEqual({
    error: {
      code: 429,
      message: "Resource has been exhausted (e.g. check quota).",
      status: "RESOURCE_EXHAUSTED",
      details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "7s" }],
    },
  });
  expect((await sdk.models.generateContent({ model: MODEL, contents: "hi" })).text).toBe("second");
  expect((await sdk.models.generateContent({ model: MODEL, contents: "hi" })).text).not.toBe(
    "second",
  );
});

test("a stream fails after N chunks with an error event; a reset drops the connection; a bare status has no error body", async () => {
  await emulator("/scenarios", {
    method: "POST",
    body: [
      {
        match: { operation: "stream", textContains: "break" },
        respond: { chunks: ["one ", "two ", "three"], failAfterChunks: 2, error: { code: 500 } },
      },
      {
        match: { operation: "countTokens" },
        respond: [{ reset: true }, { httpStatus: 502, bodyText: "Bad Gateway" }],
      },
    ],
  });
  let text = "";
  const failure = await (async () => {
    const stream = await sdk.models.generateContentStream({ model: MODEL, contents: "break it" });
    for await (const chunk of stream) text += chunk.text ?? "";
  })().catch((error: unknown) => error);
  expect(text).toBe("one two ");
  expect(String(failure)).toMatch(/INTERNAL|500/);

  const reset = await fetch(`${keyedServer.baseUrl}/v1beta/models/${MODEL}:countTokens`, {
    method: "POST",
    headers: { "x-goog-api-key": tester, "content-type": "application/json" },
    body: JSON.stringify({ contents: [{ parts: [{ text: "x" }] }] }),
  }).catch((error: unknown) => error);
  expect(reset).toBeInstanceOf(TypeError);

  const bare = await api(`/v1beta/models/${MODEL}:countTokens`, {
    server: keyedServer,
    key: tester,
    method: "POST",
    body: { contents: [{ parts: [{ text: "x" }] }] },
  });
  expect(bare.status).toBe(502);
  expect(bare.text).toBe("Bad Gateway");
});

test("function calls, JSON answers checked against the request's schema, and safety blocks", async () => {
  await emulator("/scenarios", {
    method: "POST",
    body: [
      {
        match: { functionName: "get_weather" },
        respond: { functionCalls: [{ name: "get_weather", args: { city: "Paris" } }] },
      },
      {
        match: { textContains: "json" },
        respond: [{ json: { age: 7 } }, { json: { age: "seven" } }],
      },
      {
        match: { textContains: "unsafe" },
        respond: {
          safetyBlock: {
            target: "prompt",
            ratings: [{ category: "HARM_CATEGORY_HARASSMENT", probability: "HIGH", blocked: true }],
          },
        },
      },
    ],
  });
  const call = await sdk.models.generateContent({
    model: MODEL,
    contents: "weather?",
    config: {
      tools: [
        {
          functionDeclarations: [
            {
              name: "get_weather",
              parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } },
            },
          ],
        },
      ],
    },
  });
  expect(call.functionCalls?.[0]).toMatchObject({ name: "get_weather", args: { city: "Paris" } });

  const config = {
    responseMimeType: "application/json",
    responseJsonSchema: {
      type: "object",
      properties: { age: { type: "integer" } },
      required: ["age"],
    },
  };
  const fits = await sdk.models.generateContent({ model: MODEL, contents: "json please", config });
  expect(JSON.parse(fits.text!)).toEqual({ age: 7 });
  const misfit = await sdk.models
    .generateContent({ model: MODEL, contents: "json please", config })
    .catch((error: unknown) => error);
  expect(misfit).toBeInstanceOf(ApiError);
  expect((misfit as ApiError).message).toMatch(/responseJsonSchema: \$\.age: expected a number/);

  const blocked = await sdk.models.generateContent({ model: MODEL, contents: "unsafe words" });
  expect(blocked.candidates).toBeUndefined();
  expect(blocked.promptFeedback?.blockReason).toBe("SAFETY");
});

test("bad scenarios are a 400 naming the field, and register nothing", async () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ respond: { text: "x" }, match: { operation: "generateContnet" } }, /match\.operation/],
    [
      { respond: { text: "x" }, match: { textMatches: "(a+)\\1" } },
      /match\.textMatches: uses a backreference/,
    ],
    [
      { respond: { text: "x" }, match: { textMatches: "a(?=b)" } },
      /match\.textMatches: uses lookaround/,
    ],
    [{ respond: { text: "x", error: { code: 500 } } }, /respond\.error: does not go with text/],
    [{ respond: { error: { code: 200 } } }, /respond\.error\.code/],
    [[{ respond: { text: "ok" } }, { respond: { reset: false } }], /\[1\]\.respond\.reset/],
    [
      { respond: { text: "x" }, match: { operation: "countTokens" } },
      /match\.operation: names countTokens/,
    ],
    [
      { respond: { text: "x" }, match: { headers: { "x-goog-api-key": "k" } } },
      /credential header/,
    ],
  ];
  for (const [body, field] of cases) {
    const response = await emulator("/scenarios", { method: "POST", body });
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect((response.body as { error: { message: string } }).error.message).toMatch(field);
  }
  const listed = await emulator("/scenarios");
  expect((listed.body as { scenarios: unknown[] }).scenarios).toEqual([]);
});

test("one caller can never read or change another's scenarios, log or cassettes", async () => {
  const created = await emulator("/scenarios", {
    method: "POST",
    body: { respond: { text: "mine" } },
  });
  const id = (created.body as { id: string }).id;
  await sdk.models.generateContent({ model: MODEL, contents: "secret prompt of the tester" });
  await emulator("/cassettes?name=mine", {
    method: "POST",
    body: JSON.stringify({
      method: "GET",
      path: "/v1beta/models",
      status: 200,
      responseBody: "{}",
    }),
    headers: { "content-type": "application/x-ndjson" },
  });

  expect((await emulator(`/scenarios/${id}`, { key: intruder })).status).toBe(404);
  expect((await emulator(`/scenarios/${id}`, { key: intruder, method: "DELETE" })).status).toBe(
    404,
  );
  expect(
    (
      await emulator(`/scenarios/${id}`, {
        key: intruder,
        method: "PUT",
        body: { respond: { text: "x" } },
      })
    ).status,
  ).toBe(404);
  expect((await emulator("/scenarios", { key: intruder })).body).toEqual({ scenarios: [] });
  expect((await emulator("/requests", { key: intruder })).text).not.toContain("secret prompt");
  expect((await emulator("/cassettes", { key: intruder })).body).toEqual({ cassettes: [] });
  expect((await emulator("/cassettes/mine", { key: intruder, method: "DELETE" })).status).toBe(404);
  await emulator("/scenarios", { key: intruder, method: "DELETE" });
  expect((await emulator(`/scenarios/${id}`)).status).toBe(200);
  expect((await emulator("/requests")).text).toContain("secret prompt");
});

test("the request log: filters by operation, model and time, clears, and never shows the key", async () => {
  await emulator("/scenarios", {
    method: "POST",
    body: { match: { textContains: "logged" }, respond: { text: "noted" } },
  });
  const before = Date.now();
  await sdk.models.generateContent({ model: MODEL, contents: "logged one" });
  await sdk.models.countTokens({ model: "gemini-2.0-flash", contents: "count me" });
  await fetch(`${keyedServer.baseUrl}/v1beta/models?key=${tester}`);
  const all = (await emulator("/requests")).body as { requests: Array<Record<string, unknown>> };
  expect(all.requests.map((entry) => entry.operation)).toEqual([
    "generateContent",
    "countTokens",
    "models.list",
  ]);
  const [generation] = all.requests;
  expect(generation).toMatchObject({
    status: 200,
    model: MODEL,
    scenarioId: expect.stringMatching(/^scn_/),
  });
  expect(
    (generation!.usage as { candidatesTokenCount: number }).candidatesTokenCount,
  ).toBeGreaterThan(0);
  expect(JSON.stringify(all)).not.toContain(tester);
  const counted = (await emulator("/requests?model=gemini-2.0-flash")).body as {
    requests: unknown[];
  };
  expect(counted.requests).toHaveLength(1);
  const since = (await emulator(`/requests?operation=generate&since=${before}`)).body as {
    requests: unknown[];
  };
  expect(since.requests).toHaveLength(1);
  expect((await emulator("/requests?since=yesterday")).status).toBe(400);
  await emulator("/requests", { method: "DELETE" });
  expect((await emulator("/requests")).body).toEqual({ requests: [] });
});

test("controls: a clock offset expires a cache; quotas answer the service's QuotaFailure", async () => {
  const cache = await sdk.caches.create({
    model: MODEL,
    config: { contents: "a long document ".repeat(700), ttl: "600s" },
  });
  expect(
    (await emulator("/controls", { method: "PUT", body: { clockOffsetSeconds: 3600 } })).status,
  ).toBe(200);
  const expired = await sdk.caches.get({ name: cache.name! }).catch((error: unknown) => error);
  expect((expired as ApiError).status).toBe(403);
  await emulator("/controls", { method: "DELETE" });
  expect((await sdk.caches.get({ name: cache.name! })).name).toBe(cache.name);
  expect((await emulator(`/${cache.name}:expire`, { method: "POST", key: intruder })).status).toBe(
    404,
  );
  expect((await emulator(`/${cache.name}:expire`, { method: "POST" })).status).toBe(200);
  expect(
    ((await sdk.caches.get({ name: cache.name! }).catch((error: unknown) => error)) as ApiError)
      .status,
  ).toBe(403);

  await emulator("/controls", { method: "PUT", body: { quotas: { requestsPerMinute: 1 } } });
  await sdk.models.generateContent({ model: MODEL, contents: "once" });
  const refused = await api(`/v1beta/models/${MODEL}:generateContent`, {
    server: keyedServer,
    key: tester,
    method: "POST",
    body: { contents: [{ parts: [{ text: "twice" }] }] },
  });
  expect(refused.status).toBe(429);
  const body = refused.body as {
    error: { status: string; details: Array<Record<string, unknown>> };
  };
  expect(body.error.status).toBe("RESOURCE_EXHAUSTED");
  expect(body.error.details[0]).toMatchObject({
    "@type": "type.googleapis.com/google.rpc.QuotaFailure",
    violations: [
      { quotaId: "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", quotaValue: "1" },
    ],
  });
  const bad = await emulator("/controls", {
    method: "PUT",
    body: { quotas: { requestsPerMinute: 0 } },
  });
  expect(bad.status).toBe(400);
  expect(bad.text).toContain("quotas.requestsPerMinute");
});

test("cassettes that are corrupt or of an unknown version are a 400 naming line and field, and add nothing", async () => {
  const good = JSON.stringify({
    method: "GET",
    path: "/v1beta/models",
    status: 200,
    responseBody: "{}",
  });
  const cases: Array<[string, RegExp]> = [
    [`${good}\n{not json`, /line 2: \(line\): is not JSON/],
    [
      JSON.stringify({
        method: "GET",
        path: "/v1beta/models",
        status: 200,
        responseBody: "{}",
        cassetteVersion: 7,
      }),
      /line 1: cassetteVersion: 7 is not a version/,
    ],
    [
      JSON.stringify({ method: "GET", path: "/v1beta/models", status: "ok", responseBody: "{}" }),
      /line 1: status/,
    ],
    ["", /holds no exchange/],
  ];
  for (const [text, problem] of cases) {
    const response = await emulator("/cassettes?name=bad", {
      method: "POST",
      body: text,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(response.status).toBe(400);
    expect(response.text).toMatch(problem);
  }
  expect((await emulator("/cassettes")).body).toEqual({ cassettes: [] });
});

test("the gateway answers the service's 404 under /emulator", async () => {
  const response = await api("/emulator/scenarios", {
    server: gatewayServer,
    key: GATEWAY_KEYS.alice,
  });
  expect(response.status).toBe(404);
  expect(response.body).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
});

test("the shared recordings replay through it, byte for byte", async () => {
  test.setTimeout(180_000);
  // A server of its own: 413 requests in a row are past a studio key's default rate.
  const key = "replay-shared-key-0123456789";
  const server = await startOwnServer({
    dataDir: freshDataDir(),
    env: {
      STUDIO_API_KEYS: `replayer:${key}`,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
    },
  });
  try {
    const own = { ...keyedServer, baseUrl: server.baseUrl };
    const file = path.join("e2e/fixtures/recorded-exchanges/exchanges.jsonl");
    const text = fs.readFileSync(file, "utf8");
    const added = await api("/emulator/cassettes?name=shared&match=exact&pace=full&onMiss=fail", {
      server: own,
      key,
      method: "POST",
      body: text,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(added.status).toBe(200);
    const exchanges = text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Recorded);
    let same = 0;
    for (const exchange of exchanges) {
      const query = new URLSearchParams(exchange.query).toString();
      const response = await fetch(`${server.baseUrl}${exchange.path}${query ? `?${query}` : ""}`, {
        method: exchange.method,
        headers: { "x-goog-api-key": key, ...exchange.requestHeaders },
        body: bodyOf(exchange),
      });
      const answer = await response.text();
      expect(response.status, exchange.id).toBe(exchange.status);
      if (answer === exchange.responseBody) same++;
    }
    expect(same).toBe(exchanges.length);
    const missed = await api(`/v1beta/models/${MODEL}:generateContent`, {
      server: own,
      key,
      method: "POST",
      body: { contents: [{ parts: [{ text: "never recorded" }] }] },
    });
    expect(missed.status).toBe(501);
  } finally {
    await server.stop();
  }
});

interface Recorded {
  id: string;
  method: string;
  path: string;
  query: Record<string, string>;
  requestHeaders: Record<string, string>;
  requestBodyEncoding: "json" | "base64" | "none";
  requestBody?: unknown;
  status: number;
  responseBody: string;
}

function bodyOf(exchange: Recorded): BodyInit | undefined {
  if (exchange.requestBodyEncoding === "json") return JSON.stringify(exchange.requestBody);
  if (exchange.requestBodyEncoding === "base64")
    return new Uint8Array(Buffer.from(exchange.requestBody as string, "base64"));
  return undefined;
}

test.describe("record in gateway mode, replay in local mode", () => {
  let gateway: OwnServer;
  let replay: OwnServer | undefined;
  const recordDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-record-"));
  const keys = { alice: "record-alice-key-0123456789", bob: "record-bob-key-0123456789ab" };

  test.beforeAll(async () => {
    gateway = await startOwnServer({
      dataDir: freshDataDir(),
      env: {
        GEMINI_API_KEY: UPSTREAM_KEY,
        GEMINI_BASE_URL: chainUpstreamServer.baseUrl,
        STUDIO_API_KEYS: `alice:${keys.alice},bob:${keys.bob}`,
        GENSTUDIO_RECORD: recordDir,
      },
    });
  });

  test.afterAll(async () => {
    await gateway?.stop();
    await replay?.stop();
  });

  test("a recording holds the exchange with its timing and no key or upstream address; the local engine replays it to its caller only", async () => {
    test.setTimeout(120_000);
    const prompt = "Record this exchange, please.";
    const client = new GoogleGenAI({
      apiKey: keys.alice,
      httpOptions: { baseUrl: gateway.baseUrl },
    });
    let streamed = "";
    for await (const chunk of await client.models.generateContentStream({
      model: MODEL,
      contents: prompt,
    }))
      streamed += chunk.text ?? "";
    await client.models.countTokens({ model: MODEL, contents: prompt });
    await expect
      .poll(() => recordedLines(recordDir).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);

    const files = recordedFiles(recordDir);
    expect(files).toHaveLength(1);
    expect(path.basename(path.dirname(files[0]!))).toMatch(/^key-alice-[0-9a-f]{8}$/);
    const raw = fs.readFileSync(files[0]!, "utf8");
    expect(raw).not.toContain(UPSTREAM_KEY);
    expect(raw).not.toContain(keys.alice);
    expect(raw).not.toContain(chainUpstreamServer.baseUrl);
    expect(raw).not.toContain(`127.0.0.1:${new URL(chainUpstreamServer.baseUrl).port}`);
    const lines = recordedLines(recordDir);
    const stream = lines.find((line) => line.operation === "streamGenerateContent")!;
    expect(stream).toMatchObject({
      method: "POST",
      status: 200,
      cassetteVersion: 1,
      query: { alt: "sse" },
    });
    expect(stream.responseBody).toMatch(/^data: /);
    expect(stream.responseTiming.chunks.length).toBeGreaterThan(0);

    replay = await startOwnServer({
      dataDir: freshDataDir(),
      env: {
        STUDIO_API_KEYS: `alice:${keys.alice},bob:${keys.bob}`,
        GENSTUDIO_REPLAY: recordDir,
      },
    });
    const replayed = new GoogleGenAI({
      apiKey: keys.alice,
      httpOptions: { baseUrl: replay.baseUrl },
    });
    let again = "";
    for await (const chunk of await replayed.models.generateContentStream({
      model: MODEL,
      contents: prompt,
    }))
      again += chunk.text ?? "";
    expect(again).toBe(streamed);
    const log = await api("/emulator/requests", {
      server: { ...keyedServer, baseUrl: replay.baseUrl },
      key: keys.alice,
    });
    expect(
      (log.body as { requests: Array<{ replayedFrom?: string }> }).requests[0]?.replayedFrom,
    ).toMatch(/#\d+$/);

    const other = new GoogleGenAI({ apiKey: keys.bob, httpOptions: { baseUrl: replay.baseUrl } });
    let theirs = "";
    for await (const chunk of await other.models.generateContentStream({
      model: MODEL,
      contents: prompt,
    }))
      theirs += chunk.text ?? "";
    const bobLog = await api("/emulator/requests", {
      server: { ...keyedServer, baseUrl: replay.baseUrl },
      key: keys.bob,
    });
    expect(
      (bobLog.body as { requests: Array<{ replayedFrom?: string }> }).requests[0]?.replayedFrom,
    ).toBeUndefined();
    expect(
      (
        (
          await api("/emulator/cassettes", {
            server: { ...keyedServer, baseUrl: replay.baseUrl },
            key: keys.bob,
          })
        ).body as { cassettes: unknown[] }
      ).cassettes,
    ).toEqual([]);
    void theirs;
  });
});

function freshDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-e2e-emulator-"));
}

function recordedFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      fs.readdirSync(path.join(dir, entry.name)).map((file) => path.join(dir, entry.name, file)),
    );
}

interface RecordedLine {
  operation: string;
  method: string;
  status: number;
  query: Record<string, string>;
  responseBody: string;
  cassetteVersion?: number;
  responseTiming: { headersMs: number; chunks: Array<[number, number]> };
}

function recordedLines(dir: string): RecordedLine[] {
  return recordedFiles(dir).flatMap((file) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordedLine),
  );
}
