import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { JSON_SCHEMA_KEYWORDS } from "./json-schema-subset";
import type { ModelTraits } from "./model-traits";
import { PREBUILT_VOICE_NAMES, SPEECH_LANGUAGE_CODES } from "./schemas/constants";
import { FLASH, FLASH_2_0, IMAGE, LEGACY, NO_TOP_K, PRO, TTS } from "../testing/model-traits";
import { parseCachedContentCreate, parseCachedContentUpdate } from "./validate-caches";
import {
  parseCountTokensRequest,
  parseGenerateContentRequest,
  validateGenerationConfigFields,
  validateToolFields,
} from "./validate";
import { parseUploadStartBody } from "./validate-upload";

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the request to be refused");
}

/** The 400 message generateContent gives `body` on `traits`. */
function refusal(body: unknown, traits: ModelTraits = FLASH): string {
  const error = errorOf(() => parseGenerateContentRequest(body, traits));
  expect(error.httpStatus).toBe(400);
  expect(error.rpcStatus).toBe("INVALID_ARGUMENT");
  return error.message;
}

const hello = { contents: [{ role: "user", parts: [{ text: "Hello" }] }] };
const withConfig = (generationConfig: Record<string, unknown>) => ({ ...hello, generationConfig });
const configRefusal = (generationConfig: Record<string, unknown>, traits: ModelTraits = FLASH) =>
  refusal(withConfig(generationConfig), traits);
const accepts = (body: unknown, traits: ModelTraits = FLASH) =>
  expect(() => parseGenerateContentRequest(body, traits)).not.toThrow();
const acceptsConfig = (generationConfig: Record<string, unknown>, traits: ModelTraits = FLASH) =>
  accepts(withConfig(generationConfig), traits);
const line = (field: string, description: string) =>
  `* GenerateContentRequest.${field}: ${description}`;

describe("contents", () => {
  it("is required and must not be empty", () => {
    expect(refusal({})).toBe(line("contents", "contents is not specified"));
    expect(refusal({ contents: [] })).toBe(line("contents", "contents is not specified"));
    expect(refusal(null)).toBe(line("contents", "contents is not specified"));
  });

  it("needs at least one part in every Content", () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "a" }] },
        { role: "model", parts: [] },
      ],
    };
    const error = errorOf(() => parseGenerateContentRequest(body, FLASH));
    expect(error.message).toBe(
      "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty.",
    );
    expect(error.toBody()).toEqual({
      error: {
        code: 400,
        status: "INVALID_ARGUMENT",
        message: "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty.",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [
              { field: "contents[1].parts", description: "contents.parts must not be empty." },
            ],
          },
        ],
      },
    });
    expect(refusal({ contents: [{ role: "user" }] })).toBe(
      line("contents[0].parts", "contents.parts must not be empty."),
    );
  });

  it("needs exactly one data field in a part", () => {
    expect(refusal({ contents: [{ parts: [{}] }] })).toBe(
      line(
        "contents[0].parts[0].data",
        "required oneof field 'data' must have one initialized field",
      ),
    );
    expect(refusal({ contents: [{ parts: [{ thought: true }] }] })).toBe(
      line(
        "contents[0].parts[0].data",
        "required oneof field 'data' must have one initialized field",
      ),
    );
    expect(
      refusal({
        contents: [
          { parts: [{ text: "a", inline_data: { mime_type: "image/png", data: "AAAA" } }] },
        ],
      }),
    ).toBe(
      "Invalid JSON payload received. Invalid value at 'contents[0].parts[0]' (oneof), oneof field 'data' is already set. Cannot set 'inline_data'",
    );
  });

  it("lists every violation, one line each", () => {
    const body = {
      contents: [
        { role: "user", parts: [] },
        { role: "user", parts: [{}] },
      ],
    };
    expect(refusal(body)).toBe(
      [
        line("contents[0].parts", "contents.parts must not be empty."),
        line(
          "contents[1].parts[0].data",
          "required oneof field 'data' must have one initialized field",
        ),
      ].join("\n"),
    );
  });

  it("accepts the roles the service accepts", () => {
    for (const role of ["user", "model", "function", "tool", ""])
      accepts({ contents: [{ role, parts: [{ text: "x" }] }] });
    accepts({ contents: [{ parts: [{ text: "x" }] }] });
    expect(refusal({ contents: [{ role: "system", parts: [{ text: "x" }] }] })).toBe(
      line("contents[0].role", 'Please use a valid role: user, model. Got "system".'),
    );
    expect(refusal({ contents: [{ role: "User", parts: [{ text: "x" }] }] })).toBe(
      line("contents[0].role", 'Please use a valid role: user, model. Got "User".'),
    );
  });

  it("checks that inline data is base64", () => {
    accepts({
      contents: [{ parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }] }],
    });
    accepts({
      contents: [{ parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo" } }] }],
    });
    accepts({
      contents: [
        { parts: [{ inlineData: { mimeType: "application/octet-stream", data: "-_-_" } }] },
      ],
    });
    accepts({ contents: [{ parts: [{ inlineData: { mimeType: "text/plain", data: "" } }] }] });
    expect(
      refusal({
        contents: [{ parts: [{ inlineData: { mimeType: "image/png", data: "not base64!" } }] }],
      }),
    ).toBe(
      "Invalid JSON payload received. Invalid value at 'contents[0].parts[0].inline_data.data' (TYPE_BYTES), Base64 decoding failed for \"not base64!\"",
    );
    expect(
      refusal({
        contents: [{ parts: [{ inlineData: { mimeType: "image/png", data: "abcde" } }] }],
      }),
    ).toBe(
      "Invalid JSON payload received. Invalid value at 'contents[0].parts[0].inline_data.data' (TYPE_BYTES), Base64 decoding failed for \"abcde\"",
    );
    expect(refusal({ contents: [{ parts: [{ text: "x", thoughtSignature: "a=b=" }] }] })).toBe(
      "Invalid JSON payload received. Invalid value at 'contents[0].parts[0].thought_signature' (TYPE_BYTES), Base64 decoding failed for \"a=b=\"",
    );
  });

  it("needs the required fields of each part kind", () => {
    expect(refusal({ contents: [{ parts: [{ inlineData: { data: "AAAA" } }] }] })).toBe(
      line("contents[0].parts[0].inline_data.mime_type", "inline_data.mime_type is required."),
    );
    expect(
      refusal({ contents: [{ parts: [{ inlineData: { mimeType: "", data: "AAAA" } }] }] }),
    ).toBe(
      line("contents[0].parts[0].inline_data.mime_type", "inline_data.mime_type is required."),
    );
    expect(refusal({ contents: [{ parts: [{ fileData: { mimeType: "video/mp4" } }] }] })).toBe(
      line("contents[0].parts[0].file_data.file_uri", "file_data.file_uri is required."),
    );
    expect(refusal({ contents: [{ parts: [{ functionCall: { args: {} } }] }] })).toBe(
      line("contents[0].parts[0].function_call.name", "function_call.name is required."),
    );
    expect(
      refusal({ contents: [{ role: "user", parts: [{ functionResponse: { name: "f" } }] }] }),
    ).toBe(
      line(
        "contents[0].parts[0].function_response.response",
        "function_response.response is required.",
      ),
    );
    expect(
      refusal({
        contents: [
          { parts: [{ fileData: { fileUri: "files/abc" }, videoMetadata: { startOffset: "10" } }] },
        ],
      }),
    ).toBe(
      line(
        "contents[0].parts[0].video_metadata.start_offset",
        'a duration is seconds with up to 9 fractional digits followed by "s", like "3600s" or "1.5s"; got "10".',
      ),
    );
    expect(
      refusal({
        contents: [{ parts: [{ fileData: { fileUri: "files/abc" }, videoMetadata: { fps: 30 } }] }],
      }),
    ).toBe(
      line(
        "contents[0].parts[0].video_metadata.fps",
        "fps must be in the range (0.0, 24.0]; got 30.",
      ),
    );
  });

  it("accepts every part kind", () => {
    accepts({
      contents: [
        {
          role: "user",
          parts: [
            { text: "Run it" },
            {
              fileData: { fileUri: "https://example.com/files/abc", mimeType: "video/mp4" },
              videoMetadata: { startOffset: "1.5s", endOffset: "10s", fps: 2 },
            },
          ],
        },
        {
          role: "model",
          parts: [
            { text: "thinking", thought: true, thoughtSignature: "c2lnbmF0dXJl" },
            { functionCall: { id: "call-1", name: "lookup", args: { q: "x" } } },
            { executableCode: { language: "PYTHON", code: "print(1)" } },
            { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1\n" } },
          ],
        },
        {
          role: "user",
          parts: [{ functionResponse: { id: "call-1", name: "lookup", response: { result: 42 } } }],
        },
      ],
    });
  });
});

describe("systemInstruction", () => {
  it("takes text only", () => {
    accepts({ ...hello, systemInstruction: { parts: [{ text: "Be brief." }] } });
    accepts({ ...hello, system_instruction: { role: "system", parts: { text: "Be brief." } } });
    expect(
      refusal({
        ...hello,
        systemInstruction: {
          parts: [{ text: "a" }, { inlineData: { mimeType: "image/png", data: "AAAA" } }],
        },
      }),
    ).toBe(
      line(
        "system_instruction.parts[1].inline_data",
        "system_instruction supports text parts only; got inline_data.",
      ),
    );
    expect(refusal({ ...hello, systemInstruction: { parts: [] } })).toBe(
      line("system_instruction.parts", "system_instruction.parts must not be empty."),
    );
  });
});

describe("generationConfig: output format", () => {
  it("allows at most 5 non-empty stop sequences", () => {
    acceptsConfig({ stopSequences: ["a", "b", "c", "d", "e"] });
    expect(configRefusal({ stopSequences: ["a", "b", "c", "d", "e", "f"] })).toBe(
      line("generation_config.stop_sequences", "at most 5 stop sequences are allowed; got 6."),
    );
    expect(configRefusal({ stopSequences: ["a", ""] })).toBe(
      line("generation_config.stop_sequences[1]", "a stop sequence must not be empty."),
    );
  });

  it("allows three response mime types", () => {
    acceptsConfig({ responseMimeType: "text/plain" });
    acceptsConfig({ responseMimeType: "application/json" });
    expect(configRefusal({ responseMimeType: "text/html" })).toBe(
      line(
        "generation_config.response_mime_type",
        "allowed mimetypes are `text/plain`, `application/json` and `text/x.enum`; got `text/html`.",
      ),
    );
  });

  it("needs an enum of strings for text/x.enum", () => {
    acceptsConfig({
      responseMimeType: "text/x.enum",
      responseSchema: { type: "STRING", enum: ["Brass", "Wood"] },
    });
    acceptsConfig({
      responseMimeType: "text/x.enum",
      responseJsonSchema: { type: "string", enum: ["Brass", "Wood"] },
    });
    const expected = line(
      "generation_config.response_mime_type",
      "`text/x.enum` requires a response_schema of type STRING with an enum of strings.",
    );
    expect(configRefusal({ responseMimeType: "text/x.enum" })).toBe(expected);
    expect(
      configRefusal({ responseMimeType: "text/x.enum", responseSchema: { type: "STRING" } }),
    ).toBe(expected);
    expect(
      configRefusal({ responseMimeType: "text/x.enum", responseJsonSchema: { enum: [1, 2] } }),
    ).toBe(expected);
  });

  it("needs a JSON or enum mime type for responseSchema", () => {
    acceptsConfig({
      responseMimeType: "application/json",
      responseSchema: { type: "OBJECT", properties: { a: { type: "STRING" } } },
    });
    expect(configRefusal({ responseSchema: { type: "STRING" } })).toBe(
      line(
        "generation_config.response_schema",
        "response_schema requires response_mime_type `application/json` or `text/x.enum`; got `text/plain`.",
      ),
    );
    expect(
      configRefusal({ responseMimeType: "text/plain", responseSchema: { type: "STRING" } }),
    ).toBe(
      line(
        "generation_config.response_schema",
        "response_schema requires response_mime_type `application/json` or `text/x.enum`; got `text/plain`.",
      ),
    );
  });

  it("needs a mime type for responseJsonSchema and refuses it beside responseSchema", () => {
    acceptsConfig({
      responseMimeType: "application/json",
      responseJsonSchema: { type: "object", properties: { a: { type: "string" } } },
    });
    expect(configRefusal({ responseJsonSchema: { type: "string" } })).toBe(
      line(
        "generation_config.response_mime_type",
        "response_mime_type must be set when response_json_schema is set.",
      ),
    );
    expect(
      configRefusal({ responseMimeType: "text/plain", responseJsonSchema: { type: "string" } }),
    ).toBe(
      line(
        "generation_config.response_json_schema",
        "response_json_schema requires response_mime_type `application/json` or `text/x.enum`; got `text/plain`.",
      ),
    );
    expect(
      configRefusal({
        responseMimeType: "application/json",
        responseSchema: { type: "STRING" },
        responseJsonSchema: { type: "string" },
      }),
    ).toBe(
      line(
        "generation_config.response_schema",
        "response_schema and response_json_schema are mutually exclusive; set only one of them.",
      ),
    );
  });

  it("holds responseJsonSchema to JSON Schema's keywords", () => {
    expect(
      configRefusal({
        responseMimeType: "application/json",
        responseJsonSchema: { type: "string", minLength: 2, colour: "red" },
      }),
    ).toBe(
      line(
        "generation_config.response_json_schema.colour",
        `"colour" is not a JSON Schema keyword; response_json_schema supports ${JSON_SCHEMA_KEYWORDS.join(", ")}.`,
      ),
    );
    // A title beside a $ref is accepted, as the service accepts it (recorded, 2025-2026).
    acceptsConfig({
      responseMimeType: "application/json",
      responseJsonSchema: {
        $defs: { a: { type: "string" } },
        properties: { x: { $ref: "#/$defs/a", title: "X" } },
      },
    });
    expect(
      configRefusal({
        responseMimeType: "application/json",
        responseJsonSchema: { $ref: "#/$defs/gone" },
      }),
    ).toBe(
      line(
        "generation_config.response_json_schema.$ref",
        '$ref "#/$defs/gone" cannot be resolved.',
      ),
    );
    expect(
      configRefusal({
        responseMimeType: "application/json",
        responseJsonSchema: { enum: ["a", false] },
      }),
    ).toBe(
      line(
        "generation_config.response_json_schema.enum[1]",
        "enum values must be strings or numbers; got false.",
      ),
    );
  });

  it("checks responseSchema like the service", () => {
    const json = (responseSchema: unknown) => ({
      responseMimeType: "application/json",
      responseSchema,
    });
    expect(configRefusal(json({ properties: { a: { type: "STRING" } } }))).toBe(
      line(
        "generation_config.response_schema.type",
        "must be specified when not using one_of, any_of or all_of fields",
      ),
    );
    expect(
      configRefusal(
        json({ type: "OBJECT", properties: { a: { type: "STRING" } }, required: ["a", "b"] }),
      ),
    ).toBe(line("generation_config.response_schema.required[1]", "property is not defined"));
    expect(configRefusal(json({ type: "ARRAY" }))).toBe(
      line("generation_config.response_schema.items", "missing field."),
    );
    expect(configRefusal(json({ type: "INTEGER", enum: ["1"] }))).toBe(
      line("generation_config.response_schema.enum", "only allowed for STRING type"),
    );
    expect(
      configRefusal(
        json({
          type: "OBJECT",
          properties: {
            list: { type: "ARRAY", items: { type: "STRING" }, minItems: 3, maxItems: 1 },
          },
        }),
      ),
    ).toBe(
      line(
        "generation_config.response_schema.properties[list].min_items",
        "min_items (3) must not be greater than max_items (1).",
      ),
    );
    acceptsConfig(json({ anyOf: [{ type: "STRING" }, { type: "INTEGER" }] }));
  });
});

describe("generationConfig: modalities, candidates and sampling", () => {
  it("needs responseModalities to match a supported combination exactly", () => {
    acceptsConfig({ responseModalities: [] });
    acceptsConfig({ responseModalities: ["TEXT"] });
    // The service's own words (recorded): the combinations the model accepts, one per line.
    expect(configRefusal({ responseModalities: ["AUDIO"] })).toBe(
      "The requested combination of response modalities is not supported by the model. models/gemini-2.5-flash accepts the following combination of response modalities:\n* TEXT\n",
    );
    expect(configRefusal({ responseModalities: ["IMAGE"] }, IMAGE)).toBe(
      "The requested combination of response modalities is not supported by the model. models/gemini-2.0-flash-preview-image-generation accepts the following combination of response modalities:\n* TEXT\n* TEXT, IMAGE\n",
    );
    acceptsConfig({ responseModalities: ["IMAGE", "TEXT"] }, IMAGE);
    acceptsConfig({ responseModalities: ["text"] }, IMAGE);
    acceptsConfig({ responseModalities: ["AUDIO"] }, TTS);
    // Speech models answer a text request with the service's generic refusal (recorded).
    expect(refusal({ ...hello, generationConfig: { responseModalities: ["TEXT"] } }, TTS)).toBe(
      "Request contains an invalid argument.",
    );
    // A request without responseModalities gets the model's own (recorded: 2.5 Flash Image).
    accepts(hello, IMAGE);
    accepts(hello, TTS);
  });

  it("needs candidateCount of at least 1, and 1 on the previous generation", () => {
    acceptsConfig({ candidateCount: 2 });
    acceptsConfig({ candidateCount: 1 }, LEGACY);
    expect(configRefusal({ candidateCount: 0 })).toBe(
      line("generation_config.candidate_count", "candidate_count must be at least 1; got 0."),
    );
    expect(configRefusal({ candidateCount: 9 })).toBe(
      line("generation_config.candidate_count", "candidate_count must be at most 8; got 9."),
    );
    expect(configRefusal({ candidateCount: 2 }, LEGACY)).toBe(
      line(
        "generation_config.candidate_count",
        "multiple candidates are not supported by models/gemini-1.5-flash: candidate_count does not work on the previous model generation.",
      ),
    );
  });

  it("bounds maxOutputTokens by the model", () => {
    acceptsConfig({ maxOutputTokens: 65_536 });
    expect(configRefusal({ maxOutputTokens: 0 })).toBe(
      line("generation_config.max_output_tokens", "max_output_tokens must be at least 1; got 0."),
    );
    expect(configRefusal({ maxOutputTokens: 8193 }, FLASH_2_0)).toBe(
      line(
        "generation_config.max_output_tokens",
        "max_output_tokens must be at most 8192 for models/gemini-2.0-flash; got 8193.",
      ),
    );
  });

  it("bounds temperature to [0, 2] and the model's maximum", () => {
    acceptsConfig({ temperature: 0 });
    acceptsConfig({ temperature: 2 });
    expect(configRefusal({ temperature: 2.01 })).toBe(
      line("generation_config.temperature", "temperature must be in the range [0, 2]; got 2.01."),
    );
    expect(configRefusal({ temperature: -0.5 })).toBe(
      line("generation_config.temperature", "temperature must be in the range [0, 2]; got -0.5."),
    );
    expect(configRefusal({ temperature: 1.5 }, NO_TOP_K)).toBe(
      line(
        "generation_config.temperature",
        "temperature must be in the range [0, 1] for models/gemini-1.0-pro; got 1.5.",
      ),
    );
  });

  it("bounds topP to [0, 1]", () => {
    acceptsConfig({ topP: 0 });
    acceptsConfig({ topP: 1 });
    expect(configRefusal({ topP: 1.5 })).toBe(
      line("generation_config.top_p", "top_p must be in the range [0, 1]; got 1.5."),
    );
  });

  it("needs topK of at least 1 on a model that applies top-K", () => {
    acceptsConfig({ topK: 1 });
    expect(configRefusal({ topK: 0 })).toBe(
      line("generation_config.top_k", "top_k must be at least 1; got 0."),
    );
    expect(configRefusal({ topK: 40 }, NO_TOP_K)).toBe(
      line(
        "generation_config.top_k",
        "models/gemini-1.0-pro does not apply top-K sampling; top_k cannot be set.",
      ),
    );
  });

  it("takes an int32 seed", () => {
    acceptsConfig({ seed: -5 });
    acceptsConfig({ seed: 2_147_483_647 });
    expect(configRefusal({ seed: 2_147_483_648 })).toBe(
      "Invalid JSON payload received. Invalid value at 'generation_config.seed' (TYPE_INT32), 2147483648",
    );
    expect(configRefusal({ seed: 1.5 })).toBe(
      "Invalid JSON payload received. Invalid value at 'generation_config.seed' (TYPE_INT32), 1.5",
    );
  });

  it("bounds the penalties to [-2, 2)", () => {
    acceptsConfig({ presencePenalty: -2, frequencyPenalty: 1.99 });
    expect(configRefusal({ presencePenalty: 2 })).toBe(
      line(
        "generation_config.presence_penalty",
        "presence_penalty must be in the range [-2, 2); got 2.",
      ),
    );
    expect(configRefusal({ frequencyPenalty: -2.5 })).toBe(
      line(
        "generation_config.frequency_penalty",
        "frequency_penalty must be in the range [-2, 2); got -2.5.",
      ),
    );
  });

  it("needs responseLogprobs for logprobs, within 0..20", () => {
    acceptsConfig({ responseLogprobs: true, logprobs: 0 });
    acceptsConfig({ responseLogprobs: true, logprobs: 20 });
    acceptsConfig({ responseLogprobs: true });
    expect(configRefusal({ logprobs: 3 })).toBe(
      line(
        "generation_config.logprobs",
        "logprobs can only be set when response_logprobs is true.",
      ),
    );
    expect(configRefusal({ responseLogprobs: false, logprobs: 3 })).toBe(
      line(
        "generation_config.logprobs",
        "logprobs can only be set when response_logprobs is true.",
      ),
    );
    expect(configRefusal({ responseLogprobs: true, logprobs: 21 })).toBe(
      line("generation_config.logprobs", "logprobs must be in the range [0, 20]; got 21."),
    );
  });

  it("takes a known media resolution", () => {
    acceptsConfig({ mediaResolution: "MEDIA_RESOLUTION_LOW" });
    expect(configRefusal({ mediaResolution: "LOW" })).toBe(
      "Invalid JSON payload received. Invalid value at 'generation_config.media_resolution' (type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig.MediaResolution), \"LOW\"",
    );
  });
});

describe("generationConfig: thinking", () => {
  it("is refused on a model without thinking when it asks for thinking, in the service's words", () => {
    expect(configRefusal({ thinkingConfig: { thinkingBudget: 1024 } }, FLASH_2_0)).toBe(
      "Thinking is not enabled for this model",
    );
    expect(configRefusal({ thinkingConfig: { includeThoughts: true } }, FLASH_2_0)).toBe(
      "Thinking is not enabled for this model",
    );
    expect(configRefusal({ thinkingConfig: { thinkingLevel: "low" } }, FLASH_2_0)).toBe(
      "Thinking is not enabled for this model",
    );
    // Asking for no thinking is harmless.
    acceptsConfig({ thinkingConfig: {} }, FLASH_2_0);
    acceptsConfig({ thinkingConfig: { thinkingBudget: 0, includeThoughts: false } }, FLASH_2_0);
    // Before the modalities: a speech model asked for text and thoughts names the thoughts.
    expect(
      configRefusal({ responseModalities: ["TEXT"], thinkingConfig: { thinkingBudget: 512 } }, TTS),
    ).toBe("Thinking is not enabled for this model");
  });

  it("takes -1, 0 where thinking can be turned off, or a budget in range", () => {
    acceptsConfig({ thinkingConfig: { thinkingBudget: -1, includeThoughts: true } });
    acceptsConfig({ thinkingConfig: { thinkingBudget: 0 } });
    acceptsConfig({ thinkingConfig: { thinkingBudget: 24_576 } });
    acceptsConfig({ thinkingConfig: { thinkingBudget: 128 } }, PRO);
    expect(configRefusal({ thinkingConfig: { thinkingBudget: 0 } }, PRO)).toBe(
      line(
        "generation_config.thinking_config.thinking_budget",
        "thinking_budget 0 is invalid: models/gemini-2.5-pro only works in thinking mode; use -1 (dynamic) or a value between 128 and 32768.",
      ),
    );
    expect(configRefusal({ thinkingConfig: { thinkingBudget: 100 } }, PRO)).toBe(
      line(
        "generation_config.thinking_config.thinking_budget",
        "thinking_budget 100 is invalid for models/gemini-2.5-pro; use -1 (dynamic) or a value between 128 and 32768.",
      ),
    );
    expect(configRefusal({ thinkingConfig: { thinkingBudget: 30_000 } })).toBe(
      line(
        "generation_config.thinking_config.thinking_budget",
        "thinking_budget 30000 is invalid for models/gemini-2.5-flash; use -1 (dynamic), 0 (off) or a value between 1 and 24576.",
      ),
    );
    expect(configRefusal({ thinkingConfig: { thinkingBudget: -2 } })).toBe(
      line(
        "generation_config.thinking_config.thinking_budget",
        "thinking_budget -2 is invalid for models/gemini-2.5-flash; use -1 (dynamic), 0 (off) or a value between 1 and 24576.",
      ),
    );
  });
});

describe("generationConfig: speech", () => {
  const speech = (speechConfig: unknown) => ({ responseModalities: ["AUDIO"], speechConfig });
  const voice = (voiceName: string) => ({ prebuiltVoiceConfig: { voiceName } });

  it("is for models that answer with audio", () => {
    acceptsConfig(speech({ voiceConfig: voice("Kore") }), TTS);
    expect(configRefusal({ speechConfig: { voiceConfig: voice("Kore") } })).toBe(
      line(
        "generation_config.speech_config",
        "speech_config is only supported by models that answer with audio; models/gemini-2.5-flash does not.",
      ),
    );
  });

  it("takes a prebuilt voice from the real list", () => {
    for (const name of PREBUILT_VOICE_NAMES)
      acceptsConfig(speech({ voiceConfig: voice(name) }), TTS);
    expect(configRefusal(speech({ voiceConfig: voice("Robot") }), TTS)).toBe(
      line(
        "generation_config.speech_config.voice_config.prebuilt_voice_config.voice_name",
        `"Robot" is not a prebuilt voice; choose one of ${PREBUILT_VOICE_NAMES.join(", ")}.`,
      ),
    );
    expect(configRefusal(speech({ voiceConfig: {} }), TTS)).toBe(
      line(
        "generation_config.speech_config.voice_config.prebuilt_voice_config",
        "voice_config must set prebuilt_voice_config.",
      ),
    );
    expect(configRefusal(speech({ voiceConfig: { prebuiltVoiceConfig: {} } }), TTS)).toBe(
      line(
        "generation_config.speech_config.voice_config.prebuilt_voice_config.voice_name",
        `voice_name is required; choose one of ${PREBUILT_VOICE_NAMES.join(", ")}.`,
      ),
    );
  });

  it("takes one voice or two distinct speakers, not both", () => {
    const speakers = (...names: string[]) => ({
      speakerVoiceConfigs: names.map((speaker) => ({ speaker, voiceConfig: voice("Puck") })),
    });
    acceptsConfig(speech({ multiSpeakerVoiceConfig: speakers("Joe", "Jane") }), TTS);
    expect(
      configRefusal(
        speech({ voiceConfig: voice("Kore"), multiSpeakerVoiceConfig: speakers("Joe", "Jane") }),
        TTS,
      ),
    ).toBe(
      line(
        "generation_config.speech_config",
        "voice_config and multi_speaker_voice_config are mutually exclusive; set only one of them.",
      ),
    );
    expect(
      configRefusal(speech({ multiSpeakerVoiceConfig: speakers("Joe", "Jane", "Jim") }), TTS),
    ).toBe(
      line(
        "generation_config.speech_config.multi_speaker_voice_config.speaker_voice_configs",
        "multi-speaker speech needs exactly 2 speaker_voice_configs; got 3.",
      ),
    );
    expect(configRefusal(speech({ multiSpeakerVoiceConfig: speakers("Joe", "Joe") }), TTS)).toBe(
      line(
        "generation_config.speech_config.multi_speaker_voice_config.speaker_voice_configs[1].speaker",
        'speaker "Joe" is configured more than once; speaker names must be distinct.',
      ),
    );
    expect(
      configRefusal(
        speech({
          multiSpeakerVoiceConfig: {
            speakerVoiceConfigs: [
              { speaker: "Joe" },
              { speaker: "Jane", voiceConfig: voice("Kore") },
            ],
          },
        }),
        TTS,
      ),
    ).toBe(
      line(
        "generation_config.speech_config.multi_speaker_voice_config.speaker_voice_configs[0].voice_config",
        "speaker_voice_configs.voice_config is required.",
      ),
    );
  });

  it("takes a language code from the spec's list", () => {
    for (const code of SPEECH_LANGUAGE_CODES)
      acceptsConfig(speech({ languageCode: code, voiceConfig: voice("Kore") }), TTS);
    expect(configRefusal(speech({ languageCode: "en", voiceConfig: voice("Kore") }), TTS)).toBe(
      line(
        "generation_config.speech_config.language_code",
        `"en" is not a supported language_code; use one of ${SPEECH_LANGUAGE_CODES.join(", ")}.`,
      ),
    );
  });
});

describe("safetySettings", () => {
  it("takes the five supported categories once each", () => {
    accepts({
      ...hello,
      safetySettings: [
        { category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_LOW_AND_ABOVE" },
        { category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_MEDIUM_AND_ABOVE" },
        { category: "HARM_CATEGORY_SEXUALLY_EXPLICIT", threshold: "BLOCK_ONLY_HIGH" },
        { category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_NONE" },
        { category: "HARM_CATEGORY_CIVIC_INTEGRITY", threshold: "OFF" },
      ],
    });
  });

  const supported =
    "HARM_CATEGORY_HARASSMENT, HARM_CATEGORY_HATE_SPEECH, HARM_CATEGORY_SEXUALLY_EXPLICIT, HARM_CATEGORY_DANGEROUS_CONTENT, HARM_CATEGORY_CIVIC_INTEGRITY";

  it("refuses legacy and unspecified categories", () => {
    expect(
      refusal({
        ...hello,
        safetySettings: [{ category: "HARM_CATEGORY_DEROGATORY", threshold: "BLOCK_NONE" }],
      }),
    ).toBe(
      line(
        "safety_settings[0].category",
        `HARM_CATEGORY_DEROGATORY is not supported; use one of ${supported}.`,
      ),
    );
    expect(
      refusal({
        ...hello,
        safetySettings: [{ category: "HARM_CATEGORY_UNSPECIFIED", threshold: "BLOCK_NONE" }],
      }),
    ).toBe(
      line(
        "safety_settings[0].category",
        `HARM_CATEGORY_UNSPECIFIED is not supported; use one of ${supported}.`,
      ),
    );
    expect(
      refusal({
        ...hello,
        safetySettings: [{ category: "HARM_CATEGORY_NOPE", threshold: "BLOCK_NONE" }],
      }),
    ).toBe(
      "Invalid JSON payload received. Invalid value at 'safety_settings[0].category' (type.googleapis.com/google.ai.generativelanguage.v1beta.HarmCategory), \"HARM_CATEGORY_NOPE\"",
    );
  });

  it("refuses the unspecified threshold", () => {
    expect(
      refusal({
        ...hello,
        safetySettings: [
          { category: "HARM_CATEGORY_HARASSMENT", threshold: "HARM_BLOCK_THRESHOLD_UNSPECIFIED" },
        ],
      }),
    ).toBe(
      line(
        "safety_settings[0].threshold",
        "HARM_BLOCK_THRESHOLD_UNSPECIFIED is not allowed; use one of BLOCK_LOW_AND_ABOVE, BLOCK_MEDIUM_AND_ABOVE, BLOCK_ONLY_HIGH, BLOCK_NONE, OFF.",
      ),
    );
    expect(refusal({ ...hello, safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT" }] })).toBe(
      line("safety_settings[0].threshold", "safety_settings.threshold is required."),
    );
  });

  it("allows at most one setting per category", () => {
    const settings = [
      { category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" },
      { category: "HARM_CATEGORY_HARASSMENT", threshold: "OFF" },
    ];
    expect(refusal({ ...hello, safety_settings: settings })).toBe(
      line(
        "safety_settings[1].category",
        "HARM_CATEGORY_HARASSMENT is set more than once; at most one setting per category.",
      ),
    );
  });
});

describe("cachedContent", () => {
  it("takes a cachedContents/{id} name", () => {
    accepts({ ...hello, cachedContent: "cachedContents/abc-123" });
    expect(refusal({ ...hello, cachedContent: "abc" })).toBe(
      line("cached_content", 'cached_content must be of the form cachedContents/{id}; got "abc".'),
    );
    expect(refusal({ ...hello, cachedContent: "cachedContents/ABC" })).toBe(
      line(
        "cached_content",
        'cached_content must be of the form cachedContents/{id}; got "cachedContents/ABC".',
      ),
    );
  });

  it("refuses systemInstruction, tools or toolConfig beside it", () => {
    const expected = line(
      "cached_content",
      "CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config. Proposed fix: move those values to CachedContent from GenerateContent request.",
    );
    expect(
      refusal({
        ...hello,
        cachedContent: "cachedContents/a",
        systemInstruction: { parts: [{ text: "x" }] },
      }),
    ).toBe(expected);
    expect(
      refusal({ ...hello, cachedContent: "cachedContents/a", tools: [{ codeExecution: {} }] }),
    ).toBe(expected);
    expect(
      refusal({
        ...hello,
        cachedContent: "cachedContents/a",
        toolConfig: { functionCallingConfig: { mode: "AUTO" } },
      }),
    ).toBe(expected);
  });
});

describe("tools and toolConfig", () => {
  const declare = (...names: string[]) => [
    { functionDeclarations: names.map((name) => ({ name, description: "d" })) },
  ];

  it("takes valid, unique function names", () => {
    accepts({ ...hello, tools: declare("get_weather", "_private", "a.b-c", "x".repeat(64)) });
    const invalid =
      "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.";
    for (const name of ["1abc", "has space", "x".repeat(65), "", "ünï"]) {
      expect(refusal({ ...hello, tools: declare(name) })).toBe(
        line("tools[0].function_declarations[0].name", invalid),
      );
    }
    expect(refusal({ ...hello, tools: [...declare("lookup"), ...declare("lookup")] })).toBe(
      line(
        "tools[1].function_declarations[0].name",
        'function "lookup" is declared more than once; function names must be unique.',
      ),
    );
  });

  it("takes parameters or parametersJsonSchema, not both", () => {
    accepts({
      ...hello,
      tools: [
        {
          functionDeclarations: [
            {
              name: "f",
              parameters: {
                type: "OBJECT",
                properties: { city: { type: "STRING" } },
                required: ["city"],
              },
            },
          ],
        },
      ],
    });
    accepts({
      ...hello,
      tools: [
        {
          functionDeclarations: [
            {
              name: "f",
              parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } },
            },
          ],
        },
      ],
    });
    expect(
      refusal({
        ...hello,
        tools: [
          {
            functionDeclarations: [
              {
                name: "f",
                parameters: { type: "OBJECT", properties: { a: { type: "STRING" } } },
                parametersJsonSchema: { type: "object" },
              },
            ],
          },
        ],
      }),
    ).toBe(
      line(
        "tools[0].function_declarations[0].parameters_json_schema",
        "parameters and parameters_json_schema are mutually exclusive; set only one of them.",
      ),
    );
    expect(
      refusal({
        ...hello,
        tools: [
          {
            functionDeclarations: [
              {
                name: "f",
                parameters: { type: "OBJECT", properties: { tags: { type: "ARRAY" } } },
              },
            ],
          },
        ],
      }),
    ).toBe(
      line("tools[0].function_declarations[0].parameters.properties[tags].items", "missing field."),
    );
  });

  it("takes allowedFunctionNames naming declared functions, with mode AUTO and ANY without declarations as the service does", () => {
    accepts({
      ...hello,
      tools: declare("a", "b"),
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["a"] } },
    });
    accepts({
      ...hello,
      tools: declare("a"),
      toolConfig: { functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames: ["a"] } },
    });
    accepts({
      ...hello,
      tools: declare("a"),
      toolConfig: { functionCallingConfig: { mode: "NONE" } },
    });
    // Recorded (pydantic-ai): the service answered both with 200.
    accepts({
      ...hello,
      tools: declare("a"),
      toolConfig: { functionCallingConfig: { mode: "AUTO", allowedFunctionNames: ["a"] } },
    });
    accepts({ ...hello, toolConfig: { functionCallingConfig: { mode: "ANY" } } });
    expect(
      refusal({
        ...hello,
        tools: declare("a", "b"),
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["c"] } },
      }),
    ).toBe(
      line(
        "tool_config.function_calling_config.allowed_function_names[0]",
        '"c" is not a declared function; declared functions are a and b.',
      ),
    );
    expect(
      refusal({ ...hello, toolConfig: { functionCallingConfig: { mode: "SOMETIMES" } } }),
    ).toBe(
      "Invalid JSON payload received. Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), \"SOMETIMES\"",
    );
  });

  it("accepts the other tool kinds", () => {
    accepts({
      ...hello,
      tools: [
        { codeExecution: {} },
        { googleSearch: {} },
        { urlContext: {} },
        {
          google_search_retrieval: {
            dynamic_retrieval_config: { mode: "MODE_DYNAMIC", dynamic_threshold: 0.3 },
          },
        },
      ],
    });
    expect(refusal({ ...hello, tools: [{ codeExecution: { timeout: 5 } }] })).toBe(
      "Invalid JSON payload received. Unknown name \"timeout\" at 'tools[0].code_execution': Cannot find field.",
    );
  });

  it("checks a model field when one is sent", () => {
    accepts({ ...hello, model: "models/gemini-2.5-flash" });
    expect(refusal({ ...hello, model: "gemini-2.5-flash" })).toBe(
      line("model", 'model must be of the form models/{model}; got "gemini-2.5-flash".'),
    );
  });
});

describe("parseCountTokensRequest", () => {
  const count = (body: unknown, traits: ModelTraits = FLASH) =>
    parseCountTokensRequest(body, traits);

  it("needs contents or generateContentRequest", () => {
    for (const body of [{}, { contents: [] }, null]) {
      const error = errorOf(() => count(body));
      expect(error.httpStatus).toBe(400);
      expect(error.message).toBe(
        "CountTokens requires generate_content_request or contents to be set.",
      );
    }
  });

  it("refuses both", () => {
    const error = errorOf(() =>
      count({ contents: hello.contents, generateContentRequest: { ...hello } }),
    );
    expect(error.httpStatus).toBe(400);
    expect(error.message).toBe(
      "contents and generate_content_request are mutually exclusive: send either contents or generate_content_request, not both.",
    );
  });

  it("returns contents, or the inner request validated like generateContent", () => {
    expect(count({ contents: { parts: [{ text: "hi" }] } })).toEqual({
      contents: [{ parts: [{ text: "hi" }] }],
    });
    expect(
      count({
        generate_content_request: {
          model: "models/gemini-2.5-flash",
          contents: "hi".split("").map((text) => ({ parts: [{ text }] })),
          system_instruction: { parts: [{ text: "s" }] },
        },
      }),
    ).toEqual({
      generateContentRequest: {
        model: "models/gemini-2.5-flash",
        contents: [{ parts: [{ text: "h" }] }, { parts: [{ text: "i" }] }],
        systemInstruction: { parts: [{ text: "s" }] },
      },
    });
    expect(
      errorOf(() =>
        count({ generateContentRequest: { model: "gemini-2.5-flash", contents: hello.contents } }),
      ).message,
    ).toBe(
      '* CountTokensRequest.generate_content_request.model: model must be of the form models/{model}; got "gemini-2.5-flash".',
    );
    expect(
      errorOf(() =>
        count({
          generateContentRequest: {
            contents: hello.contents,
            generationConfig: { temperature: 9 },
          },
        }),
      ).message,
    ).toBe(
      "* CountTokensRequest.generate_content_request.generation_config.temperature: temperature must be in the range [0, 2]; got 9.",
    );
    expect(errorOf(() => count({ contents: [{ parts: [] }] })).message).toBe(
      "* CountTokensRequest.contents[0].parts: contents.parts must not be empty.",
    );
    expect(
      errorOf(() => count({ generateContentRequest: { contents: hello.contents, extra: 1 } }))
        .message,
    ).toBe(
      "Invalid JSON payload received. Unknown name \"extra\" at 'generate_content_request': Cannot find field.",
    );
  });

  it("checks modalities of an inner request only when it sets them", () => {
    expect(count({ generateContentRequest: hello }, TTS)).toEqual({
      generateContentRequest: hello,
    });
    expect(
      errorOf(() =>
        count({ generateContentRequest: withConfig({ responseModalities: ["TEXT"] }) }, TTS),
      ).message,
    ).toBe("Request contains an invalid argument.");
  });
});

describe("parseCachedContentCreate", () => {
  const create = (body: unknown) => parseCachedContentCreate(body);
  const createRefusal = (body: unknown) => {
    const error = errorOf(() => create(body));
    expect(error.httpStatus).toBe(400);
    return error.message;
  };
  const cacheLine = (field: string, description: string) =>
    `* CreateCachedContentRequest.cached_content.${field}: ${description}`;
  const model = "models/gemini-2.5-flash";

  it("returns the normalised create body", () => {
    expect(
      create({
        model,
        display_name: "Docs",
        contents: [{ role: "user", parts: [{ text: "A long document" }] }],
        system_instruction: { parts: [{ text: "You answer from the document." }] },
        tools: [
          {
            function_declarations: [
              {
                name: "lookup",
                parameters: { type: "object", properties: { term: { type: "string" } } },
              },
            ],
          },
        ],
        tool_config: { function_calling_config: { mode: "AUTO" } },
        ttl: "300s",
      }),
    ).toEqual({
      model,
      displayName: "Docs",
      contents: [{ role: "user", parts: [{ text: "A long document" }] }],
      systemInstruction: { parts: [{ text: "You answer from the document." }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: "lookup",
              parameters: { type: "OBJECT", properties: { term: { type: "STRING" } } },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "AUTO" } },
      ttl: "300s",
    });
    expect(
      create({
        model,
        contents: hello.contents,
        name: "cachedContents/x",
        createTime: "2025-01-01T00:00:00Z",
        usageMetadata: { totalTokenCount: 5 },
      }),
    ).toEqual({
      model,
      contents: hello.contents,
    });
  });

  it("needs a models/... model", () => {
    expect(createRefusal({ contents: hello.contents })).toBe(
      cacheLine("model", "cached_content.model is required."),
    );
    expect(createRefusal({ model: "", contents: hello.contents })).toBe(
      cacheLine("model", "cached_content.model is required."),
    );
    expect(createRefusal({ model: "gemini-2.5-flash" })).toBe(
      cacheLine("model", 'model must be of the form models/{model}; got "gemini-2.5-flash".'),
    );
  });

  it("takes ttl or expireTime, not both", () => {
    expect(create({ model, ttl: "3600.123456789s" }).ttl).toBe("3600.123456789s");
    expect(create({ model, expire_time: "2030-01-01T01:00:00.123456789+01:00" }).expireTime).toBe(
      "2030-01-01T01:00:00.123456789+01:00",
    );
    expect(create({ model })).toEqual({ model });
    expect(createRefusal({ model, ttl: "60s", expireTime: "2030-01-01T00:00:00Z" })).toBe(
      cacheLine("ttl", "ttl and expire_time are mutually exclusive; set only one of them."),
    );
  });

  it("checks the ttl", () => {
    expect(createRefusal({ model, ttl: "1h" })).toBe(
      cacheLine(
        "ttl",
        'a duration is seconds with up to 9 fractional digits followed by "s", like "3600s" or "1.5s"; got "1h".',
      ),
    );
    expect(createRefusal({ model, ttl: 3600 })).toBe(
      "Invalid JSON payload received. Invalid value at 'cached_content.ttl' (TYPE_STRING), 3600",
    );
    expect(createRefusal({ model, ttl: "-60s" })).toBe(
      cacheLine("ttl", 'ttl must not be negative; got "-60s".'),
    );
    expect(createRefusal({ model, ttl: "315360001s" })).toBe(
      cacheLine("ttl", 'ttl must be at most 315360000s (3650 days); got "315360001s".'),
    );
    expect(create({ model, ttl: "315360000s" }).ttl).toBe("315360000s");
  });

  it("checks the expireTime", () => {
    expect(createRefusal({ model, expireTime: "2030-02-30T00:00:00Z" })).toBe(
      cacheLine(
        "expire_time",
        'the date or time of day does not exist; a timestamp is RFC 3339, like "2025-01-31T12:00:00Z" or "2025-01-31T13:00:00.5+01:00"; got "2030-02-30T00:00:00Z".',
      ),
    );
    expect(createRefusal({ model, expireTime: "tomorrow" })).toBe(
      cacheLine(
        "expire_time",
        'a timestamp is RFC 3339, like "2025-01-31T12:00:00Z" or "2025-01-31T13:00:00.5+01:00"; got "tomorrow".',
      ),
    );
  });

  it("counts displayName in characters, not UTF-16 units", () => {
    expect(create({ model, displayName: "🙂".repeat(128) }).displayName).toHaveLength(256);
    expect(createRefusal({ model, displayName: "🙂".repeat(129) })).toBe(
      cacheLine("display_name", "display_name must be at most 128 characters; got 129."),
    );
    expect(createRefusal({ model, displayName: "a".repeat(129) })).toBe(
      cacheLine("display_name", "display_name must be at most 128 characters; got 129."),
    );
  });

  it("checks contents, systemInstruction, tools and toolConfig like a generate request", () => {
    expect(createRefusal({ model, contents: [{ role: "user", parts: [] }] })).toBe(
      cacheLine("contents[0].parts", "contents.parts must not be empty."),
    );
    expect(
      createRefusal({
        model,
        systemInstruction: { parts: [{ fileData: { fileUri: "files/a" } }] },
      }),
    ).toBe(
      cacheLine(
        "system_instruction.parts[0].file_data",
        "system_instruction supports text parts only; got file_data.",
      ),
    );
    expect(createRefusal({ model, tools: [{ functionDeclarations: [{ name: "9" }] }] })).toBe(
      cacheLine(
        "tools[0].function_declarations[0].name",
        "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.",
      ),
    );
    expect(
      createRefusal({
        model,
        tools: [{ functionDeclarations: [{ name: "a" }] }],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["b"] } },
      }),
    ).toBe(
      cacheLine(
        "tool_config.function_calling_config.allowed_function_names[0]",
        '"b" is not a declared function; declared functions are a.',
      ),
    );
  });

  it("reports unknown fields under cached_content", () => {
    expect(createRefusal({ model, ttlSeconds: 60 })).toBe(
      "Invalid JSON payload received. Unknown name \"ttlSeconds\" at 'cached_content': Cannot find field.",
    );
    expect(createRefusal([model])).toBe(
      'Invalid JSON payload received. Unknown name "": Root element must be a message.',
    );
  });
});

describe("parseCachedContentUpdate", () => {
  const updateRefusal = (body: unknown, mask: string | null = null) => {
    const error = errorOf(() => parseCachedContentUpdate(body, mask));
    expect(error.httpStatus).toBe(400);
    return error.message;
  };
  const updateLine = (field: string, description: string) =>
    `* UpdateCachedContentRequest.${field}: ${description}`;

  it("takes ttl or expireTime", () => {
    expect(parseCachedContentUpdate({ ttl: "600s" }, null)).toEqual({ ttl: "600s" });
    expect(parseCachedContentUpdate({ expire_time: "2030-01-01T00:00:00Z" }, null)).toEqual({
      expireTime: "2030-01-01T00:00:00Z",
    });
    expect(
      parseCachedContentUpdate(
        { ttl: "600s", name: "cachedContents/abc", updateTime: "2025-01-01T00:00:00Z" },
        null,
      ),
    ).toEqual({ ttl: "600s" });
  });

  it("refuses everything else", () => {
    expect(updateRefusal({ ttl: "600s", displayName: "x" })).toBe(
      updateLine(
        "cached_content.display_name",
        "display_name cannot be updated; only ttl or expire_time can be updated.",
      ),
    );
    expect(updateRefusal({ ttl: "600s", model: 5 })).toBe(
      updateLine(
        "cached_content.model",
        "model cannot be updated; only ttl or expire_time can be updated.",
      ),
    );
    expect(updateRefusal({})).toBe(
      updateLine(
        "cached_content",
        "set ttl or expire_time: only the expiration of a cached content can be updated.",
      ),
    );
    expect(updateRefusal({ ttl: "600s", expireTime: "2030-01-01T00:00:00Z" })).toBe(
      updateLine(
        "cached_content.ttl",
        "ttl and expire_time are mutually exclusive; set only one of them.",
      ),
    );
    expect(updateRefusal({ ttl: "soon" })).toBe(
      updateLine(
        "cached_content.ttl",
        'a duration is seconds with up to 9 fractional digits followed by "s", like "3600s" or "1.5s"; got "soon".',
      ),
    );
    expect(updateRefusal({ tttl: "600s" })).toBe(
      "Invalid JSON payload received. Unknown name \"tttl\" at 'cached_content': Cannot find field.",
    );
  });

  it("honours an update mask of ttl and expire_time", () => {
    expect(parseCachedContentUpdate({ ttl: "600s" }, "ttl")).toEqual({ ttl: "600s" });
    expect(parseCachedContentUpdate({ expireTime: "2030-01-01T00:00:00Z" }, "expire_time")).toEqual(
      { expireTime: "2030-01-01T00:00:00Z" },
    );
    expect(parseCachedContentUpdate({ expireTime: "2030-01-01T00:00:00Z" }, "expireTime")).toEqual({
      expireTime: "2030-01-01T00:00:00Z",
    });
    expect(
      parseCachedContentUpdate({ ttl: "600s", expireTime: "2030-01-01T00:00:00Z" }, "ttl"),
    ).toEqual({ ttl: "600s" });
    expect(parseCachedContentUpdate({ ttl: "600s" }, "")).toEqual({ ttl: "600s" });
    expect(updateRefusal({ ttl: "600s" }, "ttl,display_name")).toBe(
      updateLine(
        "update_mask",
        '"display_name" cannot be updated; update_mask may name only ttl or expire_time.',
      ),
    );
    expect(updateRefusal({ ttl: "600s" }, "expire_time")).toBe(
      updateLine(
        "cached_content.expire_time",
        "update_mask names expire_time but the body does not set it.",
      ),
    );
    expect(
      updateRefusal({ ttl: "600s", expireTime: "2030-01-01T00:00:00Z" }, "ttl,expire_time"),
    ).toBe(
      updateLine(
        "cached_content.ttl",
        "ttl and expire_time are mutually exclusive; set only one of them.",
      ),
    );
  });
});

describe("parseUploadStartBody", () => {
  it("reads display_name or displayName and mimeType", () => {
    expect(parseUploadStartBody({ file: { display_name: "cat.png" } })).toEqual({
      displayName: "cat.png",
    });
    expect(
      parseUploadStartBody({
        file: { displayName: "cat.png", mimeType: "image/png", sizeBytes: "1024" },
      }),
    ).toEqual({ displayName: "cat.png", mimeType: "image/png" });
    expect(
      parseUploadStartBody({ file: { name: "files/abc123", mime_type: "text/plain" } }),
    ).toEqual({ name: "files/abc123", mimeType: "text/plain" });
    expect(parseUploadStartBody({ file: {} })).toEqual({});
    expect(parseUploadStartBody({})).toEqual({});
    expect(parseUploadStartBody(undefined)).toEqual({});
    expect(parseUploadStartBody(null)).toEqual({});
  });

  it("refuses unknown fields and bad values", () => {
    expect(errorOf(() => parseUploadStartBody({ file: { title: "x" } })).message).toBe(
      "Invalid JSON payload received. Unknown name \"title\" at 'file': Cannot find field.",
    );
    expect(errorOf(() => parseUploadStartBody({ display_name: "x" })).message).toBe(
      'Invalid JSON payload received. Unknown name "display_name": Cannot find field.',
    );
    expect(errorOf(() => parseUploadStartBody({ file: { name: "cat.png" } })).message).toBe(
      '* CreateFileRequest.file.name: name must be files/{id} where id has 1 to 40 lowercase letters, digits or dashes; got "cat.png".',
    );
    expect(errorOf(() => parseUploadStartBody({ file: { mimeType: "png" } })).message).toBe(
      '* CreateFileRequest.file.mime_type: mime_type must look like type/subtype; got "png".',
    );
    expect(
      errorOf(() => parseUploadStartBody({ file: { displayName: "x".repeat(513) } })).message,
    ).toBe(
      "* CreateFileRequest.file.display_name: display_name must be at most 512 characters; got 513.",
    );
  });
});

describe("validateGenerationConfigFields", () => {
  it("returns nothing for a config the server accepts", () => {
    expect(
      validateGenerationConfigFields({ temperature: 0.7, topK: 40, maxOutputTokens: 1024 }, FLASH),
    ).toEqual([]);
    expect(validateGenerationConfigFields(undefined, FLASH)).toEqual([]);
  });

  it("returns every violation with its field", () => {
    expect(
      validateGenerationConfigFields({ temperature: 3, top_p: -1, logprobs: 2 }, FLASH),
    ).toEqual([
      {
        field: "generation_config.temperature",
        description: "temperature must be in the range [0, 2]; got 3.",
      },
      {
        field: "generation_config.top_p",
        description: "top_p must be in the range [0, 1]; got -1.",
      },
      {
        field: "generation_config.logprobs",
        description: "logprobs can only be set when response_logprobs is true.",
      },
    ]);
    expect(validateGenerationConfigFields({ thinkingConfig: { thinkingBudget: 0 } }, PRO)).toEqual([
      {
        field: "generation_config.thinking_config.thinking_budget",
        description:
          "thinking_budget 0 is invalid: models/gemini-2.5-pro only works in thinking mode; use -1 (dynamic) or a value between 128 and 32768.",
      },
    ]);
  });

  it("reports shape errors as violations instead of throwing", () => {
    expect(validateGenerationConfigFields({ temperature: "warm", colour: "red" }, FLASH)).toEqual([
      {
        field: "generation_config.temperature",
        description:
          "Invalid JSON payload received. Invalid value at 'generation_config.temperature' (TYPE_FLOAT), \"warm\"",
      },
      {
        field: "generation_config",
        description:
          "Invalid JSON payload received. Unknown name \"colour\" at 'generation_config': Cannot find field.",
      },
    ]);
    expect(validateGenerationConfigFields("warm", FLASH)).toHaveLength(1);
    const cyclic: Record<string, unknown> = { type: "OBJECT" };
    cyclic.items = cyclic;
    expect(
      Array.isArray(
        validateGenerationConfigFields(
          { responseMimeType: "application/json", responseSchema: cyclic },
          FLASH,
        ),
      ),
    ).toBe(true);
  });
});

describe("what a model cannot do, in the service's words (recorded)", () => {
  const logprobs = withConfig({ responseLogprobs: true, logprobs: 2 });
  const noLogprobs: ModelTraits = { ...FLASH, logprobs: false };

  it("refuses logprobs on a model without them: in a stream first, else as not enabled", () => {
    expect(
      errorOf(() => parseGenerateContentRequest(logprobs, noLogprobs, { stream: true })).message,
    ).toBe("LogProbs is not supported in streaming mode");
    expect(refusal(logprobs, noLogprobs)).toBe("Logprobs is not enabled for this model");
    accepts(logprobs);
    expect(() => parseGenerateContentRequest(logprobs, FLASH, { stream: true })).not.toThrow();
  });

  it("takes a YouTube video's URL on models that refuse other outside URLs (recorded on 2.0 Flash)", () => {
    for (const fileUri of [
      "https://youtu.be/lCdaVNyHtjU",
      "https://www.youtube.com/watch?v=9hE5-98ZeCg",
      "https://youtube.com/shorts/abcdefghijk",
    ])
      accepts(
        {
          contents: [
            {
              parts: [
                { text: "What is it about?" },
                { fileData: { mimeType: "video/mp4", fileUri } },
              ],
            },
          ],
        },
        FLASH_2_0,
      );
    for (const fileUri of [
      "https://www.youtube.com/about",
      "https://youtube.example.com/watch?v=x",
    ]) {
      const remote = { contents: [{ parts: [{ fileData: { mimeType: "video/mp4", fileUri } }] }] };
      expect(refusal(remote, FLASH_2_0)).toBe(`Invalid or unsupported file uri: ${fileUri}`);
    }
  });

  it("takes an outside https file URI only on models that read them; Files API URIs on all", () => {
    const uri = "https://example.com/media/banana.jpg";
    const remote = {
      contents: [
        {
          parts: [{ text: "What is it?" }, { fileData: { mimeType: "image/jpeg", fileUri: uri } }],
        },
      ],
    };
    accepts(remote);
    expect(refusal(remote, FLASH_2_0)).toBe(`Invalid or unsupported file uri: ${uri}`);
    expect(
      errorOf(() => parseCountTokensRequest({ contents: remote.contents }, FLASH_2_0)).message,
    ).toBe(`Invalid or unsupported file uri: ${uri}`);
    for (const fileUri of [
      "https://generativelanguage.googleapis.com/v1beta/files/abc123",
      "http://127.0.0.1:3000/v1beta/files/abc123",
      "files/abc123",
      // A Files API path, however mangled, is resolved (and refused there), never fetched.
      "http://127.0.0.1:3000/v1beta/files/../../genstudio.sqlite",
    ])
      accepts(
        { contents: [{ parts: [{ fileData: { mimeType: "image/png", fileUri } }] }] },
        FLASH_2_0,
      );
  });

  it("reads enum names in any letter case, as the service does", () => {
    const request = parseGenerateContentRequest(
      {
        ...withConfig({ responseModalities: ["Text"] }),
        tools: [{ functionDeclarations: [{ name: "beep" }] }],
        toolConfig: { functionCallingConfig: { mode: "any" } },
      },
      FLASH,
    );
    expect(request.generationConfig?.responseModalities).toEqual(["TEXT"]);
    expect(request.toolConfig?.functionCallingConfig?.mode).toBe("ANY");
  });

  it("keeps a model sent with an update for the backend to compare with the cache's own", () => {
    expect(
      parseCachedContentUpdate({ ttl: "1200s", model: "models/gemini-2.0-flash-lite" }, null),
    ).toEqual({
      ttl: "1200s",
      model: "models/gemini-2.0-flash-lite",
    });
    expect(
      parseCachedContentUpdate({ ttl: "1200s", model: "gemini-2.0-flash-lite" }, null),
    ).toEqual({
      ttl: "1200s",
      model: "models/gemini-2.0-flash-lite",
    });
  });
});

describe("validateToolFields", () => {
  const weather = {
    name: "get_weather",
    parameters: { type: "OBJECT", properties: { city: { type: "STRING" } }, required: ["city"] },
  };

  it("returns nothing for tools and a tool config the server accepts", () => {
    expect(validateToolFields(undefined, undefined)).toEqual([]);
    expect(
      validateToolFields([{ googleSearch: {} }, { functionDeclarations: [weather] }], {
        functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] },
      }),
    ).toEqual([]);
  });

  it("names the declaration, the schema node and the config field of each violation", () => {
    expect(
      validateToolFields(
        [
          {
            functionDeclarations: [
              { name: "1st", parameters: { type: "OBJECT", required: ["city"] } },
              { name: "tags", parameters: { type: "ARRAY" } },
            ],
          },
        ],
        { functionCallingConfig: { mode: "AUTO", allowedFunctionNames: ["nope"] } },
      ).map((violation) => violation.field),
    ).toEqual([
      "tools[0].function_declarations[0].name",
      "tools[0].function_declarations[0].parameters.required[0]",
      "tools[0].function_declarations[1].parameters.items",
      "tool_config.function_calling_config.allowed_function_names[0]",
    ]);
  });

  it("reports shape errors as violations instead of throwing", () => {
    const [problem] = validateToolFields([{ functionDeclarations: [{ nom: "x" }] }], undefined);
    expect(problem?.field).toMatch(/^tools\[0\]\.function_declarations\[0\]/);
    expect(
      validateToolFields("nonsense", { functionCallingConfig: { mode: "SOMETIMES" } }),
    ).not.toEqual([]);
  });
});
