/**
 * The fuzzer's arbitraries for embeddings (`:embedContent`, `:batchEmbedContents`,
 * `:asyncBatchEmbedContent`) and the OpenAI-compatible endpoint (`/openai/chat/completions`,
 * `/openai/embeddings`, `/openai/models`): as for every endpoint (requests.mjs), requests meant
 * to succeed, the same broken at one spot, and junk, with the credentials of both tenants and
 * none, and on the OpenAI endpoint the key as OpenAI's clients send it (a Bearer token).
 */
import fc from "fast-check";
import {
  build,
  contentTypeArbitrary,
  credentialsArbitrary,
  extraHeadersArbitrary,
  methodArbitrary,
} from "./requests.mjs";
import {
  anyNumber,
  anyString,
  bodyArbitrary,
  headerSafeString,
  mutated,
  promptText,
  segmentArbitrary,
} from "./values.mjs";

const API_VERSIONS = ["/v1beta", "/v1"];
const EMBEDDING_MODELS = [
  "gemini-embedding-001",
  "gemini-embedding-2",
  "gemini-embedding-2-preview",
];
const TASK_TYPES = ["RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "SEMANTIC_SIMILARITY", "nonsense"];
/** A 1×1 PNG: an image part that is really one. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const dimensionality = fc.oneof(
  { arbitrary: fc.constantFrom(1, 8, 128, 768, 3072), weight: 4 },
  { arbitrary: fc.constantFrom(0, -1, 3073, 1e9, 2 ** 31, 1.5), weight: 2 },
  { arbitrary: anyNumber, weight: 1 },
);

function embedPartArbitrary(world) {
  return fc.oneof(
    { arbitrary: promptText.map((text) => ({ text })), weight: 8 },
    { arbitrary: fc.constant({ inlineData: { mimeType: "image/png", data: PNG } }), weight: 2 },
    {
      arbitrary: fc
        .constantFrom(
          ...(world.fileNames.length ? world.fileNames : ["files/none"]),
          ...world.otherFileNames,
        )
        .map((fileUri) => ({ fileData: { fileUri } })),
      weight: 1,
    },
    { arbitrary: fc.constant({ functionCall: { name: "f", args: {} } }), weight: 1 },
  );
}

function embedRequestArbitrary(world) {
  return fc.record(
    {
      content: fc.record({
        parts: fc.array(embedPartArbitrary(world), { minLength: 1, maxLength: 8 }),
      }),
      taskType: fc.constantFrom(...TASK_TYPES),
      title: promptText,
      outputDimensionality: dimensionality,
    },
    { requiredKeys: ["content"] },
  );
}

/** `models/{m}:embedContent`, `:batchEmbedContents` and `:asyncBatchEmbedContent`. */
export function embeddingEndpoints(world) {
  const model = fc.oneof(
    { arbitrary: fc.constantFrom(...EMBEDDING_MODELS), weight: 6 },
    { arbitrary: fc.constantFrom(...world.models), weight: 1 },
    { arbitrary: anyString, weight: 1 },
  );
  const single = embedRequestArbitrary(world);
  const batch = fc.record({ requests: fc.array(single, { maxLength: 12 }) });
  const tooMany = single.map((request) => ({
    requests: Array.from({ length: 101 }, () => request),
  }));
  const asyncBatch = fc.record({
    batch: fc.oneof(
      fc.record({
        displayName: promptText,
        inputConfig: fc.record({
          requests: fc.record({
            requests: fc.array(fc.record({ request: single }), { maxLength: 4 }),
          }),
        }),
      }),
      fc
        .constantFrom(
          ...(world.fileNames.length ? world.fileNames : ["files/none"]),
          ...world.otherFileNames,
        )
        .map((fileName) => ({ inputConfig: { fileName } })),
    ),
  });
  const endpoint = (operation, body) =>
    fc
      .record({
        version: fc.constantFrom(...API_VERSIONS),
        model: segmentArbitrary(model),
        body: bodyArbitrary(mutated(body)),
        contentType: contentTypeArbitrary,
        credentials: credentialsArbitrary(world),
        method: methodArbitrary("POST"),
        extra: extraHeadersArbitrary,
      })
      .map(({ version, model, body, contentType, credentials, method, extra }) =>
        build({
          label: `models.${operation}`,
          method,
          path: `${version}/models/${model}:${operation}`,
          credentials,
          contentType,
          extra,
          body,
        }),
      );
  return [
    endpoint("embedContent", single),
    endpoint(
      "batchEmbedContents",
      fc.oneof({ arbitrary: batch, weight: 6 }, { arbitrary: tooMany, weight: 1 }),
    ),
    endpoint("asyncBatchEmbedContent", asyncBatch),
  ];
}

/** The key as OpenAI's clients send it, besides every credential the API takes. */
function openaiCredentials(world) {
  return fc.oneof(
    {
      arbitrary: fc.constant({ headers: { authorization: `Bearer ${world.keys.owner}` } }),
      weight: 8,
    },
    {
      arbitrary: fc.constant({ headers: { authorization: `Bearer ${world.keys.other}` } }),
      weight: 1,
    },
    {
      arbitrary: headerSafeString.map((token) => ({
        headers: { authorization: `Bearer ${token}` },
      })),
      weight: 1,
    },
    { arbitrary: credentialsArbitrary(world), weight: 3 },
  );
}

function chatContentArbitrary() {
  return fc.oneof(
    { arbitrary: promptText, weight: 6 },
    {
      arbitrary: fc.array(
        fc.oneof(
          promptText.map((text) => ({ type: "text", text })),
          fc.constant({ type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } }),
          anyString.map((url) => ({ type: "image_url", image_url: { url } })),
          fc.constant({ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }),
        ),
        { minLength: 1, maxLength: 4 },
      ),
      weight: 3,
    },
    { arbitrary: fc.constant(null), weight: 1 },
  );
}

function chatMessageArbitrary() {
  return fc.oneof(
    {
      arbitrary: fc.record({
        role: fc.constantFrom("user", "system", "developer"),
        content: chatContentArbitrary(),
      }),
      weight: 6,
    },
    {
      arbitrary: fc.record({
        role: fc.constant("assistant"),
        tool_calls: fc.array(
          fc.record({
            id: fc.constantFrom("call_1", ""),
            type: fc.constant("function"),
            function: fc.record({
              name: fc.constant("get_weather"),
              arguments: fc.constantFrom('{"city":"Paris"}', "{}", "not json"),
            }),
          }),
          { maxLength: 2 },
        ),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        role: fc.constant("tool"),
        tool_call_id: fc.constantFrom("call_1", ""),
        content: promptText,
      }),
      weight: 1,
    },
  );
}

const chatRequestArbitrary = fc.record(
  {
    model: fc.oneof(
      fc.constantFrom(
        "gemini-2.5-flash",
        "gemini-3-flash-preview",
        "gemma-3-1b-it",
        "gemini-embedding-001",
      ),
      anyString,
    ),
    messages: fc.array(chatMessageArbitrary(), { minLength: 1, maxLength: 5 }),
    stream: fc.boolean(),
    stream_options: fc.record({ include_usage: fc.boolean() }),
    max_tokens: fc.constantFrom(8, 32, 0, -1),
    temperature: fc.oneof(fc.double({ min: 0, max: 2, noNaN: true }), anyNumber),
    n: fc.constantFrom(1, 2, 0, 9),
    stop: fc.oneof(promptText, fc.array(promptText, { maxLength: 6 })),
    reasoning_effort: fc.constantFrom("none", "minimal", "low", "medium", "high", "extreme"),
    response_format: fc.constantFrom(
      { type: "json_object" },
      {
        type: "json_schema",
        json_schema: {
          name: "x",
          schema: { type: "object", properties: { a: { type: "string" } } },
        },
      },
      { type: "json_schema" },
      { type: "xml" },
    ),
    tools: fc.constant([
      {
        type: "function",
        function: {
          name: "get_weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      },
    ]),
    tool_choice: fc.constantFrom(
      "auto",
      "none",
      "required",
      { type: "function", function: { name: "get_weather" } },
      "sometimes",
    ),
    extra_body: fc.record({
      google: fc.record({
        thinking_config: fc.record({ thinking_budget: fc.constantFrom(0, 128, -1) }),
      }),
    }),
  },
  { requiredKeys: ["model", "messages"] },
);

const openaiEmbeddingsArbitrary = fc.record(
  {
    model: fc.oneof(fc.constantFrom(...EMBEDDING_MODELS, "gemini-2.5-flash"), anyString),
    input: fc.oneof(promptText, fc.array(promptText, { maxLength: 8 }), fc.constant([1, 2, 3])),
    encoding_format: fc.constantFrom("float", "base64", "int8"),
    dimensions: dimensionality,
  },
  { requiredKeys: ["model", "input"] },
);

/** `/openai/chat/completions`, `/openai/embeddings` and `/openai/models[/{id}]`. */
export function openaiEndpoints(world) {
  const post = (path, body) =>
    fc
      .record({
        body: bodyArbitrary(mutated(body)),
        contentType: contentTypeArbitrary,
        credentials: openaiCredentials(world),
        method: methodArbitrary("POST"),
        extra: extraHeadersArbitrary,
      })
      .map(({ body, contentType, credentials, method, extra }) =>
        build({
          label: `openai.${path}`,
          method,
          path: `/v1beta/openai/${path}`,
          credentials,
          contentType,
          extra,
          body,
        }),
      );
  const models = fc
    .record({
      id: fc.oneof(
        fc.constant(""),
        segmentArbitrary(
          fc.constantFrom("/gemini-2.5-flash", "/models/gemini-embedding-2", "/nothing-9"),
        ),
        segmentArbitrary(anyString).map((segment) => `/${segment}`),
      ),
      credentials: openaiCredentials(world),
      method: methodArbitrary("GET"),
    })
    .map(({ id, credentials, method }) =>
      build({ label: "openai.models", method, path: `/v1beta/openai/models${id}`, credentials }),
    );
  return [
    post("chat/completions", chatRequestArbitrary),
    post("embeddings", openaiEmbeddingsArbitrary),
    models,
  ];
}
