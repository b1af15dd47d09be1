// The remembered declaration counts: a declaration counts the same whether written out or
// remembered, two declarations that differ anywhere are two entries, and one too large to
// remember is refused a key before it is written out.
import { afterAll, describe, expect, it } from "vitest";
import { findModel } from "@/lib/engine/catalog";
import type { FunctionDeclaration } from "@/lib/gemini/types";
import { declarationKey, rememberedCount } from "./declaration-counts";
import { countRequestTokens, terminateTokenizerWorkers } from "./index";

afterAll(async () => {
  await terminateTokenizerWorkers();
});

const lookup = (description: string): FunctionDeclaration => ({
  name: "lookup_order",
  description,
  parametersJsonSchema: {
    type: "object",
    properties: { id: { type: "string", description: "The order's id." } },
    required: ["id"],
  },
});

async function promptOf(model: string, declaration: FunctionDeclaration): Promise<number> {
  const traits = findModel(model)!.traits;
  const counted = await countRequestTokens(traits, {
    contents: [{ role: "user", parts: [{ text: "Where is my order?" }] }],
    tools: [{ functionDeclarations: [declaration] }],
  });
  return counted.totalTokens;
}

describe("remembered declaration counts", () => {
  for (const model of ["gemini-2.0-flash", "gemini-2.5-flash", "gemini-3-flash-preview"]) {
    it(`${model}: a remembered declaration counts what it counted when written out`, async () => {
      const declaration = lookup(`Looks up an order (${model}).`);
      const traits = findModel(model)!.traits;
      const key = declarationKey(traits.tokenizer, traits.promptTokens!.functionText, declaration)!;
      expect(rememberedCount(key)).toBeUndefined();
      const first = await promptOf(model, declaration);
      expect(rememberedCount(key)).toBeGreaterThan(0);
      expect(await promptOf(model, declaration)).toBe(first);
      const longer = await promptOf(model, lookup(`Looks up an order (${model}) by its id.`));
      expect(longer).toBeGreaterThan(first);
    });
  }

  it("gives no key to a declaration too large to remember, without writing it out", () => {
    const huge = lookup("x".repeat(40_000));
    expect(declarationKey("gemma3", "markup", huge)).toBeNull();
    const wide: FunctionDeclaration = {
      name: "pick",
      parametersJsonSchema: {
        type: "object",
        properties: { value: { enum: Array.from({ length: 200_000 }, (_, i) => `v${i}`) } },
      },
    };
    expect(declarationKey("gemma3", "markup", wide)).toBeNull();
  });
});
