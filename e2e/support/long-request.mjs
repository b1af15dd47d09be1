/**
 * A generateContent request that runs to gemini-2.5-flash's output limit: a JSON list forced
 * to 10,000 items, cut at 65,536 tokens (seconds of the engine's work), for specs and benches
 * that need a request still running when they act. Plain ESM so scripts and specs share it.
 */
export const OUTPUT_LIMIT_REQUEST = {
  contents: [{ parts: [{ text: "List things." }] }],
  generationConfig: {
    maxOutputTokens: 65_536,
    thinkingConfig: { thinkingBudget: 0 },
    responseMimeType: "application/json",
    responseJsonSchema: { type: "array", minItems: 10_000, items: { type: "string" } },
  },
};
