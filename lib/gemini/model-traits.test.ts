import { describe, expect, it } from "vitest";
import { traitsFromModel } from "./model-traits";

describe("traits of a model known only by its resource", () => {
  it("offers pictures on Gemini image models, speech on speech models, text elsewhere", () => {
    const modalities = (name: string) =>
      traitsFromModel({ name: `models/${name}` }).responseModalities;
    expect(modalities("gemini-2.5-flash-image")).toEqual([["TEXT", "IMAGE"], ["IMAGE"]]);
    expect(modalities("gemini-2.0-flash-preview-image-generation")).toContainEqual([
      "TEXT",
      "IMAGE",
    ]);
    expect(modalities("gemini-2.5-flash-preview-tts")).toEqual([["AUDIO"]]);
    expect(modalities("gemini-2.5-flash")).toEqual([["TEXT"]]);
    expect(modalities("imagen-4.0-generate-001")).toEqual([["TEXT"]]);
  });
});
