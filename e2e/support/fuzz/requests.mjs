/**
 * One fast-check arbitrary per endpoint of the studio (the API surface under /v1beta, /v1 and
 * /upload, and the studio's /api/session and /api/conversations), each mixing valid requests,
 * plausible requests broken at one spot, and junk: bodies, query parameters, headers,
 * credentials, upload commands and offsets, names and ids (path tricks included).
 * `requestArbitrary(world)` draws from all of them.
 */
import fc from "fast-check";
import {
  HOSTILE_STRINGS,
  anyNumber,
  anyString,
  bodyArbitrary,
  deepJson,
  headerSafeString,
  mutated,
  promptText,
  queryString,
  segmentArbitrary,
} from "./values.mjs";
import { interactionEndpoints } from "./interaction-requests.mjs";

/**
 * @typedef {import("./client.mjs").FuzzRequest} FuzzRequest
 * @typedef {{
 *   host: string,
 *   keys: { owner: string, other: string },
 *   cookie: string,
 *   models: string[],
 *   fileNames: string[], otherFileNames: string[],
 *   cacheNames: string[], otherCacheNames: string[],
 *   conversationIds: string[], otherConversationIds: string[],
 *   messageIds: string[],
 *   uploadIds: string[],
 *   interactionIds: string[], otherInteractionIds: string[],
 *   accessCode: string | null,
 * }} FuzzWorld
 */

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "PROPFIND"];
const API_VERSIONS = ["/v1beta", "/v1"];
const UPLOAD_VERSIONS = ["/upload/v1beta", "/upload/v1"];
const MIME_TYPES = [
  "text/plain",
  "image/png",
  "image/jpeg",
  "audio/wav",
  "video/mp4",
  "application/pdf",
  "application/json",
  "text/x.enum",
  "image/*",
  "*/*",
  "",
  "nonsense",
  "text/plain; charset=utf-8",
];
const RPC_CATEGORIES = [
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_CIVIC_INTEGRITY",
  "HARM_CATEGORY_DEROGATORY",
  "HARM_CATEGORY_UNSPECIFIED",
  "NOT_A_CATEGORY",
];
const THRESHOLDS = [
  "BLOCK_LOW_AND_ABOVE",
  "BLOCK_MEDIUM_AND_ABOVE",
  "BLOCK_ONLY_HIGH",
  "BLOCK_NONE",
  "OFF",
  "HARM_BLOCK_THRESHOLD_UNSPECIFIED",
  "SOMETIMES",
];

/** Picks one of the world's names, or a hostile or random one. */
function idFrom(known, prefix = "") {
  const strip = (name) => (prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name);
  const options = [
    { arbitrary: anyString, weight: 3 },
    { arbitrary: fc.stringMatching(/^[a-z0-9]{1,40}$/), weight: 2 },
  ];
  if (known.length > 0)
    options.push({ arbitrary: fc.constantFrom(...known.map(strip)), weight: 5 });
  return fc.oneof(...options);
}

// ---------------------------------------------------------------- wire objects

function fileUriArbitrary(world) {
  const uris = [...world.fileNames, ...world.otherFileNames].flatMap((name) => [
    `http://${world.host}/v1beta/${name}`,
    name,
    `https://generativelanguage.googleapis.com/v1beta/${name}`,
  ]);
  return fc.oneof(
    anyString,
    ...(uris.length ? [fc.constantFrom(...uris)] : []),
    fc.constantFrom(
      "file:///etc/passwd",
      `http://${world.host}/v1beta/files/../../genstudio.sqlite`,
      "http://169.254.169.254/latest/meta-data/",
    ),
  );
}

function partArbitrary(world) {
  const mimeType = fc.constantFrom(...MIME_TYPES);
  const base64 = fc.oneof(
    fc.base64String({ maxLength: 200 }),
    fc.constantFrom("iVBORw0KGgo=", "not base64!", "", "===="),
  );
  return fc.oneof(
    { arbitrary: fc.record({ text: promptText }), weight: 8 },
    {
      arbitrary: fc.record({ inline_data: fc.record({ mime_type: mimeType, data: base64 }) }),
      weight: 1,
    },
    { arbitrary: fc.record({ inlineData: fc.record({ mimeType, data: base64 }) }), weight: 1 },
    {
      arbitrary: fc.record({
        file_data: fc.record({ mime_type: mimeType, file_uri: fileUriArbitrary(world) }),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({
        fileData: fc.record(
          { mimeType, fileUri: fileUriArbitrary(world) },
          { requiredKeys: ["fileUri"] },
        ),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({
        functionCall: fc.record({ name: anyString, args: fc.jsonValue({ maxDepth: 3 }) }),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        functionResponse: fc.record({ name: anyString, response: fc.jsonValue({ maxDepth: 3 }) }),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        text: promptText,
        thought: fc.boolean(),
        thoughtSignature: fc.base64String({ maxLength: 40 }),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        executableCode: fc.record({
          language: fc.constantFrom("PYTHON", "COBOL"),
          code: anyString,
        }),
      }),
      weight: 1,
    },
  );
}

function contentArbitrary(world) {
  return fc.record(
    {
      role: fc.constantFrom("user", "model", "system", "function", "", "USER"),
      parts: fc.array(partArbitrary(world), { maxLength: 4 }),
    },
    { requiredKeys: ["parts"] },
  );
}

const schemaArbitrary = fc.letrec((tie) => ({
  schema: fc.oneof(
    { maxDepth: 3, depthIdentifier: "schema" },
    fc.record(
      {
        type: fc.constantFrom("STRING", "NUMBER", "INTEGER", "BOOLEAN", "NULL", "string", "DATE"),
        format: fc.constantFrom("enum", "date-time", "int32", "nonsense"),
        nullable: fc.boolean(),
        enum: fc.array(anyString, { maxLength: 3 }),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record(
      {
        type: fc.constantFrom("OBJECT", "object", "ARRAY"),
        properties: fc.dictionary(
          fc.constantFrom("a", "b", "name", "__proto__", ""),
          tie("schema"),
          { maxKeys: 2 },
        ),
        required: fc.array(fc.constantFrom("a", "b", "missing"), { maxLength: 2 }),
        items: tie("schema"),
        minItems: anyNumber,
        maxItems: anyNumber,
        anyOf: fc.array(tie("schema"), { maxLength: 2 }),
        propertyOrdering: fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 3 }),
      },
      { requiredKeys: ["type"] },
    ),
  ),
})).schema;

const generationConfigArbitrary = fc.record(
  {
    temperature: anyNumber,
    topP: anyNumber,
    topK: anyNumber,
    candidateCount: anyNumber,
    maxOutputTokens: anyNumber,
    seed: anyNumber,
    stopSequences: fc.array(fc.oneof(promptText, fc.constantFrom(".", " ", "e")), { maxLength: 7 }),
    responseMimeType: fc.constantFrom(...MIME_TYPES),
    responseSchema: schemaArbitrary,
    responseJsonSchema: fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constant({ $ref: "#" }),
      fc.constant({ type: "object", properties: { a: { $ref: "#" } } }),
    ),
    responseModalities: fc.array(
      fc.constantFrom("TEXT", "IMAGE", "AUDIO", "MODALITY_UNSPECIFIED", "SMELL"),
      { maxLength: 3 },
    ),
    presencePenalty: anyNumber,
    frequencyPenalty: anyNumber,
    responseLogprobs: fc.oneof(fc.boolean(), anyNumber),
    logprobs: anyNumber,
    enableEnhancedCivicAnswers: fc.boolean(),
    thinkingConfig: fc.record(
      { includeThoughts: fc.boolean(), thinkingBudget: anyNumber },
      { requiredKeys: [] },
    ),
    mediaResolution: fc.constantFrom(
      "MEDIA_RESOLUTION_LOW",
      "MEDIA_RESOLUTION_MEDIUM",
      "MEDIA_RESOLUTION_HIGH",
      "MEDIA_RESOLUTION_UNSPECIFIED",
      "ULTRA",
    ),
    speechConfig: fc.record(
      {
        voiceConfig: fc.record({
          prebuiltVoiceConfig: fc.record({ voiceName: fc.constantFrom("Kore", "Puck", "Nobody") }),
        }),
        languageCode: fc.constantFrom("en-US", "de-DE", "xx-XX", ""),
        multiSpeakerVoiceConfig: fc.record({
          speakerVoiceConfigs: fc.array(
            fc.record({
              speaker: anyString,
              voiceConfig: fc.record({
                prebuiltVoiceConfig: fc.record({ voiceName: fc.constantFrom("Kore", "Puck") }),
              }),
            }),
            { maxLength: 3 },
          ),
        }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

const toolArbitrary = fc.oneof(
  fc.record({
    functionDeclarations: fc.array(
      fc.record(
        {
          name: fc.oneof(fc.constantFrom("get_weather", "f"), anyString),
          description: promptText,
          parameters: schemaArbitrary,
        },
        { requiredKeys: ["name"] },
      ),
      { maxLength: 3 },
    ),
  }),
  fc.constant({ codeExecution: {} }),
  fc.constant({ googleSearch: {} }),
  fc.constant({ urlContext: {} }),
  fc.record({ unknownTool: fc.jsonValue({ maxDepth: 2 }) }),
);

const toolConfigArbitrary = fc.record({
  functionCallingConfig: fc.record(
    {
      mode: fc.constantFrom("AUTO", "ANY", "NONE", "VALIDATED", "SOMETIMES"),
      allowedFunctionNames: fc.array(anyString, { maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
});

function cacheReferenceArbitrary(world) {
  return fc.oneof(
    anyString,
    ...(world.cacheNames.length + world.otherCacheNames.length
      ? [fc.constantFrom(...world.cacheNames, ...world.otherCacheNames)]
      : []),
    fc.constantFrom("cachedContents/../../x", "cachedContents/"),
  );
}

function generateRequestArbitrary(world) {
  const content = contentArbitrary(world);
  return fc.record(
    {
      contents: fc.oneof(
        { arbitrary: fc.array(content, { minLength: 1, maxLength: 4 }), weight: 6 },
        { arbitrary: content, weight: 1 },
        { arbitrary: promptText, weight: 1 },
        { arbitrary: fc.constant([]), weight: 1 },
      ),
      generationConfig: generationConfigArbitrary,
      safetySettings: fc.array(
        fc.record({
          category: fc.constantFrom(...RPC_CATEGORIES),
          threshold: fc.constantFrom(...THRESHOLDS),
        }),
        { maxLength: 6 },
      ),
      systemInstruction: fc.oneof(content, promptText),
      tools: fc.array(toolArbitrary, { maxLength: 3 }),
      toolConfig: toolConfigArbitrary,
      cachedContent: cacheReferenceArbitrary(world),
    },
    { requiredKeys: ["contents"] },
  );
}

const durationArbitrary = fc.oneof(
  fc.nat({ max: 100_000 }).map((seconds) => `${seconds}s`),
  fc.constantFrom(
    "3600s",
    "0s",
    "-1s",
    "1.5s",
    "1.0000000001s",
    "s",
    "1h",
    "99999999999999999999s",
    "3600",
    "PT1H",
    "",
  ),
  anyString,
);
const timestampArbitrary = fc.oneof(
  fc
    .date({ min: new Date("2000-01-01"), max: new Date("2200-01-01"), noInvalidDate: true })
    .map((date) => date.toISOString()),
  fc.constantFrom(
    "2030-01-01T00:00:00Z",
    "2030-01-01T00:00:00.123456789Z",
    "2030-01-01T00:00:00+02:00",
    "1970-01-01T00:00:00Z",
    "2030-13-45T99:99:99Z",
    "now",
    "",
  ),
  anyString,
);

function cacheCreateArbitrary(world) {
  const bigText = fc
    .constantFrom(600, 1_500, 5_000)
    .map((words) =>
      "Context that is worth caching because it is long. ".repeat(Math.ceil(words / 9)),
    );
  return fc.record(
    {
      model: fc.oneof(
        fc.constantFrom(...world.models.map((model) => `models/${model}`)),
        fc.constantFrom(...world.models),
        anyString,
      ),
      contents: fc.oneof(
        fc.array(contentArbitrary(world), { maxLength: 3 }),
        bigText.map((text) => [{ role: "user", parts: [{ text }] }]),
      ),
      systemInstruction: fc.oneof(
        contentArbitrary(world),
        bigText.map((text) => ({ parts: [{ text }] })),
      ),
      tools: fc.array(toolArbitrary, { maxLength: 2 }),
      toolConfig: toolConfigArbitrary,
      ttl: durationArbitrary,
      expireTime: timestampArbitrary,
      displayName: fc.oneof(anyString, fc.constant("é".repeat(129))),
      name: anyString,
    },
    { requiredKeys: ["model"] },
  );
}

// ---------------------------------------------------------------- credentials and headers

/** Credentials for the API surface: mostly the owner's key, otherwise every wrong way. */
function credentialsArbitrary(world) {
  const cookie = { cookie: world.cookie };
  return fc.oneof(
    { arbitrary: fc.constant({ headers: { "x-goog-api-key": world.keys.owner } }), weight: 12 },
    { arbitrary: fc.constant({ query: [["key", world.keys.owner]] }), weight: 3 },
    { arbitrary: fc.constant({ headers: { "x-goog-api-key": world.keys.other } }), weight: 2 },
    {
      arbitrary: headerSafeString.map((key) => ({ headers: { "x-goog-api-key": key } })),
      weight: 1,
    },
    { arbitrary: anyString.map((key) => ({ query: [["key", key]] })), weight: 1 },
    { arbitrary: fc.constant({}), weight: 1 },
    {
      arbitrary: fc.constant({
        headers: { ...cookie, "sec-fetch-site": "same-origin", origin: `http://${world.host}` },
      }),
      weight: 3,
    },
    {
      arbitrary: fc.constant({
        headers: { ...cookie, "sec-fetch-site": "cross-site", origin: "https://evil.example" },
      }),
      weight: 1,
    },
    { arbitrary: fc.constant({ headers: { ...cookie, origin: "null" } }), weight: 1 },
    {
      arbitrary: headerSafeString.map((token) => ({
        headers: { cookie: `genstudio_session=${token}` },
      })),
      weight: 1,
    },
    {
      arbitrary: fc.constant({
        headers: { "x-goog-api-key": world.keys.owner },
        query: [["key", world.keys.other]],
      }),
      weight: 1,
    },
  );
}

/** Headers nobody should need, sent now and then. */
const extraHeadersArbitrary = fc
  .dictionary(
    fc.constantFrom(
      "x-forwarded-host",
      "x-forwarded-proto",
      "host",
      "accept",
      "accept-encoding",
      "range",
      "content-encoding",
      "origin",
      "x-goog-upload-protocol",
      "x-goog-upload-command",
      "x-http-method-override",
      "if-none-match",
      "x-goog-user-project",
      "authorization",
    ),
    fc.oneof(
      headerSafeString,
      fc.constantFrom(
        "gzip",
        "br",
        "evil.example",
        "https",
        "bytes=0-0",
        "[::1]:1",
        "127.0.0.1:1",
        "*/*",
        "text/event-stream",
      ),
    ),
    { maxKeys: 2 },
  )
  .map((headers) => {
    // undici (the fuzzer's client) asserts on a Host that opens an IPv6 bracket without closing it.
    if (headers.host?.includes("[") && !/^\[[^\]]*\](:\d*)?$/.test(headers.host))
      delete headers.host;
    return headers;
  });

const contentTypeArbitrary = fc.oneof(
  { arbitrary: fc.constant("application/json"), weight: 10 },
  {
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/octet-stream",
      "APPLICATION/JSON",
      "application/jsonp",
      "",
    ),
    weight: 2,
  },
  { arbitrary: fc.constant(undefined), weight: 1 },
);

function methodArbitrary(right) {
  return fc.oneof(
    { arbitrary: fc.constant(right), weight: 12 },
    { arbitrary: fc.constantFrom(...METHODS), weight: 1 },
  );
}

/** Assembles a request from its parts. */
function build({
  label,
  method,
  path,
  query = [],
  credentials = {},
  contentType,
  extra = {},
  headers = {},
  body,
}) {
  const allHeaders = { ...extra, ...(credentials.headers ?? {}), ...headers };
  if (contentType !== undefined && body !== undefined) allHeaders["content-type"] = contentType;
  for (const name of Object.keys(allHeaders))
    if (allHeaders[name] === undefined) delete allHeaders[name];
  /** @type {FuzzRequest} */
  const request = {
    label,
    method,
    path: `${path}${queryString([...query, ...(credentials.query ?? [])])}`,
    headers: allHeaders,
  };
  if (body !== undefined && method !== "GET" && method !== "HEAD") request.body = body;
  return request;
}

// ---------------------------------------------------------------- endpoints

function modelsEndpoints(world) {
  const version = fc.constantFrom(...API_VERSIONS);
  const pageQuery = fc.array(
    fc.tuple(
      fc.constantFrom(
        "pageSize",
        "page_size",
        "pageToken",
        "page_token",
        "alt",
        "$fields",
        "pageSize",
      ),
      fc.oneof(anyString, anyNumber.map(String)),
    ),
    { maxLength: 3 },
  );
  const model = fc.oneof(
    { arbitrary: fc.constantFrom(...world.models), weight: 4 },
    { arbitrary: anyString, weight: 1 },
  );
  return [
    fc
      .record({
        version,
        query: pageQuery,
        credentials: credentialsArbitrary(world),
        method: methodArbitrary("GET"),
        extra: extraHeadersArbitrary,
      })
      .map(({ version, query, credentials, method, extra }) =>
        build({
          label: "models.list",
          method,
          path: `${version}/models`,
          query,
          credentials,
          extra,
        }),
      ),
    fc
      .record({
        version,
        model: segmentArbitrary(model),
        credentials: credentialsArbitrary(world),
        method: methodArbitrary("GET"),
      })
      .map(({ version, model, credentials, method }) =>
        build({ label: "models.get", method, path: `${version}/models/${model}`, credentials }),
      ),
  ];
}

// ---------------------------------------------------------------- requests meant to succeed

/** Contents a model accepts: turns alternating user and model, ending with the user's. */
function validContentsArbitrary(world) {
  const ownFiles = world.fileNames.filter((name) => !name.endsWith(".json"));
  const part = fc.oneof(
    { arbitrary: fc.record({ text: promptText.filter((text) => text.trim() !== "") }), weight: 8 },
    ...(ownFiles.length
      ? [
          {
            arbitrary: fc.constantFrom(...ownFiles).map((name) => ({
              fileData: {
                mimeType: "text/plain",
                fileUri: `http://${world.host}/v1beta/${name}`,
              },
            })),
            weight: 1,
          },
        ]
      : []),
  );
  return fc
    .integer({ min: 0, max: 2 })
    .chain((pairs) =>
      fc.array(fc.array(part, { minLength: 1, maxLength: 3 }), {
        minLength: pairs * 2 + 1,
        maxLength: pairs * 2 + 1,
      }),
    )
    .map((turns) =>
      turns.map((parts, index) => ({
        role: (turns.length - 1 - index) % 2 === 0 ? "user" : "model",
        parts,
      })),
    );
}

const validGenerationConfigArbitrary = fc.record(
  {
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    topP: fc.double({ min: 0, max: 1, noNaN: true }),
    maxOutputTokens: fc.integer({ min: 1, max: 96 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    stopSequences: fc.array(fc.constantFrom(".", "\n", "the", "sea"), { maxLength: 5 }),
    candidateCount: fc.constantFrom(1, 2),
    presencePenalty: fc.double({ min: -1, max: 1, noNaN: true }),
    responseMimeType: fc.constantFrom("text/plain", "application/json"),
  },
  { requiredKeys: [] },
);

function validGenerateArbitrary(world) {
  return fc.record(
    {
      contents: validContentsArbitrary(world),
      generationConfig: validGenerationConfigArbitrary,
      systemInstruction: promptText
        .filter((text) => text.trim() !== "")
        .map((text) => ({ parts: [{ text }] })),
      safetySettings: fc
        .subarray(RPC_CATEGORIES.slice(0, 5))
        .chain((categories) =>
          fc
            .tuple(...categories.map(() => fc.constantFrom(...THRESHOLDS.slice(0, 5))))
            .map((thresholds) =>
              categories.map((category, index) => ({ category, threshold: thresholds[index] })),
            ),
        ),
    },
    { requiredKeys: ["contents"] },
  );
}

function generationEndpoints(world) {
  const version = fc.constantFrom(...API_VERSIONS);
  const model = fc.oneof(
    { arbitrary: fc.constantFrom(...world.models), weight: 6 },
    { arbitrary: anyString, weight: 1 },
  );
  const generate = mutated(generateRequestArbitrary(world));
  const hostileCount = fc.oneof(
    generate,
    generate.map((request) => ({
      generateContentRequest:
        typeof request === "object" && request !== null && !Array.isArray(request)
          ? { model: "models/gemini-2.5-flash", ...request }
          : request,
    })),
    generate.map((request) => ({ contents: request?.contents, generateContentRequest: request })),
  );
  const validCount = fc.oneof(
    validContentsArbitrary(world).map((contents) => ({ contents })),
    validGenerateArbitrary(world).map((request) => ({
      generateContentRequest: { model: "models/gemini-2.5-flash", ...request },
    })),
  );
  const deep = fc
    .constantFrom(100, 5_000, 50_000)
    .map(
      (depth) =>
        `{"contents":[{"parts":[{"functionCall":{"name":"f","args":${deepJson(depth, "object")}}}]}]}`,
    );
  /** Bodies for one operation: about a third meant to succeed, the rest broken or junk. */
  const bodies = (valid, hostile) =>
    fc.oneof(
      { arbitrary: valid.map((value) => JSON.stringify(value)), weight: 6 },
      { arbitrary: bodyArbitrary(hostile), weight: 11 },
      { arbitrary: deep, weight: 1 },
    );
  const endpoint = (operations, body) =>
    fc
      .record({
        version,
        model: segmentArbitrary(model),
        operation: fc.constantFrom(...operations),
        alt: fc.constantFrom(undefined, undefined, "sse", "json", "proto", ""),
        body,
        contentType: contentTypeArbitrary,
        credentials: credentialsArbitrary(world),
        method: methodArbitrary("POST"),
        extra: extraHeadersArbitrary,
      })
      .map(({ version, model, operation, alt, body, contentType, credentials, method, extra }) =>
        build({
          label: `models.${operation || "none"}`,
          method,
          path: `${version}/models/${model}:${operation}`,
          query: [["alt", alt]],
          credentials,
          contentType,
          extra,
          body,
        }),
      );
  return [
    endpoint(["countTokens"], bodies(validCount, hostileCount)),
    endpoint(
      ["generateContent", "streamGenerateContent"],
      bodies(validGenerateArbitrary(world), generate),
    ),
    endpoint(
      ["embedContent", "COUNTTOKENS", "", "countTokens:countTokens", "batchGenerateContent"],
      bodyArbitrary(hostileCount),
    ),
  ];
}

function filesEndpoints(world) {
  const version = fc.constantFrom(...API_VERSIONS);
  const fileId = segmentArbitrary(idFrom([...world.fileNames, ...world.otherFileNames], "files/"));
  const pageQuery = fc.array(
    fc.tuple(
      fc.constantFrom("pageSize", "page_size", "pageToken", "page_token"),
      fc.oneof(anyString, anyNumber.map(String)),
    ),
    { maxLength: 3 },
  );
  // The owner never deletes its own world files here, so later requests keep finding them.
  const deletable = segmentArbitrary(
    fc.oneof(
      anyString,
      fc.stringMatching(/^[a-z0-9]{1,40}$/),
      ...(world.otherFileNames.length
        ? [fc.constantFrom(...world.otherFileNames.map((name) => name.slice(6)))]
        : []),
    ),
  );
  return [
    fc
      .record({
        version,
        query: pageQuery,
        credentials: credentialsArbitrary(world),
        method: methodArbitrary("GET"),
      })
      .map(({ version, query, credentials, method }) =>
        build({ label: "files.list", method, path: `${version}/files`, query, credentials }),
      ),
    fc
      .record({
        version,
        fileId,
        credentials: credentialsArbitrary(world),
        method: methodArbitrary("GET"),
      })
      .map(({ version, fileId, credentials, method }) =>
        build({
          label: "files.get",
          method: method === "DELETE" ? "GET" : method,
          path: `${version}/files/${fileId}`,
          credentials,
        }),
      ),
    fc
      .record({
        version,
        fileId: deletable,
        credentials: credentialsArbitrary(world),
        body: fc.constantFrom(undefined, "{}", "junk"),
      })
      .map(({ version, fileId, credentials, body }) =>
        build({
          label: "files.delete",
          method: "DELETE",
          path: `${version}/files/${fileId}`,
          credentials,
          contentType: "application/json",
          body,
        }),
      ),
  ];
}

function cacheEndpoints(world) {
  const version = fc.constantFrom(...API_VERSIONS);
  const cacheId = segmentArbitrary(
    idFrom([...world.cacheNames, ...world.otherCacheNames], "cachedContents/"),
  );
  const deletable = segmentArbitrary(
    fc.oneof(
      anyString,
      fc.stringMatching(/^[a-z0-9]{1,40}$/),
      ...(world.otherCacheNames.length
        ? [fc.constantFrom(...world.otherCacheNames.map((name) => name.slice(15)))]
        : []),
    ),
  );
  const pageQuery = fc.array(
    fc.tuple(
      fc.constantFrom("pageSize", "page_size", "pageToken", "page_token"),
      fc.oneof(anyString, anyNumber.map(String)),
    ),
    { maxLength: 3 },
  );
  const updateBody = fc.oneof(
    mutated(
      fc.record(
        {
          ttl: durationArbitrary,
          expireTime: timestampArbitrary,
          displayName: anyString,
          model: anyString,
        },
        { requiredKeys: [] },
      ),
    ),
    fc.integer({ min: 60, max: 200_000 }).map((seconds) => ({ ttl: `${seconds}s` })),
    fc
      .date({
        min: new Date(Date.now() + 3_600_000),
        max: new Date(Date.now() + 30 * 86_400_000),
        noInvalidDate: true,
      })
      .map((date) => ({ expireTime: date.toISOString() })),
  );
  return [
    fc
      .record({
        version,
        body: fc.oneof(
          { arbitrary: bodyArbitrary(mutated(cacheCreateArbitrary(world))), weight: 3 },
          {
            // Meant to succeed: enough tokens for the model's minimum, one expiration.
            arbitrary: fc
              .record({
                words: fc.integer({ min: 1_100, max: 3_000 }),
                ttl: fc.integer({ min: 60, max: 86_400 }),
                displayName: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
              })
              .map(({ words, ttl, displayName }) =>
                JSON.stringify({
                  model: "models/gemini-2.5-flash",
                  contents: [{ role: "user", parts: [{ text: "ledger ".repeat(words) }] }],
                  ttl: `${ttl}s`,
                  ...(displayName === undefined ? {} : { displayName }),
                }),
              ),
            weight: 1,
          },
        ),
        contentType: contentTypeArbitrary,
        credentials: credentialsArbitrary(world),
        method: methodArbitrary("POST"),
      })
      .map(({ version, body, contentType, credentials, method }) =>
        build({
          label: "cachedContents.create",
          method,
          path: `${version}/cachedContents`,
          credentials,
          contentType,
          body,
        }),
      ),
    fc
      .record({ version, query: pageQuery, credentials: credentialsArbitrary(world) })
      .map(({ version, query, credentials }) =>
        build({
          label: "cachedContents.list",
          method: "GET",
          path: `${version}/cachedContents`,
          query,
          credentials,
        }),
      ),
    fc
      .record({
        version,
        cacheId,
        credentials: credentialsArbitrary(world),
        method: methodArbitrary("GET"),
      })
      .map(({ version, cacheId, credentials, method }) =>
        build({
          label: "cachedContents.get",
          method: method === "DELETE" ? "GET" : method,
          path: `${version}/cachedContents/${cacheId}`,
          credentials,
        }),
      ),
    fc
      .record({
        version,
        cacheId,
        updateMask: fc.constantFrom(
          undefined,
          "ttl",
          "expireTime",
          "expire_time",
          "ttl,expireTime",
          "model",
          "displayName",
          "",
          "*",
        ),
        body: bodyArbitrary(updateBody),
        contentType: contentTypeArbitrary,
        credentials: credentialsArbitrary(world),
      })
      .map(({ version, cacheId, updateMask, body, contentType, credentials }) =>
        build({
          label: "cachedContents.patch",
          method: "PATCH",
          path: `${version}/cachedContents/${cacheId}`,
          query: [["updateMask", updateMask]],
          credentials,
          contentType,
          body,
        }),
      ),
    fc
      .record({ version, cacheId: deletable, credentials: credentialsArbitrary(world) })
      .map(({ version, cacheId, credentials }) =>
        build({
          label: "cachedContents.delete",
          method: "DELETE",
          path: `${version}/cachedContents/${cacheId}`,
          credentials,
        }),
      ),
  ];
}

/** Upload headers in the spec's spelling, the service's, both (agreeing or not) or neither. */
function uploadHeaders(values) {
  return fc.constantFrom("goog", "svc", "both", "disagree").map((style) => {
    const headers = {};
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (style !== "svc") headers[`x-goog-upload-${name}`] = value;
      if (style === "svc" || style === "both") headers[`x-svc-upload-${name}`] = value;
      if (style === "disagree") headers[`x-svc-upload-${name}`] = `${value}0`;
    }
    return headers;
  });
}

function uploadEndpoints(world) {
  const version = fc.constantFrom(...UPLOAD_VERSIONS);
  const length = fc.oneof(
    fc.integer({ min: 1, max: 4096 }).map(String),
    fc.constantFrom(
      "0",
      "-1",
      "2147483648",
      "2147483649",
      "21474836480",
      "1e3",
      "0x10",
      " 12 ",
      "",
      "18446744073709551616",
    ),
    headerSafeString,
  );
  const startBody = mutated(
    fc.record(
      {
        file: fc.record(
          {
            display_name: anyString,
            displayName: anyString,
            mimeType: fc.constantFrom(...MIME_TYPES),
            mime_type: fc.constantFrom(...MIME_TYPES),
            name: fc.oneof(anyString, fc.stringMatching(/^files\/[a-z0-9]{1,12}$/)),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
  );
  // About a third of starts meant to succeed, so new sessions are stored while the rest is fuzzed.
  const wellFormedStart = fc
    .record({
      version,
      length: fc.integer({ min: 1, max: 4096 }),
      type: fc.constantFrom("text/plain", "image/png", "application/pdf", "audio/wav"),
      displayName: promptText.filter((text) => text.length <= 512),
      credentials: credentialsArbitrary(world),
    })
    .map((draw) =>
      build({
        label: "upload.start",
        method: "POST",
        path: `${draw.version}/files`,
        credentials: draw.credentials,
        contentType: "application/json",
        headers: {
          "x-goog-upload-protocol": "resumable",
          "x-goog-upload-command": "start",
          "x-goog-upload-header-content-length": String(draw.length),
          "x-goog-upload-header-content-type": draw.type,
        },
        body: JSON.stringify({ file: { displayName: draw.displayName } }),
      }),
    );
  const hostileStart = fc
    .record({
      version,
      protocol: fc.constantFrom("resumable", "resumable", "multipart", "RESUMABLE", undefined),
      command: fc.constantFrom(
        "start",
        "start",
        "start",
        "upload",
        "start, upload",
        "query",
        "",
        undefined,
      ),
      length: fc.option(length, { nil: undefined }),
      type: fc.option(fc.constantFrom(...MIME_TYPES), { nil: undefined }),
      body: bodyArbitrary(startBody),
      contentType: contentTypeArbitrary,
      credentials: credentialsArbitrary(world),
      method: methodArbitrary("POST"),
    })
    .chain((draw) =>
      uploadHeaders({
        protocol: draw.protocol,
        command: draw.command,
        "header-content-length": draw.length,
        "header-content-type": draw.type,
      }).map((headers) =>
        build({
          label: "upload.start",
          method: draw.method,
          path: `${draw.version}/files`,
          credentials: draw.credentials,
          contentType: draw.contentType,
          headers,
          body: draw.body,
        }),
      ),
    );
  const start = fc.oneof(
    { arbitrary: wellFormedStart, weight: 1 },
    { arbitrary: hostileStart, weight: 2 },
  );
  const uploadId = idFrom(world.uploadIds);
  // A well-formed query of an open session (its state changes as the fuzz goes on, so the other commands mostly fail).
  const openSession = world.uploadIds.length ? fc.constantFrom(...world.uploadIds) : uploadId;
  const wellFormedQuery = fc.record({ version, uploadId: openSession }).map((draw) =>
    build({
      label: "upload.session",
      method: "POST",
      path: `${draw.version}/files`,
      query: [["upload_id", draw.uploadId]],
      headers: { "x-goog-upload-command": "query" },
    }),
  );
  const hostileSession = fc
    .record({
      version,
      uploadId,
      command: fc.constantFrom(
        "upload",
        "upload, finalize",
        "finalize",
        "query",
        "cancel",
        "upload, cancel",
        "start",
        "UPLOAD",
        "",
        "delete",
      ),
      offset: fc.option(
        fc.oneof(
          fc.nat({ max: 70_000 }).map(String),
          fc.constantFrom("0", "-1", "1.5", "9007199254740993", "abc", ""),
        ),
        { nil: undefined },
      ),
      body: fc.oneof(
        fc.uint8Array({ maxLength: 2048 }),
        fc.nat({ max: 70_000 }).map((size) => new Uint8Array(size).fill(97)),
        fc.constant(undefined),
      ),
      credentials: fc.oneof(fc.constant({}), credentialsArbitrary(world)),
      method: fc.constantFrom("POST", "POST", "PUT", "GET", "DELETE"),
      extraQuery: fc.constantFrom(
        [],
        [["upload_protocol", "resumable"]],
        [["upload_id", "second"]],
      ),
    })
    .chain((draw) =>
      uploadHeaders({ command: draw.command, offset: draw.offset }).map((headers) =>
        build({
          label: "upload.session",
          method: draw.method,
          path: `${draw.version}/files`,
          query: [["upload_id", draw.uploadId], ...draw.extraQuery],
          credentials: draw.credentials,
          contentType: "application/json",
          headers,
          body: draw.body,
        }),
      ),
    );
  const session = fc.oneof(
    { arbitrary: wellFormedQuery, weight: 1 },
    { arbitrary: hostileSession, weight: 4 },
  );
  return [start, session];
}

function sessionEndpoints(world) {
  const origin = `http://${world.host}`;
  const body = bodyArbitrary(
    mutated(
      fc.record(
        { accessCode: fc.oneof(fc.constant(world.accessCode ?? ""), anyString) },
        { requiredKeys: [] },
      ),
    ),
  );
  const siteHeaders = fc.constantFrom(
    { origin, "sec-fetch-site": "same-origin" },
    {},
    { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site" },
    { origin: "null" },
    { origin: "not a url" },
  );
  return [
    fc
      .record({
        method: methodArbitrary("POST"),
        body,
        contentType: contentTypeArbitrary,
        site: siteHeaders,
      })
      .map(({ method, body, contentType, site }) =>
        build({
          label: "session.post",
          method,
          path: "/api/session",
          contentType,
          headers: site,
          body,
        }),
      ),
    fc.record({ token: headerSafeString, site: siteHeaders }).map(({ token, site }) =>
      // Never the world's own cookie: signing it out would leave the rest of the run without a session.
      build({
        label: "session.delete",
        method: "DELETE",
        path: "/api/session",
        headers: { ...site, cookie: `genstudio_session=${token}` },
      }),
    ),
    fc
      .record({ credentials: credentialsArbitrary(world) })
      .map(({ credentials }) =>
        build({ label: "session.get", method: "GET", path: "/api/session", credentials }),
      ),
  ];
}

function conversationEndpoints(world) {
  const settings = fc.record(
    {
      model: fc.oneof(
        fc.constantFrom(...world.models.map((model) => `models/${model}`)),
        anyString,
      ),
      systemInstruction: promptText,
      generationConfig: generationConfigArbitrary,
      safetySettings: fc.array(
        fc.record({
          category: fc.constantFrom(...RPC_CATEGORIES),
          threshold: fc.constantFrom(...THRESHOLDS),
        }),
        { maxLength: 3 },
      ),
      tools: fc.array(toolArbitrary, { maxLength: 2 }),
      toolConfig: toolConfigArbitrary,
    },
    { requiredKeys: ["model"] },
  );
  const messageId = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
    anyString,
    ...(world.messageIds.length ? [fc.constantFrom(...world.messageIds)] : []),
  );
  const message = fc.record(
    {
      id: messageId,
      role: fc.constantFrom("user", "model", "system"),
      content: contentArbitrary(world),
      candidates: fc.array(
        fc.record({
          content: contentArbitrary(world),
          finishReason: fc.constantFrom("STOP", "SAFETY"),
        }),
        { maxLength: 2 },
      ),
      selectedCandidate: anyNumber,
      usageMetadata: fc.record({ promptTokenCount: anyNumber }),
      modelVersion: anyString,
      settings: fc.constant({ model: "models/gemini-2.5-flash" }),
      error: fc.record({ code: anyNumber, message: anyString, status: anyString }),
      stopped: fc.boolean(),
      createdAt: timestampArbitrary,
    },
    { requiredKeys: ["id", "role", "content"] },
  );
  const conversationId = segmentArbitrary(
    idFrom([...world.conversationIds, ...world.otherConversationIds]),
  );
  const deletable = segmentArbitrary(
    fc.oneof(
      anyString,
      ...(world.otherConversationIds.length
        ? [fc.constantFrom(...world.otherConversationIds)]
        : []),
    ),
  );
  const credentials = credentialsArbitrary(world);
  return [
    fc
      .record({
        query: fc.array(fc.tuple(fc.constant("q"), anyString), { maxLength: 1 }),
        credentials,
        method: methodArbitrary("GET"),
      })
      .map(({ query, credentials, method }) =>
        build({
          label: "conversations.list",
          method,
          path: "/api/conversations",
          query,
          credentials,
        }),
      ),
    fc
      .record({
        body: bodyArbitrary(
          mutated(fc.record({ title: anyString, settings }, { requiredKeys: ["settings"] })),
        ),
        contentType: contentTypeArbitrary,
        credentials,
      })
      .map(({ body, contentType, credentials }) =>
        build({
          label: "conversations.create",
          method: "POST",
          path: "/api/conversations",
          credentials,
          contentType,
          body,
        }),
      ),
    fc
      .record({ id: conversationId, credentials, method: methodArbitrary("GET") })
      .map(({ id, credentials, method }) =>
        build({
          label: "conversations.get",
          method: method === "DELETE" ? "GET" : method,
          path: `/api/conversations/${id}`,
          credentials,
        }),
      ),
    fc
      .record({
        id: conversationId,
        body: bodyArbitrary(
          mutated(fc.record({ title: anyString, settings }, { requiredKeys: [] })),
        ),
        contentType: contentTypeArbitrary,
        credentials,
      })
      .map(({ id, body, contentType, credentials }) =>
        build({
          label: "conversations.patch",
          method: "PATCH",
          path: `/api/conversations/${id}`,
          credentials,
          contentType,
          body,
        }),
      ),
    fc.record({ id: deletable, credentials }).map(({ id, credentials }) =>
      build({
        label: "conversations.delete",
        method: "DELETE",
        path: `/api/conversations/${id}`,
        credentials,
      }),
    ),
    fc
      .record({
        id: conversationId,
        body: bodyArbitrary(
          mutated(
            fc.record(
              {
                after: fc.oneof(fc.constant(null), messageId),
                messages: fc.array(message, { maxLength: 3 }),
              },
              { requiredKeys: ["messages"] },
            ),
          ),
        ),
        contentType: contentTypeArbitrary,
        credentials,
        method: methodArbitrary("POST"),
      })
      .map(({ id, body, contentType, credentials, method }) =>
        build({
          label: "conversations.messages",
          method,
          path: `/api/conversations/${id}/messages`,
          credentials,
          contentType,
          body,
        }),
      ),
  ];
}

/** Every endpoint's arbitrary, with its label, so a run can report per endpoint. */
export function endpointArbitraries(world) {
  return [
    ...modelsEndpoints(world),
    ...generationEndpoints(world),
    ...filesEndpoints(world),
    ...cacheEndpoints(world),
    ...uploadEndpoints(world),
    ...sessionEndpoints(world),
    ...conversationEndpoints(world),
    ...interactionEndpoints(world, {
      build,
      credentials: credentialsArbitrary,
      method: methodArbitrary,
    }),
  ];
}

/** Any request to any endpoint, generation and uploads weighted up (they have the most to break). */
export function requestArbitrary(world) {
  const endpoints = endpointArbitraries(world);
  const [count, generate] = generationEndpoints(world);
  const [, uploadSession] = uploadEndpoints(world);
  return fc.oneof(
    ...endpoints.map((arbitrary) => ({ arbitrary, weight: 2 })),
    { arbitrary: count, weight: 4 },
    { arbitrary: generate, weight: 6 },
    { arbitrary: uploadSession, weight: 3 },
  );
}

export { HOSTILE_STRINGS };
