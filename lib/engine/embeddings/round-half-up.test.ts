import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundHalfUp } from "./round-half-up";

const LIMIT = 2 ** 50;

describe("roundHalfUp", () => {
  it("is Math.round on the values where Math.floor(value + 0.5) is not", () => {
    for (const value of [
      0.49999999999999994,
      -0.49999999999999994,
      0.5,
      -0.5,
      1.5,
      -1.5,
      2.5,
      -2.5,
      -0,
      0,
      -0.3,
      0.3,
      -1e-300,
      1e-300,
      LIMIT - 0.5,
      -(LIMIT - 0.5),
      LIMIT - 1.5,
      4503599627370495.5,
    ].filter((value) => Math.abs(value) < LIMIT))
      expect(Object.is(roundHalfUp(value), Math.round(value)), String(value)).toBe(true);
  });

  it("is Math.round on any value below 2^50, sign of zero included", () => {
    const anyDouble = fc.double({ min: -LIMIT, max: LIMIT, noNaN: true });
    const halves = fc.integer({ min: -1e9, max: 1e9 }).map((whole) => whole + 0.5);
    // A projection's value times 1e9, as the engine rounds it.
    const units = fc.double({ min: -1, max: 1, noNaN: true }).map((value) => value * 1e9);
    fc.assert(
      fc.property(fc.oneof(anyDouble, halves, units), (value) => {
        expect(Object.is(roundHalfUp(value), Math.round(value))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it("tells a wrong rounding apart", () => {
    expect(roundHalfUp(2.5)).toBe(3);
    expect(roundHalfUp(-2.5)).toBe(-2);
    expect(roundHalfUp(0.49999999999999994)).toBe(0);
    expect(Object.is(roundHalfUp(-0.25), -0)).toBe(true);
  });
});
