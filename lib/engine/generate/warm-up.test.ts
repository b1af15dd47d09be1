import { describe, expect, it } from "vitest";
import { requireModel } from "@/lib/engine/catalog";
import { generationStats, warmUpGeneration } from "./index";

describe("warmUpGeneration", () => {
  it("runs a whole answer of the model and leaves no generation running", async () => {
    const before = generationStats();
    await warmUpGeneration(requireModel("gemini-2.5-flash", "generateContent"));
    const after = generationStats();
    expect(after.active).toBe(before.active);
    expect(after.tokens).toBeGreaterThan(before.tokens);
  });
});
