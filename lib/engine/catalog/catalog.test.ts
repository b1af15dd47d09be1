// The catalog data against the recordings it is derived from: every generateContent model of
// the newest recorded models.list is served with the service's resource, every model a
// recorded request used successfully stays served, and aliases answer as their targets.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { Model } from "@/lib/gemini/types";
import { CATALOG, LISTED_MODELS, findModel, requireModel } from "./index";

interface Exchange {
  operation: string;
  path: string;
  status: number;
  responseBody: string;
}

const exchanges: Exchange[] = readFileSync(
  path.resolve("e2e/fixtures/recorded-exchanges/exchanges.jsonl"),
  "utf8",
)
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));

/** The recorded list naming the highest Gemini version: the newest catalog. */
function newestRecordedList(): Model[] {
  const lists = exchanges
    .filter((exchange) => exchange.operation === "models.list" && exchange.status === 200)
    .map((exchange) => JSON.parse(exchange.responseBody).models as Model[]);
  const newest = (models: Model[]) =>
    Math.max(...models.map((model) => Number(/gemini-(\d+(?:\.\d+)?)/.exec(model.name)?.[1] ?? 0)));
  return lists.sort((left, right) => newest(left) - newest(right)).at(-1)!;
}

describe("the catalog", () => {
  it("lists every generateContent model of the newest recorded models.list, with its resource, in its order", () => {
    const expected = newestRecordedList().filter((model) =>
      model.supportedGenerationMethods?.includes("generateContent"),
    );
    expect(LISTED_MODELS).toEqual(expected);
    expect(LISTED_MODELS.map((model) => model.name)).toContain("models/gemini-3.7-flash");
  });

  it("keeps serving, unlisted, every model a recorded request used successfully", () => {
    const used = new Set(
      exchanges
        .filter(
          (exchange) =>
            exchange.status === 200 && /:(?:stream)?[gG]enerateContent$/.test(exchange.path),
        )
        .map((exchange) => decodeURIComponent(/models\/([^/:]+):/.exec(exchange.path)![1]!)),
    );
    for (const id of used) expect(findModel(id), id).toBeDefined();
    const retired = findModel("gemini-1.5-flash")!;
    expect(retired.listed).toBe(false);
    expect(retired.model.displayName).toBe("Gemini 1.5 Flash");
  });

  it("answers an alias as its target: target traits and modelVersion, the alias's own name and resource", () => {
    const alias = findModel("gemini-flash-latest")!;
    const target = findModel(alias.modelVersion)!;
    expect(alias.modelVersion).toBe("gemini-3.5-flash");
    expect(alias.traits.name).toBe("models/gemini-flash-latest");
    expect(alias.model.displayName).toBe("Gemini Flash Latest");
    expect({ ...alias.traits, name: "" }).toEqual({ ...target.traits, name: "" });
    expect(alias.answer).toEqual(target.answer);
  });

  it("holds complete traits for every model, from its family", () => {
    for (const entry of CATALOG) {
      expect(entry.traits.tokenizer, entry.traits.name).toMatch(/^gemma3?$/);
      expect(entry.traits.responseModalities.length, entry.traits.name).toBeGreaterThan(0);
    }
    expect(findModel("gemini-2.0-flash")!.traits.roleTokenPerContent).toBe(false);
    expect(findModel("gemini-3.1-flash-tts-preview")!.traits.thinking).toBeUndefined();
    expect(findModel("gemini-3.5-flash")!.traits.logprobs).toBe(false);
  });

  it("answers the service's 404 for an unknown model or an unsupported method", () => {
    expect(() => requireModel("gemini-9-ultra", "generateContent")).toThrow(ApiError);
    expect(() => requireModel("gemma-3-1b-it", "createCachedContent")).toThrow(
      /not supported for createCachedContent\. Call ModelService\.ListModels/,
    );
  });
});
