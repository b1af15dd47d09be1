/**
 * Every generating operation at and over its limits, against a production server of this
 * spec's own: each case answers what the service answers (a result within the limit, the
 * service's error body naming the field over it), the server stays up, and another caller's
 * light countTokens, sent every 50 ms throughout, keeps being answered. The bounds are
 * generous ("did not hang"); bench/hostile-input.mjs carries the real figures. One line of
 * OPERATIONS adds a case (the Interactions API has its own, as each operation the service grows).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { OUTPUT_LIMIT_REQUEST } from "./support/long-request.mjs";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const KEY = "hostile-operations-spec-key-0123456789";
/** Longest a light request may wait while a hostile one runs. */
const LIGHT_BOUND_MS = 10_000;
const TTS = "gemini-2.5-flash-preview-tts";
/** About `count` words of plain English (a token a word). */
const words = (count: number) =>
  "The quick brown fox jumps over the lazy dog. ".repeat(Math.ceil(count / 9));

interface Answer {
  status: number;
  body: Record<string, unknown> & {
    error?: { code: number | string; status?: string; message: string };
  };
}

interface HostileCase {
  operation: "text" | "speech" | "picture" | "batch" | "interactions";
  name: string;
  /** The request: a path under /v1beta/ and its body. */
  path: string;
  body: unknown;
  status: number;
  /** What the service's error says (the field it names), for an error. */
  error?: RegExp;
  /** The error's code, when not the HTTP status (the Interactions API's are words). */
  errorCode?: string;
  /** More about a successful answer. */
  check?: (answer: Answer) => void | Promise<void>;
}

const generate = (model: string) => `models/${model}:generateContent`;
const inlineData = (answer: Answer) =>
  (
    answer.body.candidates as { content?: { parts: { inlineData?: { data: string } }[] } }[]
  )[0]?.content?.parts.flatMap((part) => (part.inlineData ? [part.inlineData.data] : [])) ?? [];
const finishReason = (answer: Answer) =>
  (answer.body.candidates as { finishReason: string }[])[0]!.finishReason;

const OPERATIONS: HostileCase[] = [
  {
    operation: "text",
    name: "a 1 MiB prompt",
    path: generate("gemini-2.5-flash"),
    body: {
      contents: [{ parts: [{ text: "Ab x ".repeat(200_000) }] }],
      generationConfig: { maxOutputTokens: 16, thinkingConfig: { thinkingBudget: 0 } },
    },
    status: 200,
  },
  {
    operation: "text",
    name: "a prompt over the input limit",
    path: generate("gemini-2.5-flash"),
    body: { contents: [{ parts: [{ text: "Ab x ".repeat(1_100_000) }] }] },
    status: 400,
    error: /exceeds the maximum number of tokens allowed \(1048576\)/,
  },
  {
    operation: "text",
    name: "maxOutputTokens over the output limit",
    path: generate("gemini-2.5-flash"),
    body: {
      contents: [{ parts: [{ text: "Hi" }] }],
      generationConfig: { maxOutputTokens: 65_537 },
    },
    status: 400,
    error: /max_output_tokens must be at most 65536/,
  },
  {
    operation: "speech",
    name: "a few thousand words, up to the output limit",
    path: generate(TTS),
    body: {
      contents: [{ parts: [{ text: words(3_000) }] }],
      generationConfig: { responseModalities: ["AUDIO"] },
    },
    status: 200,
    check: (answer) => {
      expect(finishReason(answer)).toBe("MAX_TOKENS");
      // 16,384 tokens at 32 a second of 24 kHz 16-bit audio.
      expect(Buffer.from(inlineData(answer).join(""), "base64").length).toBe(16_384 * 1_500);
    },
  },
  {
    operation: "speech",
    name: "a prompt over the input limit",
    path: generate(TTS),
    body: {
      contents: [{ parts: [{ text: words(12_000) }] }],
      generationConfig: { responseModalities: ["AUDIO"] },
    },
    status: 400,
    error: /exceeds the maximum number of tokens allowed \(8192\)/,
  },
  {
    operation: "speech",
    name: "maxOutputTokens over the output limit",
    path: generate(TTS),
    body: {
      contents: [{ parts: [{ text: "Hello" }] }],
      generationConfig: { responseModalities: ["AUDIO"], maxOutputTokens: 16_385 },
    },
    status: 400,
    error: /max_output_tokens must be at most 16384/,
  },
  {
    operation: "picture",
    name: "an output limit that holds the picture exactly",
    path: generate("gemini-2.5-flash-image"),
    body: {
      contents: [{ parts: [{ text: "A lighthouse at dusk. ".repeat(4_000) }] }],
      generationConfig: { responseModalities: ["IMAGE"], maxOutputTokens: 1_290 },
    },
    status: 200,
    check: (answer) => expect(inlineData(answer)).toHaveLength(1),
  },
  {
    operation: "picture",
    name: "an output limit too small for a picture",
    path: generate("gemini-2.5-flash-image"),
    body: {
      contents: [{ parts: [{ text: "A lighthouse at dusk." }] }],
      generationConfig: { responseModalities: ["IMAGE"], maxOutputTokens: 1_289 },
    },
    status: 200,
    check: (answer) => {
      expect(finishReason(answer)).toBe("MAX_TOKENS");
      expect(inlineData(answer)).toHaveLength(0);
    },
  },
  {
    operation: "picture",
    name: "maxOutputTokens over the output limit",
    path: generate("gemini-2.5-flash-image"),
    body: {
      contents: [{ parts: [{ text: "A lighthouse" }] }],
      generationConfig: { responseModalities: ["IMAGE"], maxOutputTokens: 32_769 },
    },
    status: 400,
    error: /max_output_tokens must be at most 32768/,
  },
  {
    operation: "batch",
    name: "a request at the output limit beside one over it",
    path: "models/gemini-2.5-flash:batchGenerateContent",
    body: {
      batch: {
        inputConfig: {
          requests: {
            requests: [
              { request: OUTPUT_LIMIT_REQUEST },
              {
                request: {
                  contents: [{ parts: [{ text: "Hi" }] }],
                  generationConfig: { maxOutputTokens: 65_537 },
                },
              },
            ],
          },
        },
      },
    },
    status: 200,
    check: async (answer) => {
      const outcome = await batchOutcome(String(answer.body.name));
      expect(outcome.state).toBe("BATCH_STATE_SUCCEEDED");
      const [atLimit, over] = outcome.responses;
      expect(atLimit!.response?.candidates[0]?.finishReason).toBe("MAX_TOKENS");
      expect(over!.error).toMatchObject({ code: 3 });
      expect(over!.error!.message).toMatch(/max_output_tokens must be at most 65536/);
    },
  },
  {
    operation: "interactions",
    name: "an input over the input limit",
    path: "interactions",
    body: { model: "gemini-2.5-flash", input: "Ab x ".repeat(1_100_000) },
    status: 400,
    error: /exceeds the maximum number of tokens allowed \(1048576\)/,
    errorCode: "invalid_request",
  },
  {
    operation: "interactions",
    name: "max_output_tokens over the output limit",
    path: "interactions",
    body: {
      model: "gemini-2.5-flash",
      input: "Hi",
      generation_config: { max_output_tokens: 65_537 },
    },
    status: 400,
    error: /max_output_tokens must be at most 65536/,
    errorCode: "invalid_request",
  },
  {
    operation: "interactions",
    name: "speech of a few thousand words, up to the output limit, and read again",
    path: "interactions",
    body: { model: TTS, input: words(3_000), response_modalities: ["AUDIO"] },
    status: 200,
    check: async (answer) => {
      expect(answer.body.status).toBe("incomplete");
      // 16,384 tokens at 32 a second of 24 kHz 16-bit audio, as generateContent makes it.
      expect(audioBytes(answer)).toBe(16_384 * 1_500);
      // Read back from the store, its audio in pieces, while the light requests go on.
      const read = await call(`interactions/${String(answer.body.id)}`);
      expect(read.status).toBe(200);
      expect(audioBytes(read)).toBe(16_384 * 1_500);
    },
  },
];

/** Bytes of the audio in an interaction's steps. */
function audioBytes(answer: Answer): number {
  const steps = answer.body.steps as { content?: { type: string; data?: string }[] }[];
  return steps
    .flatMap((step) => step.content ?? [])
    .filter((content) => content.type === "audio")
    .reduce((sum, content) => sum + Buffer.from(content.data!, "base64").length, 0);
}

let server: OwnServer;

test.beforeAll(async () => {
  server = await startOwnServer({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-hostile-operations-")),
    env: { STUDIO_API_KEYS: `spec:${KEY}`, STUDIO_RATE_LIMIT_PER_MINUTE: "0" },
  });
  // Warm up, so only the hostile requests are measured.
  for (let index = 0; index < 3; index++) expect((await light()).status).toBe(200);
});

test.afterAll(async () => {
  if (!server) return;
  await server.stop("SIGTERM");
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

async function call(route: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}/v1beta/${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

function light(): Promise<Answer> {
  return call("models/gemini-2.5-flash:countTokens", {
    contents: [{ parts: [{ text: "Still here?" }] }],
  });
}

type BatchResponse = { candidates: { finishReason: string }[] };

/** A batch once it ended: its state and inline responses. */
async function batchOutcome(name: string) {
  let operation: Answer["body"] = {};
  await expect
    .poll(
      async () => {
        operation = (await call(name)).body;
        return operation.done === true;
      },
      { timeout: 120_000 },
    )
    .toBe(true);
  const metadata = operation.metadata as { state: string };
  const output = operation.response as
    | {
        inlinedResponses?: {
          inlinedResponses: {
            response?: BatchResponse;
            error?: { code: number; message: string };
          }[];
        };
      }
    | undefined;
  return { state: metadata.state, responses: output?.inlinedResponses?.inlinedResponses ?? [] };
}

/** Runs `work` while a light countTokens goes every 50 ms; their latencies and statuses. */
async function whileLightRequestsRun<T>(work: () => Promise<T>) {
  const latencies: number[] = [];
  const statuses: number[] = [];
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const begun = performance.now();
    const done = light().then((answer) => {
      statuses.push(answer.status);
      latencies.push(performance.now() - begun);
      pending.delete(done);
    });
    pending.add(done);
  }, 50);
  try {
    return { value: await work(), latencies, statuses };
  } finally {
    clearInterval(timer);
    await Promise.all(pending);
  }
}

for (const hostile of OPERATIONS) {
  test(`${hostile.operation}: ${hostile.name} answers ${hostile.status}, and others are served meanwhile`, async () => {
    const run = await whileLightRequestsRun(async () => {
      const answer = await call(hostile.path, hostile.body);
      expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(hostile.status);
      if (hostile.error) {
        expect(answer.body.error).toMatchObject({ code: hostile.errorCode ?? hostile.status });
        expect(answer.body.error!.message).toMatch(hostile.error);
      }
      await hostile.check?.(answer);
    });
    void run.value;
    expect(server.alive()).toBe(true);
    expect(run.statuses.every((status) => status === 200)).toBe(true);
    if (run.latencies.length) expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
  });
}
