import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRICE_TABLE,
  answerCost,
  formatCost,
  priceOf,
  priceTableSchema,
} from "./price-table";

describe("price table", () => {
  it("prices a model by its id or the longest id it extends", () => {
    expect(priceOf("models/gemini-2.5-flash", DEFAULT_PRICE_TABLE)?.input).toBe(0.3);
    expect(priceOf("gemini-2.5-flash-lite-001", DEFAULT_PRICE_TABLE)?.input).toBe(0.1);
    expect(priceOf("gemini-2.5-flashy", DEFAULT_PRICE_TABLE)).toBeNull();
    expect(priceOf("unknown-model", DEFAULT_PRICE_TABLE)).toBeNull();
  });

  it("bills cached prompt tokens at the cached price and thoughts as output", () => {
    const cost = answerCost(
      {
        promptTokenCount: 1_000_000,
        cachedContentTokenCount: 400_000,
        candidatesTokenCount: 100_000,
        thoughtsTokenCount: 100_000,
      },
      "models/gemini-2.5-flash",
      DEFAULT_PRICE_TABLE,
    );
    // 600k × 0.30 + 400k × 0.03 + 200k × 2.50, per million.
    expect(cost?.amount).toBeCloseTo(0.18 + 0.012 + 0.5, 10);
    expect(cost?.currency).toBe("USD");
  });

  it("bills an implicit cache hit at the cached price, as the service reports one", () => {
    // The usage of a recorded 2.5 Flash answer whose request named no cache: the service found
    // 1,032 of its 1,110 prompt tokens in the caller's earlier prompt (pydantic-ai's
    // test_tool_choice_required_live recording, request 23).
    const usage = {
      promptTokenCount: 1_110,
      cachedContentTokenCount: 1_032,
      cacheTokensDetails: [{ modality: "TEXT" as const, tokenCount: 1_032 }],
      promptTokensDetails: [{ modality: "TEXT" as const, tokenCount: 1_110 }],
      candidatesTokenCount: 15,
      thoughtsTokenCount: 112,
    };
    const cost = answerCost(usage, "gemini-2.5-flash", DEFAULT_PRICE_TABLE)!;
    expect(cost.amount).toBeCloseTo((78 * 0.3 + 1_032 * 0.03 + 127 * 2.5) / 1e6, 12);
    const uncached = answerCost(
      { ...usage, cachedContentTokenCount: undefined, cacheTokensDetails: undefined },
      "gemini-2.5-flash",
      DEFAULT_PRICE_TABLE,
    )!;
    expect(uncached.amount - cost.amount).toBeCloseTo((1_032 * (0.3 - 0.03)) / 1e6, 12);
  });

  it("switches to long-context prices over the threshold", () => {
    const usage = { promptTokenCount: 300_000, candidatesTokenCount: 1_000 };
    expect(answerCost(usage, "gemini-2.5-pro", DEFAULT_PRICE_TABLE)?.amount).toBeCloseTo(
      (300_000 * 2.5 + 1_000 * 15) / 1e6,
      10,
    );
  });

  it("formats small amounts with their significant digits", () => {
    expect(formatCost({ amount: 0.000123, currency: "USD" })).toBe("$0.000123");
    expect(formatCost({ amount: 1.5, currency: "USD" })).toBe("$1.50");
  });

  it("a configured table is validated", () => {
    expect(priceTableSchema.safeParse({ currency: "usd", models: {} }).success).toBe(false);
    expect(
      priceTableSchema.safeParse({ currency: "EUR", models: { m: { input: 1, output: -1 } } })
        .success,
    ).toBe(false);
    expect(
      priceTableSchema.safeParse({ currency: "EUR", models: { m: { input: 1, output: 2 } } })
        .success,
    ).toBe(true);
  });
});
