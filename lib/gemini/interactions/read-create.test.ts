import { describe, expect, it } from "vitest";
import { ApiError } from "../api-error";
import { readCreateInteractionRequest } from "./read-create";

function refusal(body: unknown): ApiError {
  try {
    readCreateInteractionRequest(body);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("readCreateInteractionRequest", () => {
  it("reads the recorded requests of the service", () => {
    // openinference's (2026-05) and braintrust's (2026-07) bodies, as recorded.
    expect(
      readCreateInteractionRequest({
        input: "Tell me a short joke about programming.",
        model: "gemini-2.5-flash",
        generation_config: { temperature: 0.7, max_output_tokens: 500, thinking_level: "low" },
        stream: false,
      }),
    ).toEqual({
      model: "models/gemini-2.5-flash",
      input: [
        {
          type: "user_input",
          content: [{ type: "text", text: "Tell me a short joke about programming." }],
        },
      ],
      generation_config: { temperature: 0.7, max_output_tokens: 500, thinking_level: "low" },
      store: true,
      stream: false,
      background: false,
    });
    const image = readCreateInteractionRequest({
      input: [
        { type: "text", text: "Describe the image in one sentence." },
        { type: "image", data: "iVBORw0KGgo=", mime_type: "image/png", resolution: "low" },
      ],
      model: "gemini-2.5-flash-lite",
    });
    expect(image.input).toEqual([
      {
        type: "user_input",
        content: [
          { type: "text", text: "Describe the image in one sentence." },
          { type: "image", data: "iVBORw0KGgo=", mime_type: "image/png", resolution: "low" },
        ],
      },
    ]);
    const chained = readCreateInteractionRequest({
      generation_config: { max_output_tokens: 256, temperature: 0, thinking_level: "minimal" },
      input: { text: "What is my name? Reply with exactly AMIR.", type: "text" },
      model: "gemini-2.5-flash",
      previous_interaction_id: "v1_abc",
    });
    expect(chained.previous_interaction_id).toBe("v1_abc");
    const agent = readCreateInteractionRequest({
      input: "Research the history of the Google TPUs.",
      background: true,
      agent: "deep-research-pro-preview-12-2025",
    });
    expect(agent).toMatchObject({ agent: "deep-research-pro-preview-12-2025", background: true });
  });

  it("reads steps, tools and response formats", () => {
    const request = readCreateInteractionRequest({
      model: "gemini-3-flash-preview",
      input: [
        { type: "user_input", content: [{ type: "text", text: "Weather in Paris?" }] },
        { type: "function_call", id: "c1", name: "get_weather", arguments: { city: "Paris" } },
        { type: "function_result", call_id: "c1", result: "sunny" },
      ],
      tools: [
        { type: "function", name: "get_weather", parameters: { type: "object" } },
        { type: "google_search" },
        { type: "file_search", file_search_store_names: ["fileSearchStores/x"] },
      ],
      response_format: { type: "text", mime_type: "application/json", schema: { type: "object" } },
      generation_config: {
        tool_choice: { allowed_tools: { mode: "any", tools: ["get_weather"] } },
      },
    });
    expect(request.input.map((step) => step.type)).toEqual([
      "user_input",
      "function_call",
      "function_result",
    ]);
    expect(request.tools?.map((tool) => tool.type)).toEqual([
      "function",
      "google_search",
      "file_search",
    ]);
    expect(request.response_format).toEqual({
      mime_type: "application/json",
      schema: { type: "object" },
      modalities: ["text"],
    });
    expect(request.generation_config?.tool_choice).toEqual({
      mode: "any",
      allowed: ["get_weather"],
    });
    // The schema itself as response_format (older clients), with the deprecated MIME type.
    expect(
      readCreateInteractionRequest({
        model: "gemini-2.5-flash",
        input: "x",
        response_format: { type: "object", properties: {} },
        response_mime_type: "application/json",
      }).response_format,
    ).toEqual({
      schema: { type: "object", properties: {} },
      mime_type: "application/json",
      modalities: ["text"],
    });
  });

  it("refuses what is wrong, naming the field", () => {
    const cases: [unknown, string][] = [
      [[], "expected an object"],
      [{ input: "x" }, "Exactly one of 'model' and 'agent'"],
      [{ model: "m", agent: "a", input: "x" }, "Exactly one of 'model' and 'agent'"],
      [{ model: "a b", input: "x" }, "'model'"],
      [{ model: "m" }, "'input'"],
      [{ model: "m", input: [] }, "'input'"],
      [{ model: "m", input: 3 }, "'input'"],
      [{ model: "m", input: [{ type: "text" }] }, "'input[0].text'"],
      [{ model: "m", input: [{ type: "image" }] }, "'input[0]'"],
      [{ model: "m", input: [{ type: "image", data: "x" }] }, "'input[0].mime_type'"],
      [{ model: "m", input: [{ type: "video_call" }] }, "'input[0].type'"],
      [{ model: "m", input: [{ type: "function_call", name: "f" }] }, "'input[0].id'"],
      [{ model: "m", input: "x", stream: "yes" }, "'stream'"],
      [{ model: "m", input: "x", temprature: 1 }, "'temprature'"],
      [
        { model: "m", input: "x", generation_config: { temperature: 3 } },
        "'generation_config.temperature'",
      ],
      [
        { model: "m", input: "x", generation_config: { thinking_level: "max" } },
        "'generation_config.thinking_level'",
      ],
      [
        { model: "m", input: "x", generation_config: { max_output_tokens: 0 } },
        "'generation_config.max_output_tokens'",
      ],
      [{ model: "m", input: "x", tools: [{ type: "mcp_server" }] }, "'tools[0].type'"],
      [{ model: "m", input: "x", tools: [{ type: "function" }] }, "'tools[0].name'"],
      [{ model: "m", input: "x", agent_config: {} }, "'agent_config'"],
      [{ agent: "a", input: "x", generation_config: {} }, "'generation_config'"],
      [{ model: "m", input: "x", continuation_token: "t" }, "'continuation_token'"],
      [{ model: "m", input: "x", response_modalities: ["smell"] }, "'response_modalities[0]'"],
    ];
    for (const [body, mentions] of cases) {
      const error = refusal(body);
      expect(error.httpStatus, JSON.stringify(body)).toBe(400);
      expect(error.message, JSON.stringify(body)).toContain(mentions);
    }
  });
});
