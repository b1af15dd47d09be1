import { describe, expect, it } from "vitest";
import { formatNumber } from "./number-format";

describe("formatNumber", () => {
  it("groups digits in threes as the studio always showed them", () => {
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(999)).toBe("999");
    expect(formatNumber(1_048_576)).toBe("1,048,576");
    expect(formatNumber(-12_345)).toBe("-12,345");
  });

  it("keeps at most three decimals, as toLocaleString('en') does", () => {
    for (const value of [0.5, 1234.5678, 2 / 3, 1e21, Number.NaN])
      expect(formatNumber(value)).toBe(value.toLocaleString("en"));
  });
});
