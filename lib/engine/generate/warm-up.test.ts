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

  it("asks before each further chunk and ends when told to, leaving nothing running", async () => {
    const entry = requireModel("gemini-2.5-flash", "generateContent");
    const whole = generationStats().tokens;
    await warmUpGeneration(entry);
    const wholeTokens = generationStats().tokens - whole;

    let asked = 0;
    const before = generationStats();
    await warmUpGeneration(entry, async () => {
      asked += 1;
      return asked < 2;
    });
    const after = generationStats();
    expect(asked).toBe(2);
    expect(after.active).toBe(before.active);
    expect(after.tokens - before.tokens).toBeLessThan(wholeTokens);
  });
});
