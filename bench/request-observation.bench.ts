/**
 * What observing a request costs (see bench/README.md, "Usage, logs and metrics"), side by side
 * in one run on the real modules: the same request answered bare and through everything the
 * API surface does around a handler (observeApiRequest, the route and caller noted, the
 * answer's usage recorded to the in-memory queues, metrics counted, the body watched to its end
 * for a stream); the queued usage is written to a real SQLite database by the same timer as in
 * the server. Run: `DATA_DIR=$(mktemp -d) npx vitest bench --run bench/request-observation.bench.ts`
 */
import { bench, describe } from "vitest";
import type { Caller } from "@/lib/gemini/backend/contract";
import { noteCaller, noteRoute, observeApiRequest } from "@/lib/server/logs/request-observation";
import { recordAnswerUsage } from "@/lib/server/usage/answer-usage";

const MODEL = "gemini-2.5-flash";
const URL_UNARY = `http://127.0.0.1/v1beta/models/${MODEL}:generateContent`;
const URL_STREAM = `http://127.0.0.1/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`;
const usage = { promptTokenCount: 12, candidatesTokenCount: 40, totalTokenCount: 52 };
const answer = JSON.stringify({
  candidates: [
    { content: { role: "model", parts: [{ text: "Hello there." }] }, finishReason: "STOP" },
  ],
  usageMetadata: usage,
  modelVersion: MODEL,
});
const encoder = new TextEncoder();
const event = encoder.encode(`data: ${answer}\r\n\r\n`);

function unaryResponse(): Response {
  return new Response(answer, { headers: { "content-type": "application/json" } });
}

function streamResponse(): Response {
  let sent = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 50) controller.close();
        else controller.enqueue(event);
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}

function request(url: string): Request {
  return new Request(url, { method: "POST", body: "{}", headers: { "x-goog-api-key": "k" } });
}

function caller(): Caller {
  return { ownerId: "key:bench", key: { id: "env:bench", name: "bench", managed: false } };
}

async function observed(url: string, rest: string, respond: () => Response): Promise<void> {
  const response = await observeApiRequest(request(url), async (incoming) => {
    noteRoute(incoming, rest, { model: MODEL });
    const who = caller();
    await noteCaller(incoming, who);
    recordAnswerUsage(who, `models/${MODEL}`, usage);
    return respond();
  });
  await response.arrayBuffer();
}

async function bare(url: string, respond: () => Response): Promise<void> {
  request(url);
  caller();
  await respond().arrayBuffer();
}

describe("unary answer", () => {
  bench("bare", () => bare(URL_UNARY, unaryResponse), { time: 3000 });
  bench("observed", () => observed(URL_UNARY, `models/${MODEL}:generateContent`, unaryResponse), {
    time: 3000,
  });
});

describe("stream of 50 events", () => {
  bench("bare", () => bare(URL_STREAM, streamResponse), { time: 3000 });
  bench(
    "observed",
    () => observed(URL_STREAM, `models/${MODEL}:streamGenerateContent`, streamResponse),
    { time: 3000 },
  );
});
