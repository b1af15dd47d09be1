/**
 * No one request holds the server. Against a production server of this spec's own,
 * with bench/event-loop-probe.cjs preloaded (it notes the longest the main thread went without
 * serving its event loop, in its own CPU time, which a busy machine hardly moves): 8 MB
 * requests of many small parts, of a function call with a wide object of arguments, and of a
 * declaration with a hundred thousand properties each keep the longest block far below what
 * they cost when they were parsed, read, checked and counted in one go (0.5 to 0.85 s of CPU
 * each; now tens of milliseconds), and a light countTokens keeps being answered meanwhile.
 * Generous bounds; bench/hostile-input.mjs carries the real figures.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const KEY = "hostile-input-spec-key-0123456789";
const MiB = 2 ** 20;
/**
 * Longest main-thread block allowed during a hostile request, in CPU milliseconds: well under
 * the 500 to 850 ms such a request cost in one go, and above what one collection of the whole
 * heap can take on a loaded two-core machine (a fresh-clone run measured a 187 ms block once;
 * the requests' own slices are tens of milliseconds, bench/hostile-input.mjs).
 */
const BLOCK_BOUND_MS = 300;
/** Longest a light request may wait while one runs. */
const LIGHT_BOUND_MS = 5_000;

const generationConfig = { maxOutputTokens: 16, thinkingConfig: { thinkingBudget: 0 } };

let server: OwnServer;
let probeFile: string;

test.beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-hostile-spec-"));
  probeFile = path.join(dataDir, "event-loop-probe.log");
  const probe = path.resolve("bench/event-loop-probe.cjs");
  server = await startOwnServer({
    dataDir,
    env: {
      STUDIO_API_KEYS: `spec:${KEY}`,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${probe}`.trim(),
      GENSTUDIO_EVENT_LOOP_PROBE: probeFile,
    },
  });
  // Warm up (the tokenizer, the model and the body readers loaded), so only the hostile
  // requests are measured.
  for (let index = 0; index < 3; index++)
    expect((await call("countTokens", LIGHT)).status).toBe(200);
  const hello = { contents: [{ parts: [{ text: "Hi" }] }], generationConfig };
  expect((await call("generateContent", JSON.stringify(hello))).status).toBe(200);
});

test.afterAll(async () => {
  if (!server) return;
  await server.stop("SIGTERM");
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

async function call(operation: string, body: string): Promise<Response> {
  return fetch(`${server.baseUrl}/v1beta/models/gemini-2.5-flash:${operation}`, {
    method: "POST",
    headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
    body,
  });
}

const LIGHT = JSON.stringify({ contents: [{ parts: [{ text: "Still here?" }] }] });

/** The longest main-thread block (CPU ms) the probe noted between two moments. */
function longestBlock(from: number, to: number): number {
  let longest = 0;
  for (const line of fs.readFileSync(probeFile, "utf8").split("\n")) {
    const [at, , cpu] = line.split(" ").map(Number);
    if (at! >= from && at! <= to + 200) longest = Math.max(longest, cpu!);
  }
  return longest;
}

/** Sends `body` while a light countTokens goes every 50 ms; the block and the light latencies. */
async function whileLightRequestsRun(body: string) {
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const begun = performance.now();
    const done = call("countTokens", LIGHT).then(async (response) => {
      expect(response.status).toBe(200);
      await response.text();
      latencies.push(performance.now() - begun);
      pending.delete(done);
    });
    pending.add(done);
  }, 50);
  const from = Date.now();
  const response = await call("generateContent", body);
  const answer = (await response.json()) as { error?: { message: string } };
  clearInterval(timer);
  await Promise.all(pending);
  return { status: response.status, answer, latencies, block: longestBlock(from, Date.now()) };
}

const SHAPES: Record<string, (bytes: number) => object> = {
  "many small parts": (bytes) => ({
    contents: [
      {
        role: "user",
        parts: Array.from({ length: Math.floor(bytes / 17) }, (_, index) => ({
          text: `w${index % 1000} `,
        })),
      },
    ],
  }),
  "a function call with a wide object of arguments": (bytes) => ({
    contents: [
      { role: "user", parts: [{ text: "Look it up." }] },
      {
        role: "model",
        parts: [
          {
            functionCall: {
              name: "lookup",
              args: Object.fromEntries(
                Array.from({ length: Math.floor(bytes / 40) }, (_, index) => [
                  `field_${index}`,
                  index % 2 ? `value ${index}` : { city: "Paris", days: [index] },
                ]),
              ),
            },
          },
        ],
      },
      { role: "user", parts: [{ functionResponse: { name: "lookup", response: { ok: true } } }] },
    ],
    tools: [{ functionDeclarations: [{ name: "lookup", description: "Looks a thing up." }] }],
  }),
  "a declaration with a hundred thousand properties": (bytes) => ({
    contents: [{ role: "user", parts: [{ text: "Which tool fits?" }] }],
    tools: [
      {
        functionDeclarations: [
          {
            name: "describe",
            description: "Describes the thing.",
            parameters: {
              type: "OBJECT",
              properties: Object.fromEntries(
                Array.from({ length: Math.floor(bytes / 70) }, (_, index) => [
                  `option_${index}`,
                  { type: "STRING", description: `Option number ${index}.` },
                ]),
              ),
            },
          },
        ],
      },
    ],
  }),
};

for (const [name, shape] of Object.entries(SHAPES)) {
  test(`8 MB of ${name} hold the event loop for a slice at a time, not for the request`, async () => {
    const run = await whileLightRequestsRun(
      JSON.stringify({ ...shape(8 * MiB), generationConfig }),
    );
    // Counted, and refused by the input token limit or answered: either way a complete answer.
    expect([200, 400]).toContain(run.status);
    if (run.status === 400) expect(run.answer.error?.message).toMatch(/input token count/);
    expect(run.latencies.length).toBeGreaterThan(0);
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
    expect(run.block).toBeLessThan(BLOCK_BOUND_MS);
  });
}
