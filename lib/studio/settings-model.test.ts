import { describe, expect, it } from "vitest";
import { findModel } from "@/lib/engine/catalog";
import {
  defaultSettings,
  thresholdAllowing,
  thresholdInForce,
  settingsFieldViolations,
  settingsForCache,
  validateSettings,
  violationField,
  withSafetyThreshold,
} from "./settings-model";

const flash = findModel("gemini-2.5-flash")!.traits;
const { topK: _topK, ...noTopK } = flash;

describe("validateSettings", () => {
  it("groups the server's violations by form field", () => {
    const settings = {
      ...defaultSettings(),
      generationConfig: {
        temperature: 3,
        stopSequences: ["a", "b", "c", "d", "e", "f"],
        maxOutputTokens: 70_000,
      },
    };
    const violations = validateSettings(settings, flash);
    expect(Object.keys(violations).sort()).toEqual([
      "max_output_tokens",
      "stop_sequences",
      "temperature",
    ]);
    expect(violations.temperature?.[0]).toContain("temperature must be in the range");
  });

  it("accepts valid settings and refuses topK on a model without it", () => {
    expect(
      validateSettings(
        { ...defaultSettings(), generationConfig: { temperature: 0.5, topK: 10 } },
        flash,
      ),
    ).toEqual({});
    expect(
      Object.keys(
        validateSettings({ ...defaultSettings(), generationConfig: { topK: 10 } }, noTopK),
      ),
    ).toEqual(["top_k"]);
  });

  it("checks function declarations and the calling mode whatever the model", () => {
    const settings = {
      ...defaultSettings(),
      tools: [{ functionDeclarations: [{ name: "2fast", parameters: { type: "ARRAY" } }] }],
      toolConfig: { functionCallingConfig: { mode: "NONE" as const, allowedFunctionNames: ["x"] } },
    };
    expect(validateSettings(settings, undefined)).toEqual({
      tools: [expect.stringContaining("Invalid function name"), "missing field."],
      tool_config: ['"x" is not a declared function; declared functions are 2fast.'],
    });
    expect(settingsFieldViolations(settings, flash).map((violation) => violation.field)).toEqual([
      "tools[0].function_declarations[0].name",
      "tools[0].function_declarations[0].parameters.items",
      "tool_config.function_calling_config.allowed_function_names[0]",
    ]);
  });

  it("maps nested and camelCase paths to their field", () => {
    expect(
      violationField({
        field: "generation_config.thinking_config.thinking_budget",
        description: "",
      }),
    ).toBe("thinking_config");
    expect(violationField({ field: "generationConfig.topP", description: "" })).toBe("top_p");
    expect(violationField({ field: "generation_config.stop_sequences[2]", description: "" })).toBe(
      "stop_sequences",
    );
  });
});

describe("safety thresholds", () => {
  it("names the threshold in force and the one that lets a probability through", () => {
    const settings = withSafetyThreshold(
      defaultSettings(),
      "HARM_CATEGORY_DANGEROUS_CONTENT",
      "BLOCK_LOW_AND_ABOVE",
    );
    expect(thresholdInForce(settings, "HARM_CATEGORY_DANGEROUS_CONTENT", flash)).toBe(
      "BLOCK_LOW_AND_ABOVE",
    );
    expect(thresholdInForce(settings, "HARM_CATEGORY_HARASSMENT", flash)).toBe("OFF");
    expect(thresholdAllowing("HIGH")).toBe("BLOCK_NONE");
    expect(thresholdAllowing("MEDIUM")).toBe("BLOCK_ONLY_HIGH");
    expect(
      withSafetyThreshold(settings, "HARM_CATEGORY_DANGEROUS_CONTENT", null).safetySettings,
    ).toEqual([]);
  });
});

describe("a chat on a cached content", () => {
  const cache = { name: "cachedContents/abc", model: "models/gemini-2.5-pro" };
  const busy = {
    ...defaultSettings(),
    systemInstruction: "Be terse.",
    tools: [{ functionDeclarations: [{ name: "get_weather" }] }],
    toolConfig: { functionCallingConfig: { mode: "ANY" as const } },
  };

  it("marks a system instruction, tools and a tool config set beside it, each at its field", () => {
    const withCache = { ...busy, cachedContent: cache.name };
    expect(validateSettings(withCache, flash)).toMatchObject({
      system_instruction: [expect.stringContaining("cached content")],
      tools: [expect.stringContaining("cached content")],
      tool_config: [expect.stringContaining("cached content")],
    });
    expect(validateSettings(busy, flash)).toEqual({});
  });

  it("starts from the cache's model and leaves out what the cache carries", () => {
    const started = settingsForCache(busy, cache);
    expect(started).toMatchObject({ model: cache.model, cachedContent: cache.name });
    expect(started.systemInstruction).toBe("");
    expect(started.tools).toBeUndefined();
    expect(started.toolConfig).toBeUndefined();
    expect(started.generationConfig).toEqual(busy.generationConfig);
    expect(validateSettings(started, flash)).toEqual({});
  });
});
