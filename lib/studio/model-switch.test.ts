import { describe, expect, it } from "vitest";
import { LISTED_MODELS } from "@/lib/engine/catalog";
import { modelFacts } from "@/lib/server/models/model-facts";
import { settingsForModel } from "./model-switch";
import { defaultSettings, validateSettings, withBuiltInTool } from "./settings-model";
import type { ConversationSettings } from "./conversation-schema";

const facts = modelFacts(LISTED_MODELS);
const factsOf = (id: string) => facts.find((item) => item.model.name === `models/${id}`)!;

function moveTo(settings: ConversationSettings, id: string) {
  return settingsForModel(settings, `models/${id}`, factsOf(id));
}

describe("moving settings to another model", () => {
  it("lets speech, music and image models send without touching a setting", () => {
    for (const id of [
      "gemini-2.5-flash-preview-tts",
      "lyria-3-clip-preview",
      "gemini-3-pro-image-preview",
    ]) {
      const moved = moveTo(defaultSettings(), id);
      expect(validateSettings(moved.settings, factsOf(id).traits)).toEqual({});
      expect(moved.changes.join(" ")).toMatch(/Response modalities set to/);
    }
  });

  it("clears a thinking budget of 0 for a model that always thinks, and says so", () => {
    const settings = {
      ...defaultSettings(),
      generationConfig: { thinkingConfig: { thinkingBudget: 0, includeThoughts: true } },
    };
    const moved = moveTo(settings, "gemini-2.5-pro");
    expect(moved.settings.generationConfig.thinkingConfig).toEqual({ includeThoughts: true });
    expect(moved.changes).toEqual(["Thinking budget 0 cleared: Gemini 2.5 Pro always thinks."]);
    expect(validateSettings(moved.settings, factsOf("gemini-2.5-pro").traits)).toEqual({});
    // Flash can stop thinking: its 0 stays.
    expect(moveTo(settings, "gemini-2.5-flash").settings).toEqual({
      ...settings,
      model: "models/gemini-2.5-flash",
    });
  });

  it("goes back to text from a speech model, and clears what the new model cannot take", () => {
    const speech = moveTo(
      withBuiltInTool(
        { ...defaultSettings(), generationConfig: { topK: 20, maxOutputTokens: 60_000 } },
        "googleSearch",
        true,
      ),
      "gemini-2.5-flash-preview-tts",
    );
    expect(speech.settings.generationConfig.responseModalities).toEqual(["AUDIO"]);
    expect(speech.settings.tools).toBeUndefined();
    const text = moveTo(speech.settings, "gemini-2.5-flash");
    expect(text.settings.generationConfig.responseModalities).toBeUndefined();
    expect(validateSettings(text.settings, factsOf("gemini-2.5-flash").traits)).toEqual({});
  });

  it("changes only the model when the facts are not known", () => {
    const settings = { ...defaultSettings(), generationConfig: { topK: 3 } };
    expect(settingsForModel(settings, "models/elsewhere", undefined)).toEqual({
      settings: { ...settings, model: "models/elsewhere" },
      changes: [],
    });
  });
});
