/**
 * The gateway against a misbehaving upstream (e2e/support/test-upstream.ts): each fault the
 * issue names, and what the client sees. The fault gateway waits 1.5 s for a first byte and
 * between chunks, makes 3 attempts, caps 2 streams per key and 20 requests at once.
 */
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { startTestUpstream, type TestUpstream } from "./support/test-upstream";
import {
  FAULT_UPSTREAM_KEY,
  GATEWAY_KEYS,
  faultGatewayServer as gateway,
  faultUpstreamPort,
  serverLogFile,
} from "./support/servers";
import {
  gatewayClient,
  recordResponses,
  responsesLeakingSecrets,
  streamError,
  streamRaw,
  streamTexts,
} from "./support/gateway";

test.describe.configure({ mode: "serial" });

let upstream: TestUpstream;
let unique = 0;
const prompt = { contents: [{ role: "user", parts: [{ text: "Hello" }] }] };
const model = (scenario: string) => `${scenario}-${Date.now().toString(36)}${++unique}`;

interface ErrorBody {
  error: {
    code: number;
    status: string;
    message: string;
    details?: { "@type": string; retryDelay?: string }[];
  };
}

async function call(
  path: string,
  options: { method?: string; body?: unknown; key?: string; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers: {
      "x-goog-api-key": options.key ?? GATEWAY_KEYS.alice,
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return {
    status: response.status,
    headers: response.headers,
    body: body as ErrorBody & Record<string, unknown>,
    text,
  };
}

test.beforeAll(async () => {
  recordResponses();
  upstream = await startTestUpstream(faultUpstreamPort);
});

test.afterAll(async () => {
  await upstream?.close();
});

test.describe("what reaches the upstream", () => {
  test("the server key in x-goog-api-key, never the client's key, cookies or other headers", async () => {
    const name = model("ok");
    const response = await call(`/v1beta/models/${name}:countTokens?key=${GATEWAY_KEYS.alice}`, {
      body: prompt,
      key: GATEWAY_KEYS.alice,
      headers: {
        cookie: "genstudio_session=abc; other=1",
        authorization: "Bearer client-token",
        "x-forwarded-for": "203.0.113.9",
        "x-custom-header": "client-value",
        "x-goog-user-project": "client-project",
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ totalTokens: 7 });
    const [seen] = upstream.requestsFor(name);
    expect(seen).toBeDefined();
    expect(seen!.headers["x-goog-api-key"]).toBe(FAULT_UPSTREAM_KEY);
    expect(seen!.url).toBe(`/v1beta/models/${name}:countTokens`);
    for (const header of [
      "cookie",
      "authorization",
      "x-forwarded-for",
      "x-custom-header",
      "x-goog-user-project",
    ]) {
      expect(seen!.headers[header], header).toBeUndefined();
    }
    expect(JSON.stringify(seen!.headers)).not.toContain(GATEWAY_KEYS.alice);
  });

  test("a path outside the API surface is refused and never forwarded", async () => {
    const before = upstream.requests.length;
    for (const path of [
      "/v1beta/tunedModels",
      "/v1beta/models/ok-x:embedContent",
      "/v1beta/models/ok-x:predict",
      "/v1beta/corpora/abc",
      "/v1beta/models/a/b",
      "/v1beta/models/ok-x:batchEmbedContents",
    ]) {
      const response = await call(path);
      expect([404, 405], path).toContain(response.status);
      expect(response.body.error.status, path).toMatch(/NOT_FOUND|UNIMPLEMENTED/);
    }
    expect(upstream.requests.length).toBe(before);
  });

  test("a redirect from the upstream is not followed: 502", async () => {
    const name = model("redirect");
    const response = await call(`/v1beta/models/${name}`);
    expect(response.status).toBe(502);
    expect(response.body.error.message).toContain("redirect");
    expect(upstream.requestsFor(name)).toHaveLength(1);
  });

  test("upstream error messages are passed on without the key or the upstream's address", async () => {
    const response = await call(`/v1beta/models/${model("echo-key")}:countTokens`, {
      body: prompt,
    });
    expect(response.status).toBe(400);
    expect(response.text).not.toContain(FAULT_UPSTREAM_KEY);
    expect(response.text).not.toContain(`127.0.0.1:${faultUpstreamPort}`);
    expect(response.body.error.message).toContain("[redacted]");
  });

  test("a rejected server key is the gateway's problem (502), not 'your key is invalid'", async () => {
    const response = await call(`/v1beta/models/${model("reject-key")}:countTokens`, {
      body: prompt,
    });
    expect(response.status).toBe(502);
    expect(response.body.error.message).toContain("GEMINI_API_KEY");
  });

  test("an upload session URL of the upstream is never shown; a foreign one is refused", async () => {
    const start = await fetch(`${gateway.baseUrl}/upload/v1beta/files`, {
      method: "POST",
      headers: {
        "x-goog-api-key": GATEWAY_KEYS.alice,
        "content-type": "application/json",
        "x-goog-upload-protocol": "resumable",
        "x-goog-upload-command": "start",
        "x-goog-upload-header-content-length": "5",
        "x-goog-upload-header-content-type": "text/plain",
      },
      body: JSON.stringify({ file: { displayName: "mapped" } }),
    });
    expect(start.status).toBe(200);
    const sessionUrl = start.headers.get("x-goog-upload-url")!;
    expect(sessionUrl.startsWith(`${gateway.baseUrl}/upload/v1beta/files?upload_id=`)).toBe(true);
    expect(sessionUrl).not.toContain(String(faultUpstreamPort));
    expect(sessionUrl).not.toContain("session");
    const finish = await fetch(sessionUrl, {
      method: "POST",
      headers: { "x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0" },
      body: "hello",
    });
    expect(finish.status).toBe(200);
    const { file } = (await finish.json()) as {
      file: { name: string; uri: string; sizeBytes: string };
    };
    expect(file.sizeBytes).toBe("5");
    expect(file.uri).toBe(`${gateway.baseUrl}/v1beta/${file.name}`);

    const foreign = await fetch(`${gateway.baseUrl}/upload/v1beta/files`, {
      method: "POST",
      headers: {
        "x-goog-api-key": GATEWAY_KEYS.alice,
        "content-type": "application/json",
        "x-goog-upload-protocol": "resumable",
        "x-goog-upload-command": "start",
      },
      body: JSON.stringify({ file: { displayName: "foreign-url" } }),
    });
    expect(foreign.status).toBe(502);
  });
});

test.describe("retries", () => {
  test("429 with RetryInfo is retried after the delay it asks for", async () => {
    const name = model("flaky-429");
    const started = Date.now();
    const response = await call(`/v1beta/models/${name}:generateContent`, { body: prompt });
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(upstream.requestsFor(name)).toHaveLength(2);
  });

  test("a 429 asking for longer than the gateway waits reaches the client with RetryInfo and Retry-After", async () => {
    const name = model("long-429");
    const response = await call(`/v1beta/models/${name}:generateContent`, { body: prompt });
    expect(response.status).toBe(429);
    expect(response.body.error.status).toBe("RESOURCE_EXHAUSTED");
    expect(response.body.error.details).toContainEqual({
      "@type": "type.googleapis.com/google.rpc.RetryInfo",
      retryDelay: "120s",
    });
    expect(response.headers.get("retry-after")).toBe("120");
    expect(upstream.requestsFor(name)).toHaveLength(1);
  });

  test("503 is retried with backoff up to the attempt limit; 400 never", async () => {
    const flaky = model("flaky-503");
    expect((await call(`/v1beta/models/${flaky}:countTokens`, { body: prompt })).status).toBe(200);
    expect(upstream.requestsFor(flaky)).toHaveLength(2);
    const down = model("always-503");
    const response = await call(`/v1beta/models/${down}`);
    expect(response.status).toBe(503);
    expect(response.body.error.status).toBe("UNAVAILABLE");
    expect(upstream.requestsFor(down)).toHaveLength(3);
    const bad = model("bad-request");
    expect((await call(`/v1beta/models/${bad}:generateContent`, { body: prompt })).status).toBe(
      400,
    );
    expect(upstream.requestsFor(bad)).toHaveLength(1);
  });

  test("a stream refused before its first event is retried; the client sees a clean stream", async () => {
    const name = model("flaky-503");
    const result = await streamRaw(gateway, GATEWAY_KEYS.alice, name, prompt);
    expect(result.status).toBe(200);
    expect(streamTexts(result)).toEqual(["First part. ", "Second part. ", "Last part."]);
    expect(streamError(result)).toBeNull();
    expect(upstream.requestsFor(name)).toHaveLength(2);
  });
});

test.describe("timeouts and broken streams", () => {
  test("an upstream that never answers: 504 DEADLINE_EXCEEDED after the first-byte timeout", async () => {
    const name = model("stall-headers");
    const started = Date.now();
    const response = await call(`/v1beta/models/${name}:generateContent`, { body: prompt });
    expect(response.status).toBe(504);
    expect(response.body.error.status).toBe("DEADLINE_EXCEEDED");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(upstream.requestsFor(name)).toHaveLength(1);
  });

  for (const [scenario, good, status] of [
    ["stall-midstream", 2, "DEADLINE_EXCEEDED"],
    ["drop-midstream", 2, "UNAVAILABLE"],
    ["error-midstream", 2, "INTERNAL"],
    ["malformed-sse", 1, "UNAVAILABLE"],
    ["truncated", 2, "UNAVAILABLE"],
  ] as const) {
    test(`${scenario}: the client keeps the partial output and gets an error object`, async () => {
      const name = model(scenario);
      const result = await streamRaw(gateway, GATEWAY_KEYS.alice, name, prompt);
      expect(result.status).toBe(200);
      expect(streamTexts(result)).toHaveLength(good);
      expect(streamTexts(result)[0]).toBe("First part. ");
      expect(streamError(result)?.status).toBe(status);
      expect(upstream.requestsFor(name)).toHaveLength(1);
    });
  }

  test("the official SDK yields the partial chunks, then throws the mid-stream error", async () => {
    const client = gatewayClient(gateway, GATEWAY_KEYS.alice);
    const texts: string[] = [];
    let failure: unknown = null;
    try {
      const stream = await client.models.generateContentStream({
        model: model("drop-midstream"),
        contents: "Hello",
      });
      for await (const chunk of stream) texts.push(chunk.text ?? "");
    } catch (error) {
      failure = error;
    }
    expect(texts).toEqual(["First part. ", "Second part. "]);
    expect(String(failure)).toMatch(/UNAVAILABLE|closed/);
  });

  test("events pass through one by one as the upstream sends them", async () => {
    const result = await streamRaw(gateway, GATEWAY_KEYS.alice, model("slow-stream"), prompt);
    expect(streamTexts(result)).toHaveLength(40);
    // One event every 100 ms upstream: a buffering gateway would deliver them in a lump, or a
    // few lumps. Most arrive on their own, some way after the one before (a busy machine may
    // bunch a few).
    const spread = result.arrivals.at(-1)! - result.arrivals[0]!;
    expect(spread).toBeGreaterThan(3_000);
    const apart = result.arrivals
      .slice(1)
      .filter((arrival, index) => arrival - result.arrivals[index]! >= 30);
    expect(apart.length).toBeGreaterThanOrEqual(20);
  });

  test("a client that goes away aborts the upstream request", async () => {
    const name = model("slow-stream");
    const controller = new AbortController();
    const response = await fetch(
      `${gateway.baseUrl}/v1beta/models/${name}:streamGenerateContent?alt=sse`,
      {
        method: "POST",
        headers: { "content-type": "application/json", "x-goog-api-key": GATEWAY_KEYS.alice },
        body: JSON.stringify(prompt),
        signal: controller.signal,
      },
    );
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("piece 2")) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    // The upstream's stream would end by itself (not aborted) about 4 s after it began.
    await expect
      .poll(() => upstream.requestsFor(name)[0]?.abortedAt ?? null, { timeout: 10_000 })
      .not.toBeNull();
  });
});

test.describe("a hostile upstream", () => {
  test("a 48 MiB event that never ends is read in linear time and refused while others are served", async () => {
    const waits: number[] = [];
    let running = true;
    const light = (async () => {
      while (running) {
        const started = Date.now();
        await fetch(`${gateway.baseUrl}/api/session`).then((response) => response.text());
        waits.push(Date.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const started = Date.now();
    const result = await streamRaw(
      gateway,
      GATEWAY_KEYS.alice,
      model("hostile-long-event"),
      prompt,
    );
    const took = Date.now() - started;
    running = false;
    await light;
    expect(result.status).toBe(200);
    expect(streamTexts(result)).toEqual(["First part. "]);
    expect(streamError(result)?.status).toBe("UNAVAILABLE");
    // Generous "did not hang" bounds (the reader before this took about two minutes of CPU).
    expect(took).toBeLessThan(30_000);
    waits.sort((a, b) => a - b);
    expect(waits[Math.floor(waits.length * 0.99)] ?? 0).toBeLessThan(5_000);
  });

  test("a large unary answer is passed on while it arrives, not held whole", async () => {
    const name = model("huge-answer");
    const response = await fetch(`${gateway.baseUrl}/v1beta/models/${name}:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": GATEWAY_KEYS.alice },
      body: JSON.stringify(prompt),
    });
    expect(response.status).toBe(200);
    // The answer's head reached the client while the upstream was still sending the rest.
    expect(upstream.requestsFor(name)[0]!.answeredAt).toBeNull();
    const answer = (await response.json()) as {
      candidates: { content: { parts: { inlineData: { data: string } }[] } }[];
    };
    expect(answer.candidates[0]!.content.parts[0]!.inlineData.data).toHaveLength(6 * 1024 * 1024);
  });

  test("2xx answers reach the client without the key in any encoding or the upstream's address", async () => {
    const unary = await call(`/v1beta/models/${model("leaky-answer")}:generateContent`, {
      body: prompt,
    });
    const streamed = await streamRaw(gateway, GATEWAY_KEYS.alice, model("leaky-answer"), prompt);
    for (const text of [unary.text, streamed.text]) {
      const lower = text.toLowerCase();
      expect(lower).not.toContain(FAULT_UPSTREAM_KEY.toLowerCase());
      expect(lower).not.toContain(Buffer.from(FAULT_UPSTREAM_KEY).toString("hex"));
      expect(text).not.toContain(
        Buffer.from(`x${FAULT_UPSTREAM_KEY}`).toString("base64").slice(4, -4),
      );
      expect(lower).not.toContain(`127.0.0.1:${faultUpstreamPort}`);
      expect(text).toContain("[redacted]");
      expect(text).toContain('"uri":');
    }
  });
});

test.describe("limits", () => {
  test("a burst over the per-key rate is answered 429 RESOURCE_EXHAUSTED with RetryInfo and Retry-After", async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => call("/v1beta/models", { key: GATEWAY_KEYS.limited })),
    );
    const refused = responses.filter((response) => response.status === 429);
    const served = responses.filter((response) => response.status === 200);
    expect(served.length).toBeGreaterThanOrEqual(15);
    expect(refused.length).toBeGreaterThanOrEqual(10);
    expect(refused[0]!.body.error.status).toBe("RESOURCE_EXHAUSTED");
    expect(refused[0]!.body.error.details?.[0]).toMatchObject({
      "@type": "type.googleapis.com/google.rpc.RetryInfo",
    });
    expect(Number(refused[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another key is not affected.
    expect((await call("/v1beta/models", { key: GATEWAY_KEYS.bob })).status).toBe(200);
  });

  test("an upload session's keyless commands count against its owner, and query is answered at the gateway", async () => {
    const start = await fetch(`${gateway.baseUrl}/upload/v1beta/files`, {
      method: "POST",
      headers: {
        "x-goog-api-key": GATEWAY_KEYS.uploader,
        "content-type": "application/json",
        "x-goog-upload-protocol": "resumable",
        "x-goog-upload-command": "start",
        "x-goog-upload-header-content-length": "10",
        "x-goog-upload-header-content-type": "text/plain",
      },
      body: JSON.stringify({ file: { displayName: "queried" } }),
    });
    expect(start.status).toBe(200);
    const sessionUrl = start.headers.get("x-goog-upload-url")!;
    const chunk = await fetch(sessionUrl, {
      method: "POST",
      headers: { "x-goog-upload-command": "upload", "x-goog-upload-offset": "0" },
      body: "hello",
    });
    expect(chunk.status).toBe(200);
    const before = upstream.requestsFor("/upload/").length;
    const statuses: number[] = [];
    const received = new Set<string | null>();
    const started = Date.now();
    for (let round = 0; round < 6; round++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(sessionUrl, { method: "POST", headers: { "x-goog-upload-command": "query" } }),
        ),
      );
      for (const answer of answers) {
        statuses.push(answer.status);
        if (answer.status === 200) received.add(answer.headers.get("x-goog-upload-size-received"));
        await answer.arrayBuffer();
      }
    }
    // None of the 300 reached the upstream: the gateway knows the 5 bytes it forwarded.
    expect(upstream.requestsFor("/upload/").length - before).toBe(0);
    expect([...received]).toEqual(["5"]);
    // They used up the owner's rate (burst 20, 2 a second): no more were answered than the
    // burst and what refilled while they ran (however slow the machine), the rest refused,
    // and so is the owner.
    const seconds = (Date.now() - started) / 1000;
    const answered = statuses.filter((status) => status === 200).length;
    expect(answered).toBeLessThanOrEqual(20 + Math.ceil(seconds * 2) + 1);
    expect(statuses.filter((status) => status === 429).length).toBe(statuses.length - answered);
    expect(answered).toBeLessThan(statuses.length / 2);
    // The owner's own calls share that rate: of five at once, at most what refilled meanwhile pass.
    const own = await Promise.all(
      Array.from({ length: 5 }, () => call("/v1beta/models", { key: GATEWAY_KEYS.uploader })),
    );
    expect(own.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(3);
    // A keyless command naming no session reaches nothing.
    const unknown = await fetch(
      `${gateway.baseUrl}/upload/v1beta/files?upload_id=${"x".repeat(32)}&upload_protocol=resumable`,
      { method: "POST", headers: { "x-goog-upload-command": "query" } },
    );
    expect(unknown.status).toBe(404);
    expect(upstream.requestsFor("/upload/").length - before).toBe(0);
  });

  test("the concurrent stream cap refuses a third stream and frees slots when streams end", async () => {
    const controllers = [new AbortController(), new AbortController()];
    const open = controllers.map((controller) =>
      streamRaw(
        gateway,
        GATEWAY_KEYS.streams,
        model("slow-stream"),
        prompt,
        controller.signal,
      ).catch(() => null),
    );
    await expect
      .poll(
        () =>
          upstream.requests.filter(
            (item) =>
              item.url.includes("slow-stream") &&
              item.abortedAt === null &&
              item.receivedAt > Date.now() - 5_000,
          ).length,
      )
      .toBeGreaterThanOrEqual(2);
    const third = await call(`/v1beta/models/${model("ok")}:streamGenerateContent?alt=sse`, {
      key: GATEWAY_KEYS.streams,
      body: prompt,
    });
    expect(third.status).toBe(429);
    expect(third.body.error.status).toBe("RESOURCE_EXHAUSTED");
    expect(third.body.error.message).toContain("streams");
    for (const controller of controllers) controller.abort();
    await Promise.all(open);
    await expect
      .poll(
        async () => (await streamRaw(gateway, GATEWAY_KEYS.streams, model("ok"), prompt)).status,
        { timeout: 5_000 },
      )
      .toBe(200);
  });
});

test("no response of this spec carried an upstream key, and the gateway's log holds none", async () => {
  expect(await responsesLeakingSecrets()).toEqual([]);
  const log = fs.readFileSync(serverLogFile(gateway), "utf8");
  // The echo-key upstream quoted the key in an error the gateway logged: redacted there.
  expect(log).toMatch(/upstream POST \/v1beta\/models\/echo-key-\w+:countTokens answered 400/);
  expect(log).toContain("[redacted]");
  expect(log).not.toContain(FAULT_UPSTREAM_KEY);
});
