import { describe, expect, it } from "vitest";
import { CATALOG } from "@/lib/engine/catalog";
import { knowsCacheMinimum, minCacheTokens } from "./cache-minimums";

describe("minCacheTokens", () => {
  it("mirrors the engine catalog for every model that can create caches", () => {
    for (const { traits } of CATALOG) {
      if (!traits.supportedGenerationMethods.includes("createCachedContent")) continue;
      expect(knowsCacheMinimum(traits.name), traits.name).toBe(true);
      expect(minCacheTokens(traits.name), traits.name).toBe(traits.minCacheTokens);
    }
  });

  it("knows the published figures and accepts bare ids", () => {
    expect(minCacheTokens("gemini-2.5-flash")).toBe(1024);
    expect(minCacheTokens("models/gemini-2.5-pro")).toBe(4096);
    expect(minCacheTokens("models/gemini-2.0-flash-001")).toBe(4096);
    expect(minCacheTokens("models/gemini-1.5-flash-002")).toBe(32_768);
    expect(knowsCacheMinimum("models/some-future-model")).toBe(false);
    expect(minCacheTokens("models/some-future-model")).toBe(1024);
  });
});
