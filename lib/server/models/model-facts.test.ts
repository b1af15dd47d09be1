import { describe, expect, it } from "vitest";
import type { Backend } from "@/lib/gemini/backend/contract";
import type { Model } from "@/lib/gemini/types";
import { LISTED_MODELS } from "@/lib/engine/catalog";
import { createModelFactsReader, modelFacts } from "./model-facts";

const listed = modelFacts(LISTED_MODELS);
const facts = (name: string) => listed.find((item) => item.model.name === `models/${name}`)!;

describe("model facts from the engine's catalog", () => {
  it("says 2.5 Pro always thinks and Flash can stop, from the catalog's thinking rules", () => {
    expect(facts("gemini-2.5-pro").traits?.thinking).toMatchObject({
      canDisable: false,
      minBudget: 128,
    });
    expect(facts("gemini-2.5-flash").traits?.thinking).toMatchObject({ canDisable: true });
  });

  it("names what speech, music and image models need and what they take", () => {
    expect(facts("gemini-2.5-flash-preview-tts")).toMatchObject({
      purpose: "speech",
      inputs: ["TEXT"],
      needs: { responseModalities: ["AUDIO"] },
    });
    expect(facts("lyria-3-clip-preview")).toMatchObject({
      purpose: "music",
      needs: { responseModalities: ["AUDIO"] },
    });
    expect(facts("gemini-3-pro-image-preview")).toMatchObject({
      purpose: "image",
      inputs: ["TEXT", "IMAGE"],
      needs: { responseModalities: ["TEXT", "IMAGE"] },
    });
    expect(facts("gemini-2.5-flash")).toMatchObject({ purpose: "chat", needs: {} });
    expect(facts("gemini-robotics-er-1.6-preview").purpose).toBe("robotics");
  });

  it("gives every model a label no other shows, keeping unshared display names as they are", () => {
    const labels = listed.map((item) => item.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(facts("gemini-2.5-flash").label).toBe("Gemini 2.5 Flash");
    expect(facts("gemini-3-pro-image").label).toBe("Nano Banana Pro (gemini-3-pro-image)");
  });

  it("reads an upstream model it does not know by name through its family, with its own limits", () => {
    const [known] = modelFacts([
      {
        name: "models/gemini-2.5-pro-preview-11-2030",
        displayName: "Gemini 2.5 Pro Preview 11-2030",
        inputTokenLimit: 2_000_000,
        outputTokenLimit: 70_000,
        supportedGenerationMethods: ["generateContent", "countTokens"],
      },
    ]);
    expect(known!.traits).toMatchObject({
      inputTokenLimit: 2_000_000,
      outputTokenLimit: 70_000,
      thinking: { canDisable: false },
    });
  });

  it("says a model that answers no generateContent cannot chat, and reads no family into it", () => {
    const [embedding, unknown] = modelFacts([
      {
        name: "models/gemini-embedding-001",
        displayName: "Gemini Embedding 001",
        supportedGenerationMethods: ["embedContent", "countTextTokens"],
      },
      { name: "models/some-new-model", supportedGenerationMethods: ["generateContent"] },
    ]);
    expect(embedding).toMatchObject({ purpose: "embedding", chats: false, inputs: [] });
    expect(embedding!.traits).toBeUndefined();
    // A new generating model takes the family the catalog's last rule gives any new model.
    expect(unknown).toMatchObject({ purpose: "chat", chats: true, label: "some-new-model" });
    expect(unknown!.traits?.responseModalities).toEqual([["TEXT"]]);
  });
});

describe("reading the upstream's list", () => {
  const context = { caller: { ownerId: "studio" }, signal: new AbortController().signal };
  /** The upstream service's answers to models.list, as the gateway's backend returns them. */
  function upstream(answers: (() => Promise<{ models: Model[]; nextPageToken?: string }>)[]) {
    let calls = 0;
    const backend = {
      mode: "upstream",
      listModels: () => answers[Math.min(calls++, answers.length - 1)]!(),
    } as unknown as Backend;
    return { backend, calls: () => calls };
  }

  it("follows pages, keeps the list a while, and falls back to the catalog when it fails", async () => {
    let now = 0;
    const read = createModelFactsReader(() => now);
    const { backend, calls } = upstream([
      async () => ({ models: [LISTED_MODELS[0]!], nextPageToken: "2" }),
      async () => ({ models: [LISTED_MODELS[1]!] }),
      async () => {
        throw new Error("upstream unreachable");
      },
    ]);
    const first = await read(backend, context);
    expect(first.models.map((item) => item.model.name)).toEqual([
      LISTED_MODELS[0]!.name,
      LISTED_MODELS[1]!.name,
    ]);
    expect(first.problem).toBeUndefined();
    await read(backend, context);
    expect(calls()).toBe(2);
    now += 6 * 60_000;
    const failed = await read(backend, context);
    expect(failed.problem).toMatch(/could not be read \(upstream unreachable\)/);
    expect(failed.models.length).toBe(LISTED_MODELS.length);
  });
});
