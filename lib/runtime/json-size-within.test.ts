// jsonSizeWithin: an estimate of a JSON value's text that stops as soon as the budget is spent.
import { describe, expect, it } from "vitest";
import { jsonSizeWithin, plainJsonSizeWithin } from "./json-size-within";

describe("jsonSizeWithin", () => {
  it("takes a value whose text fits and refuses one that does not", () => {
    const value = { name: "tool", tags: ["a", "b"], nested: { limit: 3, ok: true } };
    expect(jsonSizeWithin(value, JSON.stringify(value).length * 2)).toBe(true);
    expect(jsonSizeWithin(value, 10)).toBe(false);
  });

  it("refuses a huge array at its length, before its elements", () => {
    const huge = Array.from({ length: 1_000_000 }, (_, index) => ({ index }));
    expect(jsonSizeWithin(huge, 1_000)).toBe(false);
    expect(jsonSizeWithin([huge], 1_000)).toBe(false);
  });
});

describe("plainJsonSizeWithin", () => {
  it("takes plain data that fits, undefined fields included", () => {
    const value = {
      totalTokens: 12,
      details: [{ modality: "TEXT", tokenCount: 12 }],
      extra: undefined,
    };
    expect(plainJsonSizeWithin(value, 1_000)).toBe(true);
    expect(plainJsonSizeWithin(value, 10)).toBe(false);
  });

  it("refuses what its estimate cannot see: typed arrays, toJSON, class instances, functions", () => {
    expect(plainJsonSizeWithin({ values: new Float64Array(4) }, 1_000)).toBe(false);
    expect(plainJsonSizeWithin([{ toJSON: () => "x" }], 1_000)).toBe(false);
    expect(plainJsonSizeWithin({ at: new Date(0) }, 1_000)).toBe(false);
    expect(plainJsonSizeWithin({ call: () => 1 }, 1_000)).toBe(false);
    expect(plainJsonSizeWithin(Object.create(null), 1_000)).toBe(true);
  });
});
