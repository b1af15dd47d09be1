import "server-only";
import { requireModel, type CatalogEntry } from "@/lib/engine/catalog";
import { exchangeScope } from "@/lib/engine/emulator/exchange-scope";
import { mergeChunks, standAloneAnswer } from "@/lib/engine/generate";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { DEFAULT_MODEL } from "@/lib/studio/settings-model";
import { handleApiRequest } from "./router";
import { serverEnv } from "../config/env";
import { readRequestBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import { jsonArrayStreamResponse, sseResponse } from "../http/sse-response";

/**
 * The request path's own first run, done at start: V8 compiles a function when it first runs,
 * and zod compiles a schema on its first parse, so the first answer after a start paid for the
 * router, the body's canonical read and the stream writers (tens of milliseconds spread over
 * many modules, bench/README.md). Here the real functions run once on requests made in this
 * process: the router refuses them before anything is looked up, because they carry no
 * credential; the bodies are read by the operations' own readers; an engine answer goes through
 * the writers into a sink. Nothing is stored, counted, observed or logged: the requests never
 * pass the route's observation, the emulator's exchange or the usage recorder, and reach no
 * handler.
 *
 * It must run in the module graph that serves requests: the server build holds several copies
 * of these modules (the start-up bundle's, each route's), and warming one copy leaves the others
 * cold. So the API's route module offers it on globalThis, and the start script's dispatch runs it
 * when it loads that module (scripts/api-dispatch.cjs).
 */
export const REQUEST_PATH_WARM_UP = Symbol.for("genstudio.warmUpRequestPath");

/** A loopback address, as a request the development defaults serve is addressed to. */
const HOST = "127.0.0.1";

/** A request body of the kind the studio and the SDKs send first: a system instruction, settings, one turn. */
const GENERATE_BODY = {
  contents: [{ role: "user", parts: [{ text: "Hello! What can you tell me about harbours?" }] }],
  systemInstruction: { parts: [{ text: "Answer briefly." }] },
  generationConfig: {
    temperature: 1,
    topP: 0.95,
    maxOutputTokens: 256,
    thinkingConfig: { thinkingBudget: 0 },
  },
  safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_MEDIUM_AND_ABOVE" }],
};

const COUNT_TOKENS_BODY = { contents: GENERATE_BODY.contents };

/** The operations whose first request is warmed, as the API's paths name them. */
const OPERATIONS = [
  "streamGenerateContent?alt=sse",
  "streamGenerateContent",
  "generateContent",
  "countTokens",
];

function postRequest(path: string, body: unknown): Request {
  return new Request(`http://${HOST}${path}`, {
    method: "POST",
    headers: { host: HOST, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function drain(response: Response): Promise<void> {
  if (response.body === null) return;
  const reader = response.body.getReader();
  while (!(await reader.read()).done) {
    // Dropped: only the work of writing it counts.
  }
}

/**
 * The router's whole way to authentication for each operation, refused there (no credential
 * is presented): its path parsing and route table, the refusal rendered as the service's error.
 */
async function warmRouter(model: string): Promise<void> {
  for (const operation of OPERATIONS) {
    const request = postRequest(`/v1beta/${model}:${operation}`, GENERATE_BODY);
    const response = await handleApiRequest(request);
    await drain(response);
  }
}

/** The canonical reads of a generate and a countTokens body, with their schemas. */
async function warmBodyReads(): Promise<void> {
  await readRequestBody(postRequest("/warm-up", GENERATE_BODY), "generateContent");
  await readRequestBody(postRequest("/warm-up", COUNT_TOKENS_BODY), "countTokens");
}

/** Tokens of each warm-up answer: a few chunks are enough to run each writer's whole way. */
const ANSWER_TOKENS = 48;

/** An engine answer through each writer an answer leaves by: events, the JSON array, one JSON body. */
async function warmWriters(entry: CatalogEntry, prompt: string): Promise<void> {
  const answer = () => standAloneAnswer(entry, prompt, { maxOutputTokens: ANSWER_TOKENS });
  const options = { signal: new AbortController().signal };
  await drain(await sseResponse(answer(), options));
  await drain(await jsonArrayStreamResponse(answer(), options));
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of answer()) chunks.push(chunk);
  await drain(await jsonResponse(mergeChunks(chunks)));
}

/**
 * Times the whole path is run: V8 compiles a function further (and zod's and the engine's
 * caches settle) only after it has run a few times, and a first request otherwise meets
 * functions run once.
 */
const ROUNDS = 4;

/**
 * Runs the API's request path for the studio's default model, as described above (the
 * engine's answer in local mode only), inside an exchange scope as a request's answer is (the
 * scope's storage tracks every promise made in it): a scope of no owner and no headers, which no
 * scenario matches and no request log reads. Call once the server is up.
 */
export async function warmUpRequestPath(): Promise<void> {
  const entry = requireModel(DEFAULT_MODEL, "generateContent");
  const withEngine = serverEnv().mode === "local";
  const scope = { ownerId: "", headers: new Headers(), notes: {} };
  await exchangeScope.run(scope, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await warmRouter(entry.model.name);
      await warmBodyReads();
      if (withEngine) await warmWriters(entry, "Hello! What can you tell me about harbours?");
    }
  });
}
