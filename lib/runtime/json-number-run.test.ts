import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_NUMBER_RUN_BYTES, numberRunText, writeBillionthsRun } from "./json-number-run";

/** The run's text as the JSON array JSON.stringify would write. */
function asArray(items: readonly unknown[]): string {
  return `[${numberRunText(items, 0, items.length).text}]`;
}

describe("numberRunText", () => {
  it("writes each number as JSON.stringify does, at the edges of the integer path", () => {
    const values = [
      0,
      -0,
      1,
      -1,
      0.5,
      1e-6,
      9.99e-7,
      1e-7,
      1.05e-7,
      1.5e-9,
      -1e-9,
      1e-10,
      0.000001234,
      0.012345678,
      -0.001,
      123,
      1_234_567,
      999_999.999999999,
      -123_456.123456789,
      1e15,
      1e21,
      2 ** 53,
      0.1 + 0.2,
      Math.PI,
      5e-324,
      Number.MAX_VALUE,
      NaN,
      Infinity,
      -Infinity,
    ];
    expect(asArray(values)).toBe(JSON.stringify(values));
  });

  it("writes what JSON.stringify writes for doubles of any kind and vector values", () => {
    const vectorValue = fc
      .integer({ min: -1_000_000_000, max: 1_000_000_000 })
      .map((units) => units / 1e9);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double(), vectorValue, fc.integer()), { maxLength: 300 }),
        (values) => {
          expect(asArray(values)).toBe(JSON.stringify(values));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("stops at the first item that is not a number, and at the limit", () => {
    expect(numberRunText([1, 2, "x", 3], 0, 4)).toEqual({ text: "1,2", end: 2 });
    expect(numberRunText([1, 2, 3, 4], 1, 3)).toEqual({ text: ",2,3", end: 3 });
    expect(numberRunText([null], 0, 1)).toEqual({ text: "", end: 0 });
  });
});

describe("writeBillionthsRun", () => {
  const written = (billionths: number[]) => {
    const target = Buffer.alloc(billionths.length * MAX_NUMBER_RUN_BYTES);
    const end = writeBillionthsRun(target, 0, Int32Array.from(billionths), 0, billionths.length);
    return `[${target.toString("latin1", 0, end)}]`;
  };

  it("writes each value (billionths / 1e9) as JSON.stringify does, at the edges", () => {
    const edges = [
      0,
      1,
      -1,
      7,
      999,
      -999,
      1000,
      -1000,
      1001,
      10_000,
      100_000_000,
      123_456_789,
      -123_456_789,
      999_999_999,
      1e9,
      -1e9,
      1e9 + 1,
      2 ** 31 - 1,
      -(2 ** 31),
      12_345_678,
      500_000_000,
    ];
    expect(written(edges)).toBe(JSON.stringify(edges.map((unit) => unit / 1e9)));
    expect(written([12_345_678])).toBe("[0.012345678]");
    expect(written([-125])).toBe("[-1.25e-7]");
  });

  it("writes any int32 of billionths as JSON.stringify writes its value", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), (billionths) => {
        expect(written(billionths)).toBe(JSON.stringify(billionths.map((unit) => unit / 1e9)));
      }),
      { numRuns: 2_000 },
    );
  });
});
