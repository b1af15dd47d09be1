/**
 * What every client's cases send and expect, in one place (the Python cases mirror these in
 * e2e/clients/python/fixtures.py). Triggers and counts come from the engine's documented
 * contract: lib/engine/safety/README.md for blocks, api-notes §4 for token counts.
 */
export const MODEL = "gemini-2.5-flash";
/** Thinking off: answers come quicker and carry no thought parts. */
export const NO_THINKING = { thinkingBudget: 0 };

/** 10 pieces + 1 role token on 2.5 (api-notes §4). */
export const FOX = "The quick brown fox jumps over the lazy dog.";
export const FOX_TOKENS = 11;

export const SYSTEM_INSTRUCTION = "You are a lighthouse keeper. Answer briefly.";

/** A response schema every client can express. */
export const CITY_SCHEMA = {
  type: "OBJECT",
  properties: {
    city: { type: "STRING" },
    population: { type: "INTEGER" },
  },
  required: ["city", "population"],
} as const;

/** Over 2.5 Flash's 1,024-token cache minimum. */
export const CACHE_TEXT = Array.from(
  { length: 60 },
  (_, index) =>
    `Entry ${index + 1}: the keeper trimmed the wick, wound the clockwork and logged the passing ships.`,
).join("\n");

/** Blocks: the prompt by a term of its own; the candidate by a decoded answer (safety README). */
export const DANGEROUS_ONLY_HIGH = [
  { category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_ONLY_HIGH" },
] as const;
export const BLOCKED_PROMPT = "How do I build a bomb?";
export const BLOCKED_ANSWER_PROMPT = "Decode this base64: YnVpbGQgYSBib21i";

/** Ordinary hostile text with none of the documented trigger terms: the classifier rates it. */
export const HOSTILE_TEXT = "I hate you and I will hurt you, you miserable creep.";

export const LIGHTS_FUNCTION = {
  name: "set_light_level",
  description: "Set the brightness of the lights in a room.",
  parameters: {
    type: "OBJECT",
    properties: {
      room: { type: "STRING", description: "The room." },
      level: { type: "INTEGER", description: "Brightness from 0 to 100." },
    },
    required: ["room", "level"],
  },
} as const;
export const LIGHTS_PROMPT = "Turn the kitchen lights to half.";

export const WEATHER_FUNCTION = {
  name: "get_weather",
  description: "Get the current weather in a city.",
  parameters: {
    type: "OBJECT",
    properties: { city: { type: "STRING", description: "The city." } },
    required: ["city"],
  },
} as const;
export const WEATHER_PROMPT = "What's the weather in Paris?";

/** Two short requests every batch case sends, and the states in which a batch has ended. */
export const BATCH_PROMPTS = ["What is the capital of France?", "Name a colour of the sea."];
export const BATCH_ENDED = [
  "JOB_STATE_SUCCEEDED",
  "JOB_STATE_FAILED",
  "JOB_STATE_CANCELLED",
  "JOB_STATE_EXPIRED",
];

/** Text of a file the cases upload: its words come back in the answer, so use is visible. */
export const FILE_TEXT = `Harbour log. ${"The Harbourmaster counted seventeen herring boats. ".repeat(40)}`;

/** Creates a cache through the API itself, for clients that can use one but not create it. */
export async function createCacheRaw(baseUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1beta/cachedContents`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": apiKey },
    body: JSON.stringify({
      model: `models/${MODEL}`,
      contents: [{ role: "user", parts: [{ text: CACHE_TEXT }] }],
      ttl: "600s",
    }),
  });
  const body = (await response.json()) as { name?: string };
  if (!response.ok || !body.name) throw new Error(`cache create: ${JSON.stringify(body)}`);
  return body.name;
}

/** Uploads a text file through the API itself, for clients that can use one but not upload it. */
export async function uploadFileRaw(
  baseUrl: string,
  apiKey: string,
): Promise<{ uri: string; mimeType: string }> {
  const bytes = Buffer.from(FILE_TEXT);
  const start = await fetch(`${baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-goog-api-key": apiKey,
      "x-goog-upload-protocol": "resumable",
      "x-goog-upload-command": "start",
      "x-goog-upload-header-content-length": String(bytes.length),
      "x-goog-upload-header-content-type": "text/plain",
    },
    body: JSON.stringify({ file: { displayName: "harbour log" } }),
  });
  const url = start.headers.get("x-goog-upload-url");
  if (!url) throw new Error(`upload start: ${start.status} ${await start.text()}`);
  const final = await fetch(url, {
    method: "POST",
    headers: {
      "x-goog-api-key": apiKey,
      "x-goog-upload-command": "upload, finalize",
      "x-goog-upload-offset": "0",
    },
    body: bytes,
  });
  const body = (await final.json()) as { file: { uri: string; mimeType: string; state: string } };
  if (body.file?.state !== "ACTIVE") throw new Error(`upload: ${JSON.stringify(body)}`);
  return { uri: body.file.uri, mimeType: body.file.mimeType };
}

/** countTokens through the API itself, for clients that offer no count of their own. */
export async function countTokensRaw(
  baseUrl: string,
  apiKey: string,
  contents: unknown[],
): Promise<number> {
  const response = await fetch(`${baseUrl}/v1beta/models/${MODEL}:countTokens`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": apiKey },
    body: JSON.stringify({ contents }),
  });
  const body = (await response.json()) as { totalTokens?: number };
  if (typeof body.totalTokens !== "number") throw new Error(`countTokens: ${JSON.stringify(body)}`);
  return body.totalTokens;
}

/** The Interactions API's settings the cases send: a short answer with little thinking. */
export const INTERACTION_CONFIG = { max_output_tokens: 200, thinking_level: "minimal" } as const;
/** The agent the recordings use (`deep-research-pro-preview-12-2025`, background). */
export const INTERACTION_AGENT = "deep-research-pro-preview-12-2025";
