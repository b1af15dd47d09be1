/**
 * Property tests: requests that are valid by construction, spelled with a random mix of
 * camelCase and snake_case field names, parse to exactly their camelCase form; random and
 * mutated bodies never make any entry point throw anything but ApiError 400.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import {
  HARM_BLOCK_THRESHOLDS,
  MEDIA_RESOLUTIONS,
  PREBUILT_VOICE_NAMES,
} from "./schemas/constants";
import { FLASH, TTS } from "../testing/model-traits";
import { camelToSnake } from "./schemas/wire";
import { SUPPORTED_HARM_CATEGORIES } from "./types";
import { parseCachedContentCreate, parseCachedContentUpdate } from "./validate-caches";
import {
  parseCountTokensRequest,
  parseGenerateContentRequest,
  validateGenerationConfigFields,
} from "./validate";
import { parseUploadStartBody } from "./validate-upload";

/** A value as the parser must return it, and one way a client may spell it on the wire. */
interface Spelled {
  camel: unknown;
  wire: unknown;
}

const same = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<Spelled> =>
  arbitrary.map((value) => ({ camel: value, wire: value }));

/** A wire object whose own keys are each spelled camelCase or snake_case at random. */
function message(
  shape: Record<string, fc.Arbitrary<Spelled>>,
  requiredKeys: string[] = [],
): fc.Arbitrary<Spelled> {
  return fc
    .tuple(
      fc.record(shape, { requiredKeys }),
      fc.array(fc.boolean(), { minLength: 32, maxLength: 32 }),
    )
    .map(([fields, snake]) => {
      const camel: Record<string, unknown> = {};
      const wire: Record<string, unknown> = {};
      Object.entries(fields).forEach(([key, value], index) => {
        camel[key] = value.camel;
        wire[snake[index] ? camelToSnake(key) : key] = value.wire;
      });
      return { camel, wire };
    });
}

function list(
  item: fc.Arbitrary<Spelled>,
  constraints: fc.ArrayConstraints = {},
): fc.Arbitrary<Spelled> {
  return fc.array(item, constraints).map((items) => ({
    camel: items.map((entry) => entry.camel),
    wire: items.map((entry) => entry.wire),
  }));
}

const base64 = fc.uint8Array({ maxLength: 48 }).map((bytes) => btoa(String.fromCharCode(...bytes)));
const functionName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_.-]{0,20}$/);
const struct = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), {
  maxKeys: 4,
});
const mimeType = fc.constantFrom(
  "image/png",
  "image/jpeg",
  "audio/wav",
  "video/mp4",
  "application/pdf",
  "text/plain",
);

const partData = fc.oneof(
  message({ text: same(fc.string({ maxLength: 40 })) }, ["text"]),
  message(
    { inlineData: message({ mimeType: same(mimeType), data: same(base64) }, ["mimeType", "data"]) },
    ["inlineData"],
  ),
  message(
    { fileData: message({ mimeType: same(mimeType), fileUri: same(fc.webUrl()) }, ["fileUri"]) },
    ["fileData"],
  ),
  message(
    {
      functionCall: message(
        { id: same(fc.string({ maxLength: 8 })), name: same(functionName), args: same(struct) },
        ["name"],
      ),
    },
    ["functionCall"],
  ),
  message(
    {
      functionResponse: message({ name: same(functionName), response: same(struct) }, [
        "name",
        "response",
      ]),
    },
    ["functionResponse"],
  ),
  message(
    {
      executableCode: message({ language: same(fc.constant("PYTHON")), code: same(fc.string()) }, [
        "language",
        "code",
      ]),
    },
    ["executableCode"],
  ),
  message(
    {
      codeExecutionResult: message(
        {
          outcome: same(fc.constantFrom("OUTCOME_OK", "OUTCOME_FAILED")),
          output: same(fc.string()),
        },
        ["outcome"],
      ),
    },
    ["codeExecutionResult"],
  ),
);

/** A part: one data field plus, sometimes, the thought flags. */
const part = fc
  .tuple(partData, message({ thought: same(fc.boolean()), thoughtSignature: same(base64) }))
  .map(([data, flags]) => ({
    camel: { ...(data.camel as object), ...(flags.camel as object) },
    wire: { ...(data.wire as object), ...(flags.wire as object) },
  }));

const content = message(
  {
    role: same(fc.constantFrom("user", "model")),
    parts: list(part, { minLength: 1, maxLength: 3 }),
  },
  ["parts"],
);

const thinkingBudget = fc.oneof(
  fc.constant(-1),
  fc.constant(0),
  fc.integer({ min: FLASH.thinking!.minBudget, max: FLASH.thinking!.maxBudget }),
);

const generationConfig = message({
  stopSequences: same(fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 5 })),
  responseMimeType: same(fc.constantFrom("text/plain", "application/json")),
  responseModalities: same(fc.constantFrom([], ["TEXT"])),
  candidateCount: same(fc.integer({ min: 1, max: 8 })),
  maxOutputTokens: same(fc.integer({ min: 1, max: FLASH.outputTokenLimit })),
  temperature: same(fc.double({ min: 0, max: 2, noNaN: true })),
  topP: same(fc.double({ min: 0, max: 1, noNaN: true })),
  topK: same(fc.integer({ min: 1, max: 1000 })),
  seed: same(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
  presencePenalty: same(fc.double({ min: -2, max: 1.999, noNaN: true })),
  frequencyPenalty: same(fc.double({ min: -2, max: 1.999, noNaN: true })),
  enableEnhancedCivicAnswers: same(fc.boolean()),
  thinkingConfig: message({
    includeThoughts: same(fc.boolean()),
    thinkingBudget: same(thinkingBudget),
  }),
  mediaResolution: same(fc.constantFrom(...MEDIA_RESOLUTIONS)),
});

const safetySettings = fc
  .tuple(
    fc.subarray([...SUPPORTED_HARM_CATEGORIES]),
    fc.array(fc.constantFrom(...HARM_BLOCK_THRESHOLDS.slice(1)), { minLength: 5, maxLength: 5 }),
  )
  .chain(([categories, thresholds]) =>
    fc.tuple(
      ...categories.map((category, index) =>
        message(
          {
            category: same(fc.constant(category)),
            threshold: same(fc.constant(thresholds[index]!)),
          },
          ["category", "threshold"],
        ),
      ),
    ),
  )
  .map((settings) => ({
    camel: settings.map((setting) => setting.camel),
    wire: settings.map((setting) => setting.wire),
  }));

/** Schemas typed in lower case on the wire come back upper case. */
const leafSchema = fc
  .constantFrom("STRING", "NUMBER", "INTEGER", "BOOLEAN")
  .chain((type) =>
    fc
      .boolean()
      .map((lower) => ({ camel: { type }, wire: { type: lower ? type.toLowerCase() : type } })),
  );
const parameters = fc
  .dictionary(fc.string({ minLength: 1, maxLength: 10 }), leafSchema, { minKeys: 1, maxKeys: 3 })
  .map((properties) => ({
    camel: {
      type: "OBJECT",
      properties: Object.fromEntries(
        Object.entries(properties).map(([name, schema]) => [name, schema.camel]),
      ),
    },
    wire: {
      type: "object",
      properties: Object.fromEntries(
        Object.entries(properties).map(([name, schema]) => [name, schema.wire]),
      ),
    },
  }));

const tools = fc.uniqueArray(functionName, { minLength: 1, maxLength: 3 }).chain((names) =>
  fc
    .tuple(
      ...names.map((name) =>
        message({ name: same(fc.constant(name)), description: same(fc.string()), parameters }, [
          "name",
        ]),
      ),
    )
    .map((declarations) => ({
      names,
      tools: message(
        {
          functionDeclarations: fc.constant({
            camel: declarations.map((entry) => entry.camel),
            wire: declarations.map((entry) => entry.wire),
          }),
        },
        ["functionDeclarations"],
      ),
    })),
);

const generateContentRequest = fc
  .record({
    body: message(
      {
        contents: list(content, { minLength: 1, maxLength: 4 }),
        systemInstruction: message(
          {
            parts: list(message({ text: same(fc.string()) }, ["text"]), {
              minLength: 1,
              maxLength: 2,
            }),
          },
          ["parts"],
        ),
        generationConfig,
        safetySettings,
      },
      ["contents"],
    ),
    declared: fc.option(tools, { nil: undefined }),
  })
  .chain(({ body, declared }) => {
    if (!declared) return fc.constant(body);
    return fc
      .tuple(declared.tools, fc.subarray(declared.names, { minLength: 1 }))
      .map(([toolList, allowed]) => ({
        camel: {
          ...(body.camel as object),
          tools: [toolList.camel],
          toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: allowed } },
        },
        wire: {
          ...(body.wire as object),
          tools: [toolList.wire],
          tool_config: {
            function_calling_config: { mode: "ANY", allowed_function_names: allowed },
          },
        },
      }));
  });

const CAPABILITY_MESSAGE =
  /^(?:Request contains an invalid argument\.|Thinking is not enabled for this model|LogProbs is not supported in streaming mode|Logprobs is not enabled for this model|The requested combination of response modalities is not supported by the model\.|Invalid or unsupported file uri: )/;

function expectOnlyBadRequests(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.httpStatus).toBe(400);
    expect(apiError.rpcStatus).toBe("INVALID_ARGUMENT");
    expect(apiError.message.length).toBeGreaterThan(0);
    // The service's refusals of what a model cannot do are one plain message with no details.
    if (!CAPABILITY_MESSAGE.test(apiError.message))
      expect(apiError.toBody().error.details?.length).toBeGreaterThan(0);
  }
}

/** Every entry point, fed the same body. */
function everyEntryPoint(body: unknown): void {
  expectOnlyBadRequests(() => parseGenerateContentRequest(body, FLASH));
  expectOnlyBadRequests(() => parseGenerateContentRequest(body, TTS));
  expectOnlyBadRequests(() => parseCountTokensRequest(body, FLASH));
  expectOnlyBadRequests(() => parseCachedContentCreate(body));
  expectOnlyBadRequests(() => parseCachedContentUpdate(body, null));
  expectOnlyBadRequests(() => parseCachedContentUpdate(body, "ttl"));
  expectOnlyBadRequests(() => parseUploadStartBody(body));
  expect(Array.isArray(validateGenerationConfigFields(body, FLASH))).toBe(true);
}

/** Every [path, value] inside a JSON value. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const found: (string | number)[][] = [prefix];
  if (Array.isArray(value))
    value.forEach((item, index) => found.push(...paths(item, [...prefix, index])));
  else if (value && typeof value === "object")
    for (const [key, child] of Object.entries(value)) found.push(...paths(child, [...prefix, key]));
  return found;
}

function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head!] = replaceAt(copy[head!], rest, replacement);
  return copy;
}

describe("valid requests, any spelling", () => {
  it("parse to their camelCase form", () => {
    fc.assert(
      fc.property(generateContentRequest, ({ camel, wire }) => {
        expect(parseGenerateContentRequest(wire, FLASH)).toEqual(camel);
      }),
      { numRuns: 300 },
    );
  });

  it("count tokens the same way inside generateContentRequest", () => {
    fc.assert(
      fc.property(generateContentRequest, fc.boolean(), ({ camel, wire }, snake) => {
        const body = snake ? { generate_content_request: wire } : { generateContentRequest: wire };
        expect(parseCountTokensRequest(body, FLASH)).toEqual({ generateContentRequest: camel });
      }),
      { numRuns: 100 },
    );
  });

  it("make valid cached contents", () => {
    const cache = message(
      {
        displayName: same(
          fc
            .string({ maxLength: 128, unit: "grapheme-composite" })
            .filter((text) => [...text].length <= 128),
        ),
        contents: list(content, { minLength: 1, maxLength: 3 }),
        ttl: same(
          fc
            .tuple(
              fc.integer({ min: 0, max: 10_000_000 }),
              fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
            )
            .map(([seconds, fraction]) => `${seconds}${fraction ? `.${fraction}` : ""}s`),
        ),
      },
      [],
    );
    fc.assert(
      fc.property(cache, ({ camel, wire }) => {
        expect(
          parseCachedContentCreate({ ...(wire as object), model: "models/gemini-2.5-flash" }),
        ).toEqual({ ...(camel as object), model: "models/gemini-2.5-flash" });
      }),
      { numRuns: 100 },
    );
  });

  it("take any prebuilt voice on a speech model", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PREBUILT_VOICE_NAMES), fc.boolean(), (voiceName, snake) => {
        const speechConfig = snake
          ? { voice_config: { prebuilt_voice_config: { voice_name: voiceName } } }
          : { voiceConfig: { prebuiltVoiceConfig: { voiceName } } };
        const parsed = parseGenerateContentRequest(
          {
            contents: { parts: { text: "Say hi" } },
            generationConfig: { responseModalities: ["AUDIO"], speechConfig },
          },
          TTS,
        );
        expect(parsed.generationConfig?.speechConfig).toEqual({
          voiceConfig: { prebuiltVoiceConfig: { voiceName } },
        });
      }),
    );
  });
});

describe("garbage", () => {
  it("random values only ever get ApiError 400", () => {
    fc.assert(fc.property(fc.anything({ maxDepth: 4 }), everyEntryPoint), { numRuns: 300 });
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), everyEntryPoint), { numRuns: 300 });
  });

  it("valid requests with one part replaced by junk only ever get ApiError 400", () => {
    const mutated = generateContentRequest.chain(({ wire }) => {
      const all = paths(wire);
      return fc
        .tuple(
          fc.constantFrom(...all),
          fc.oneof(
            fc.jsonValue({ maxDepth: 3 }),
            fc.constantFrom(null, "", 0, -1, 1e308, "AAAA", [], {}),
          ),
        )
        .map(([path, junk]) => replaceAt(wire, path, junk));
    });
    fc.assert(fc.property(mutated, everyEntryPoint), { numRuns: 300 });
  });

  it("valid requests with a wrong key added are refused naming that key", () => {
    const withExtra = generateContentRequest.chain(({ wire }) => {
      const objects = paths(wire).filter((path) => {
        let node: unknown = wire;
        for (const segment of path) node = (node as Record<string | number, unknown>)[segment];
        return (
          node !== null &&
          typeof node === "object" &&
          !Array.isArray(node) &&
          path.every((segment) => !["args", "response", "properties"].includes(String(segment)))
        );
      });
      return fc.constantFrom(...objects).map((path) => {
        let node: unknown = wire;
        for (const segment of path) node = (node as Record<string | number, unknown>)[segment];
        return replaceAt(wire, path, { ...(node as object), zzUnknownField: 1 });
      });
    });
    fc.assert(
      fc.property(withExtra, (body) => {
        try {
          parseGenerateContentRequest(body, FLASH);
          throw new Error("accepted an unknown field");
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).message).toContain('Unknown name "zzUnknownField"');
        }
      }),
      { numRuns: 200 },
    );
  });
});
