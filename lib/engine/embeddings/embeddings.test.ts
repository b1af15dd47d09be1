// The engine's embedding vectors: deterministic, unit length, nearer for texts that share
// words and topics, shortened as each model does (recorded: gemini-embedding-001 keeps the
// leading values as they are, gemini-embedding-2 scales them back to unit length), and the
// task type read only by the models that read it.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { EmbeddingTraits } from "@/lib/gemini/embedding-types";
import { embedInput, type EmbedInput } from "./embed-input";
import { stem } from "./words";
import { topicOfStem } from "./topic-lexicon";

const TEXT_MODEL: EmbeddingTraits = {
  dimensions: 3072,
  minDimensionality: 1,
  renormalizesTruncated: false,
  readsTaskType: true,
  media: [],
  usage: false,
};
const MULTIMODAL_MODEL: EmbeddingTraits = {
  ...TEXT_MODEL,
  renormalizesTruncated: true,
  readsTaskType: false,
  media: ["IMAGE", "AUDIO", "VIDEO", "DOCUMENT"],
  usage: true,
};

function vector(text: string, options: Partial<EmbedInput> = {}, traits = TEXT_MODEL) {
  return embedInput({ parts: [{ text }], ...options }, "models/test-embedding", traits);
}

function norm(values: ArrayLike<number>): number {
  return Math.sqrt(Array.from(values).reduce((sum, value) => sum + value * value, 0));
}

function cosine(left: ArrayLike<number>, right: ArrayLike<number>): number {
  let dot = 0;
  for (let index = 0; index < left.length; index++) dot += left[index]! * right[index]!;
  return dot / (norm(left) * norm(right));
}

describe("embedding vectors", () => {
  it("keep the values they have always had (a digest over models, sizes, task types, media)", () => {
    const texts = [
      "",
      "the",
      "The quick brown fox jumps over the lazy dog.",
      "How do I make a tomato soup with garlic and onions?",
      "Cooking, cooked, cooks — running runners ran.",
      "東京の天気は晴れです",
      "don't l'eau café naïve 123 4.5",
      "a ".repeat(50) + "compiler errors in functions",
    ];
    const hash = createHash("sha256");
    const models: Array<[string, EmbeddingTraits]> = [
      ["models/gemini-embedding-001", TEXT_MODEL],
      ["models/gemini-embedding-2", { ...MULTIMODAL_MODEL, media: ["IMAGE"] }],
    ];
    for (const [model, traits] of models)
      for (const text of texts)
        for (const outputDimensionality of [undefined, 3072, 3000, 768, 128, 1])
          for (const options of [
            {},
            { taskType: "RETRIEVAL_DOCUMENT", title: "Soup recipes" },
            { taskType: "RETRIEVAL_QUERY" },
          ] as const) {
            const parts: EmbedInput["parts"] = [
              { text },
              ...(text === "the" ? [{ modality: "IMAGE" as const, identity: "abc" }] : []),
            ];
            const input: EmbedInput = {
              parts,
              ...options,
              ...(outputDimensionality ? { outputDimensionality } : {}),
            };
            hash.update(JSON.stringify(embedInput(input, model, traits)));
          }
    expect(hash.digest("hex")).toBe(
      "16dc09c2596baaef4dacfa443090cd8de45fa156119b522c1bbb0af57fdac50a",
    );
  });

  it("are deterministic and of unit length at full size", () => {
    const first = vector("The quick brown fox jumps over the lazy dog.");
    expect(first).toHaveLength(3072);
    expect(vector("The quick brown fox jumps over the lazy dog.")).toEqual(first);
    expect(norm(first)).toBeCloseTo(1, 6);
    expect(first.every((value) => Number.isFinite(value))).toBe(true);
  });

  it("differ between models: each model has its own map", () => {
    const text = "A bowl of tomato soup";
    const other = embedInput({ parts: [{ text }] }, "models/other-embedding", TEXT_MODEL);
    expect(Math.abs(cosine(vector(text), other))).toBeLessThan(0.2);
  });

  it("bring texts that share words and topics nearer than unrelated ones", () => {
    const soup = vector("How do I make a tomato soup with garlic and onions?");
    const recipe = vector("Tomato soup recipe: simmer onions, garlic and tomatoes, then blend.");
    const oven = vector("Bake the bread in a hot oven until the crust is golden.");
    const code = vector("The compiler reported a type error in the function signature.");
    expect(cosine(soup, recipe)).toBeGreaterThan(cosine(soup, code) + 0.2);
    // No word in common, one topic (cooking) in common: still nearer than another topic.
    expect(cosine(soup, oven)).toBeGreaterThan(cosine(soup, code));
    expect(cosine(vector("running shoes"), vector("she runs in her shoe"))).toBeGreaterThan(0.4);
  });

  it("keep gemini-embedding-001's leading values as they are when shortened", () => {
    const full = vector("Some text goes here");
    const short = vector("Some text goes here", { outputDimensionality: 768 });
    expect(short).toEqual(full.slice(0, 768));
    expect(norm(short)).toBeGreaterThan(0.35);
    expect(norm(short)).toBeLessThan(0.65);
  });

  it("scale gemini-embedding-2's shortened vectors back to unit length", () => {
    const full = vector("Some text goes here", {}, MULTIMODAL_MODEL);
    const short = vector("Some text goes here", { outputDimensionality: 128 }, MULTIMODAL_MODEL);
    expect(norm(short)).toBeCloseTo(1, 6);
    expect(cosine(short, full.slice(0, 128))).toBeCloseTo(1, 6);
  });

  it("read the task type and a document's title only where the model does", () => {
    const query = vector("hello", { taskType: "RETRIEVAL_QUERY" });
    const document = vector("hello", { taskType: "RETRIEVAL_DOCUMENT" });
    expect(query).not.toEqual(document);
    expect(cosine(query, document)).toBeGreaterThan(0.9);
    const titled = vector("hello", { taskType: "RETRIEVAL_DOCUMENT", title: "Greeting" });
    expect(titled).not.toEqual(document);
    // Recorded: gemini-embedding-2-preview answers the same values for both task types.
    expect(vector("hello", { taskType: "RETRIEVAL_QUERY" }, MULTIMODAL_MODEL)).toEqual(
      vector("hello", { taskType: "RETRIEVAL_DOCUMENT" }, MULTIMODAL_MODEL),
    );
  });

  it("embed media by kind and bytes: the same picture is the same vector, two pictures share their kind", () => {
    const picture = (identity: string) =>
      embedInput(
        { parts: [{ modality: "IMAGE", identity }] },
        "models/test-embedding",
        MULTIMODAL_MODEL,
      );
    expect(picture("abc")).toEqual(picture("abc"));
    expect(cosine(picture("abc"), picture("xyz"))).toBeGreaterThan(0.1);
    expect(cosine(picture("abc"), picture("xyz"))).toBeLessThan(0.5);
  });

  it("give an empty input a vector, never zeros", () => {
    const empty = vector("");
    expect(norm(empty)).toBeCloseTo(1, 6);
    expect(vector("!!!")).toEqual(empty);
  });
});

describe("words and topics", () => {
  it("stems word forms together", () => {
    expect(stem("cooking")).toBe(stem("cooked"));
    expect(stem("cooks")).toBe("cook");
    expect(stem("berries")).toBe("berry");
    expect(stem("running")).toBe("run");
    expect(stem("glass")).toBe("glass");
  });

  it("learns topics from the engine's corpus", () => {
    expect(topicOfStem("oven")?.name).toBe("cooking-and-home");
    expect(topicOfStem(stem("programs"))?.name).toBe("software-and-computing");
    expect(topicOfStem("the")).toBeUndefined();
  });
});
