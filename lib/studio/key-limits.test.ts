import { describe, expect, it } from "vitest";
import {
  effectiveLimits,
  effectiveModelAllowed,
  hasBudgets,
  keyLimitsSchema,
  limitsBeyondAllowance,
  modelAllowed,
  spendPeriods,
} from "./key-limits";

describe("key limits", () => {
  it("allows models by id or prefix, in either spelling", () => {
    expect(modelAllowed(null, "gemini-2.5-pro")).toBe(true);
    expect(modelAllowed(["gemini-2.5-flash"], "models/gemini-2.5-flash")).toBe(true);
    expect(modelAllowed(["gemini-2.5-flash"], "gemini-2.5-flash-lite")).toBe(false);
    expect(modelAllowed(["gemini-2.5-*"], "gemini-2.5-flash-lite")).toBe(true);
    expect(modelAllowed([], "gemini-2.5-flash")).toBe(false);
    expect(keyLimitsSchema.parse({ models: ["models/gemini-2.5-flash"] }).models).toEqual([
      "gemini-2.5-flash",
    ]);
    expect(keyLimitsSchema.safeParse({ models: ["gemini flash"] }).success).toBe(false);
    expect(keyLimitsSchema.safeParse({ tokensPerDay: -1 }).success).toBe(false);
    expect(keyLimitsSchema.safeParse({ secret: 1 }).success).toBe(false);
  });

  it("holds a key to its own limits and its person's allowance, the tighter of each", () => {
    const limits = effectiveLimits(
      { models: ["gemini-2.5-*"], tokensPerDay: 500, requestsPerMinute: 100 },
      {
        models: ["gemini-2.5-flash"],
        tokensPerDay: 1000,
        dollarsPerMonth: 5,
        requestsPerMinute: 10,
      },
    );
    expect(effectiveModelAllowed(limits, "gemini-2.5-flash")).toBe(true);
    expect(effectiveModelAllowed(limits, "gemini-2.5-pro")).toBe(false);
    expect(limits.budgets).toEqual({
      tokensPerDay: 500,
      tokensPerMonth: null,
      dollarsPerDay: null,
      dollarsPerMonth: 5,
    });
    expect(limits.requestsPerMinute).toBe(10);
    expect(hasBudgets(limits)).toBe(true);
    expect(hasBudgets(effectiveLimits({}, null))).toBe(false);
  });

  it("names each limit that goes beyond the allowance", () => {
    const allowance = { models: ["gemini-2.5-*"], tokensPerDay: 1000 };
    expect(
      limitsBeyondAllowance({ models: ["gemini-2.5-flash"], tokensPerDay: 1000 }, allowance),
    ).toEqual([]);
    expect(limitsBeyondAllowance({}, allowance)).toEqual([
      "models: * beyond the allowed gemini-2.5-*",
    ]);
    expect(
      limitsBeyondAllowance({ models: ["gemini-2.0-flash"], tokensPerDay: 5000 }, allowance),
    ).toEqual([
      "models: gemini-2.0-flash beyond the allowed gemini-2.5-*",
      "tokensPerDay: 5000 is more than the allowed 1000",
    ]);
    expect(limitsBeyondAllowance({ tokensPerDay: 5000 }, null)).toEqual([]);
  });

  it("counts spend per UTC day and month", () => {
    expect(spendPeriods(Date.UTC(2025, 0, 31, 23, 59))).toEqual({
      day: "2025-01-31",
      month: "2025-01",
    });
  });
});
