import { describe, expect, it } from "vitest";
import { defaultSettings } from "./settings-model";
import {
  newFunctionDeclaration,
  withAllowedFunctionNames,
  withCallingMode,
  withFunctionDeclarations,
} from "./function-declarations-form";

const weather = { name: "get_weather", parameters: { type: "OBJECT", properties: {} } };
const time = { name: "get_time" };

describe("function declarations form", () => {
  it("keeps the declarations in their tool, beside the built-in tools", () => {
    const withSearch = { ...defaultSettings(), tools: [{ googleSearch: {} }] };
    const added = withFunctionDeclarations(withSearch, [weather]);
    expect(added.tools).toEqual([{ googleSearch: {} }, { functionDeclarations: [weather] }]);
    expect(withFunctionDeclarations(added, [weather, time]).tools).toEqual([
      { googleSearch: {} },
      { functionDeclarations: [weather, time] },
    ]);
    expect(withFunctionDeclarations(added, []).tools).toEqual([{ googleSearch: {} }]);
    expect(withFunctionDeclarations(defaultSettings(), []).tools).toBeUndefined();
  });

  it("drops allowed names of functions renamed or removed", () => {
    const settings = withAllowedFunctionNames(
      withCallingMode(withFunctionDeclarations(defaultSettings(), [weather, time]), "ANY"),
      ["get_weather", "get_time"],
    );
    expect(withFunctionDeclarations(settings, [weather]).toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] },
    });
    expect(withFunctionDeclarations(settings, []).toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY" },
    });
  });

  it("keeps allowed names only under ANY and VALIDATED, and other tool config always", () => {
    const settings = {
      ...defaultSettings(),
      toolConfig: {
        retrievalConfig: { languageCode: "en" },
        functionCallingConfig: { mode: "ANY" as const, allowedFunctionNames: ["get_weather"] },
      },
    };
    expect(withCallingMode(settings, "VALIDATED").toolConfig?.functionCallingConfig).toEqual({
      mode: "VALIDATED",
      allowedFunctionNames: ["get_weather"],
    });
    expect(withCallingMode(settings, "AUTO").toolConfig).toEqual({
      retrievalConfig: { languageCode: "en" },
      functionCallingConfig: { mode: "AUTO" },
    });
    expect(withCallingMode(settings, "").toolConfig).toEqual({
      retrievalConfig: { languageCode: "en" },
    });
    expect(withCallingMode(defaultSettings(), "").toolConfig).toBeUndefined();
    expect(
      withAllowedFunctionNames(withCallingMode(defaultSettings(), "ANY"), []).toolConfig,
    ).toEqual({
      functionCallingConfig: { mode: "ANY" },
    });
  });

  it("names a new declaration with the first free name", () => {
    expect(newFunctionDeclaration([]).name).toBe("new_function");
    expect(
      newFunctionDeclaration([{ name: "new_function" }, { name: "new_function_2" }]).name,
    ).toBe("new_function_3");
  });
});
