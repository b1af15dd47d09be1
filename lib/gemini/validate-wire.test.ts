import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { FLASH } from "../testing/model-traits";
import { MAX_NESTING_DEPTH, parseGenerateContentRequest } from "./validate";

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the request to be refused");
}

const parse = (body: unknown) => parseGenerateContentRequest(body, FLASH);
const refusal = (body: unknown) => {
  const error = errorOf(() => parse(body));
  expect(error.httpStatus).toBe(400);
  expect(error.rpcStatus).toBe("INVALID_ARGUMENT");
  return error;
};
const hello = { contents: [{ parts: [{ text: "Hello" }] }] };

describe("field names", () => {
  it("accepts snake_case and camelCase mixed in one body and answers camelCase", () => {
    const body = {
      contents: [
        {
          role: "user",
          parts: [
            { text: "Describe these." },
            { inline_data: { mime_type: "image/png", data: "iVBORw0KGgo=" } },
            { inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQ" } },
            {
              file_data: {
                file_uri: "https://example.com/v1beta/files/abc",
                mime_type: "video/mp4",
              },
              video_metadata: { start_offset: "1s", fps: 1 },
            },
            { fileData: { fileUri: "https://example.com/v1beta/files/def" } },
          ],
        },
        { role: "model", parts: [{ text: "ok", thought_signature: "c2ln" }] },
      ],
      system_instruction: { parts: [{ text: "Be brief." }] },
      generationConfig: {
        response_mime_type: "application/json",
        responseSchema: {
          type: "object",
          properties: { answer: { type: "string" } },
          property_ordering: ["answer"],
        },
        max_output_tokens: 256,
        topP: 0.9,
        top_k: 20,
        stop_sequences: ["END"],
        thinking_config: { thinking_budget: 512, includeThoughts: true },
        response_logprobs: true,
        logprobs: 3,
        media_resolution: "MEDIA_RESOLUTION_LOW",
      },
      safety_settings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }],
      tools: [
        {
          function_declarations: [
            {
              name: "lookup",
              parameters: { type: "OBJECT", properties: { term: { type: "STRING" } } },
            },
          ],
        },
      ],
      tool_config: { function_calling_config: { mode: "ANY", allowed_function_names: ["lookup"] } },
    };
    // File references come out as their names: the canonical shape every backend reads.
    expect(parse(body)).toEqual({
      contents: [
        {
          role: "user",
          parts: [
            { text: "Describe these." },
            { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
            { inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQ" } },
            {
              fileData: { fileUri: "files/abc", mimeType: "video/mp4" },
              videoMetadata: { startOffset: "1s", fps: 1 },
            },
            { fileData: { fileUri: "files/def" } },
          ],
        },
        { role: "model", parts: [{ text: "ok", thoughtSignature: "c2ln" }] },
      ],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      generationConfig: {
        responseMimeType: "application/json",
        responseSchema: {
          type: "OBJECT",
          properties: { answer: { type: "STRING" } },
          propertyOrdering: ["answer"],
        },
        maxOutputTokens: 256,
        topP: 0.9,
        topK: 20,
        stopSequences: ["END"],
        thinkingConfig: { thinkingBudget: 512, includeThoughts: true },
        responseLogprobs: true,
        logprobs: 3,
        mediaResolution: "MEDIA_RESOLUTION_LOW",
      },
      safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }],
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
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["lookup"] } },
    });
  });

  it("leaves free-form values exactly as sent", () => {
    const args = { user_name: "ada", nested: { snake_key: [1, { camelKey: null }] }, "": true };
    const response = { result_code: 0, inner_data: { mime_type: "not a blob" } };
    const responseJsonSchema = {
      type: "object",
      properties: { first_name: { type: "string" }, lastName: { type: "string" } },
      required: ["first_name"],
    };
    const parametersJsonSchema = {
      type: "object",
      properties: { max_results: { type: "integer" } },
    };
    const parsed = parse({
      contents: [
        { role: "model", parts: [{ function_call: { name: "find", args } }] },
        { role: "user", parts: [{ function_response: { name: "find", response } }] },
      ],
      tools: [
        { functionDeclarations: [{ name: "find", parameters_json_schema: parametersJsonSchema }] },
        {
          functionDeclarations: [
            {
              name: "other",
              parameters: {
                type: "OBJECT",
                properties: {
                  snake_case_arg: { type: "STRING" },
                  camelCaseArg: { type: "INTEGER" },
                },
                required: ["snake_case_arg"],
              },
            },
          ],
        },
      ],
      generation_config: {
        response_mime_type: "application/json",
        response_json_schema: responseJsonSchema,
      },
    });
    expect(parsed.contents[0]!.parts[0]!.functionCall!.args).toEqual(args);
    expect(parsed.contents[1]!.parts[0]!.functionResponse!.response).toEqual(response);
    expect(parsed.generationConfig!.responseJsonSchema).toEqual(responseJsonSchema);
    expect(parsed.tools![0]!.functionDeclarations![0]!.parametersJsonSchema).toEqual(
      parametersJsonSchema,
    );
    expect(parsed.tools![1]!.functionDeclarations![0]!.parameters).toEqual({
      type: "OBJECT",
      properties: { snake_case_arg: { type: "STRING" }, camelCaseArg: { type: "INTEGER" } },
      required: ["snake_case_arg"],
    });
  });

  it("reports unknown names with the snake_case path of their object", () => {
    expect(refusal({ ...hello, foo: 1 }).message).toBe(
      'Invalid JSON payload received. Unknown name "foo": Cannot find field.',
    );
    const nested = refusal({ ...hello, generation_config: { temprature: 1 } });
    expect(nested.message).toBe(
      "Invalid JSON payload received. Unknown name \"temprature\" at 'generation_config': Cannot find field.",
    );
    expect(nested.toBody().error.details).toEqual([
      {
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        fieldViolations: [
          {
            field: "generation_config",
            description:
              "Invalid JSON payload received. Unknown name \"temprature\" at 'generation_config': Cannot find field.",
          },
        ],
      },
    ]);
    expect(
      refusal({ contents: [{ parts: [{ inline_data: { mimeType: "a/b", data: "", size: 3 } }] }] })
        .message,
    ).toBe(
      "Invalid JSON payload received. Unknown name \"size\" at 'contents[0].parts[0].inline_data': Cannot find field.",
    );
    expect(
      refusal({
        ...hello,
        generationConfig: {
          responseMimeType: "application/json",
          responseSchema: {
            type: "OBJECT",
            properties: { my_prop: { type: "STRING", maxlen: 3 } },
          },
        },
      }).message,
    ).toBe(
      "Invalid JSON payload received. Unknown name \"maxlen\" at 'generation_config.response_schema.properties[my_prop]': Cannot find field.",
    );
  });

  it("does not take a snake_case spelling of a name that has none", () => {
    expect(refusal({ contents: [{ Parts: [{ text: "x" }] }] }).message).toBe(
      "Invalid JSON payload received. Unknown name \"Parts\" at 'contents[0]': Cannot find field.",
    );
    expect(refusal({ ...hello, generationConfig: { TopK: 3 } }).message).toBe(
      "Invalid JSON payload received. Unknown name \"TopK\" at 'generation_config': Cannot find field.",
    );
  });

  it("refuses the same field in both spellings", () => {
    expect(refusal({ ...hello, generationConfig: { topK: 3, top_k: 4 } }).message).toBe(
      'Invalid JSON payload received. Field "top_k" at \'generation_config\' is set twice, as "topK" and as "top_k".',
    );
  });

  it("reports every payload error at once", () => {
    const error = refusal({
      ...hello,
      generationConfig: { temperature: "hot", candidateCount: 1.5, colour: "red" },
      extra: true,
    });
    expect(error.message.split("\n")).toEqual([
      "Invalid JSON payload received. Invalid value at 'generation_config.candidate_count' (TYPE_INT32), 1.5",
      "Invalid JSON payload received. Invalid value at 'generation_config.temperature' (TYPE_FLOAT), \"hot\"",
      "Invalid JSON payload received. Unknown name \"colour\" at 'generation_config': Cannot find field.",
      'Invalid JSON payload received. Unknown name "extra": Cannot find field.',
    ]);
  });
});

describe("JSON types", () => {
  it("names the proto type of a wrong value", () => {
    expect(refusal({ ...hello, generationConfig: { temperature: "abc" } }).message).toBe(
      "Invalid JSON payload received. Invalid value at 'generation_config.temperature' (TYPE_FLOAT), \"abc\"",
    );
    expect(refusal({ ...hello, generationConfig: { responseLogprobs: "yes" } }).message).toBe(
      "Invalid JSON payload received. Invalid value at 'generation_config.response_logprobs' (TYPE_BOOL), \"yes\"",
    );
    expect(refusal({ contents: [{ parts: [{ text: 5 }] }] }).message).toBe(
      "Invalid JSON payload received. Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), 5",
    );
    expect(refusal({ ...hello, generationConfig: "fast" }).message).toBe(
      "Invalid JSON payload received. Invalid value at 'generation_config' (type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig), \"fast\"",
    );
    expect(
      refusal({ contents: [{ parts: [{ functionCall: { name: "f", args: [1, 2] } }] }] }).message,
    ).toBe(
      "Invalid JSON payload received. Unknown name \"args\" at 'contents[0].parts[0].function_call': Proto field is not repeating, cannot start list.",
    );
    expect(
      refusal({ contents: [{ parts: [{ functionCall: { name: "f", args: "x" } }] }] }).message,
    ).toBe(
      "Invalid JSON payload received. Invalid value at 'contents[0].parts[0].function_call.args' (type.googleapis.com/google.protobuf.Struct), \"x\"",
    );
    expect(refusal({ ...hello, generationConfig: [] }).message).toBe(
      'Invalid JSON payload received. Unknown name "generation_config": Proto field is not repeating, cannot start list.',
    );
    expect(refusal([hello]).message).toBe(
      'Invalid JSON payload received. Unknown name "": Root element must be a message.',
    );
    expect(refusal("hello").message).toBe(
      'Invalid JSON payload received. Unknown name "": Root element must be a message.',
    );
  });

  it("reads numbers sent as strings, as proto3 JSON allows", () => {
    expect(
      parse({
        ...hello,
        generationConfig: { temperature: "0.5", seed: "42", maxOutputTokens: "100" },
      }).generationConfig,
    ).toEqual({ temperature: 0.5, seed: 42, maxOutputTokens: 100 });
    expect(refusal({ ...hello, generationConfig: { seed: "4.2" } }).message).toBe(
      "Invalid JSON payload received. Invalid value at 'generation_config.seed' (TYPE_INT32), \"4.2\"",
    );
  });

  it("refuses a megabyte of digits sent as a number in linear time (did not hang)", () => {
    const started = performance.now();
    for (const temperature of ["1".repeat(1_000_000) + "x", "1".repeat(1_000_000) + ".5e"])
      expect(
        refusal({ ...hello, generationConfig: { temperature } }).message.startsWith(
          "Invalid JSON payload received. Invalid value at 'generation_config.temperature' (TYPE_FLOAT)",
        ),
      ).toBe(true);
    expect(parse({ ...hello, generationConfig: { temperature: "1." } }).generationConfig).toEqual({
      temperature: 1,
    });
    // A generous bound: the ambiguous pattern before took about 5 s for 20,000 digits.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("treats null as unset", () => {
    expect(
      parse({
        ...hello,
        generationConfig: { temperature: null, topK: 3 },
        tools: null,
        systemInstruction: null,
      }),
    ).toEqual({ ...hello, generationConfig: { topK: 3 } });
  });

  it("takes a single Content or Part in place of a list", () => {
    expect(parse({ contents: { role: "user", parts: { text: "hi" } } })).toEqual({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
    });
    expect(
      parse({ ...hello, generationConfig: { stopSequences: "END" } }).generationConfig,
    ).toEqual({ stopSequences: ["END"] });
  });

  it("upper-cases schema types", () => {
    const parsed = parse({
      ...hello,
      generationConfig: {
        responseMimeType: "application/json",
        responseSchema: { type: "array", items: { type: "Integer" } },
      },
    });
    expect(parsed.generationConfig!.responseSchema).toEqual({
      type: "ARRAY",
      items: { type: "INTEGER" },
    });
  });

  it("refuses nesting deeper than the limit", () => {
    let args: Record<string, unknown> = {};
    for (let depth = 0; depth < MAX_NESTING_DEPTH; depth++) args = { deeper: args };
    expect(
      refusal({ contents: [{ parts: [{ functionCall: { name: "f", args } }] }] }).message,
    ).toBe(`Invalid JSON payload received. Nesting is deeper than ${MAX_NESTING_DEPTH} levels.`);
  });

  it("never renames keys of the output outside free-form values", () => {
    const parsed = parse({
      contents: [
        { role: "user", parts: [{ inline_data: { mime_type: "image/png", data: "AAAA" } }] },
      ],
      generation_config: {
        stop_sequences: ["x"],
        speech_config: undefined,
        thinking_config: { include_thoughts: true },
      },
      safety_settings: [{ category: "HARM_CATEGORY_HATE_SPEECH", threshold: "OFF" }],
    });
    const keys: string[] = [];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object")
        for (const [key, child] of Object.entries(value)) {
          keys.push(key);
          walk(child);
        }
    };
    walk(parsed);
    expect(keys.filter((key) => key.includes("_"))).toEqual([]);
  });
});
