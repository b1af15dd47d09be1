import { describe, expect, it } from "vitest";
import { Distribution } from "./language-model";
import { SeededRandom } from "./random";
import { sampleToken, type SamplingSettings } from "./sampler";

const END = 999;

function distribution(entries: [number, number][]): Distribution {
  const result = new Distribution(4);
  for (const [id, probability] of entries) result.push(id, probability);
  return result;
}

const BASE: SamplingSettings = { temperature: 1, topP: 1, presencePenalty: 0, frequencyPenalty: 0 };

function frequencies(
  settings: Partial<SamplingSettings>,
  counts = new Map<number, number>(),
  draws = 4000,
): Map<number, number> {
  const source = distribution([
    [1, 0.5],
    [2, 0.3],
    [3, 0.15],
    [4, 0.05],
  ]);
  const random = new SeededRandom(7);
  const result = new Map<number, number>();
  for (let draw = 0; draw < draws; draw++) {
    const token = sampleToken(source, { ...BASE, ...settings }, random, counts, { endId: END })!;
    result.set(token.id, (result.get(token.id) ?? 0) + 1 / draws);
  }
  return result;
}

describe("sampleToken", () => {
  it("samples in proportion to the probabilities at temperature 1", () => {
    const seen = frequencies({});
    expect(seen.get(1)).toBeCloseTo(0.5, 1);
    expect(seen.get(2)).toBeCloseTo(0.3, 1);
    expect(seen.get(4)).toBeCloseTo(0.05, 1);
  });

  it("is greedy at temperature 0", () => {
    expect([...frequencies({ temperature: 0 }, new Map(), 50).keys()]).toEqual([1]);
  });

  it("tends to greedy as the temperature tends to 0, down to the smallest double", () => {
    for (const temperature of [1e-3, 1e-300, 2.5e-323, Number.MIN_VALUE]) {
      expect(
        [...frequencies({ temperature }, new Map(), 50).keys()],
        `temperature ${temperature}`,
      ).toEqual([1]);
      expect(
        [...frequencies({ temperature, topP: 0.5 }, new Map(), 50).keys()],
        `temperature ${temperature}, topP 0.5`,
      ).toEqual([1]);
    }
  });

  it("keeps only topK tokens and the topP nucleus", () => {
    expect([...frequencies({ topK: 2 }).keys()].sort()).toEqual([1, 2]);
    expect([...frequencies({ topP: 0.75 }).keys()].sort()).toEqual([1, 2]);
  });

  it("flattens with a high temperature and sharpens with a low one", () => {
    expect(frequencies({ temperature: 2 }).get(4)!).toBeGreaterThan(0.08);
    expect(frequencies({ temperature: 0.3 }).get(1)!).toBeGreaterThan(0.8);
  });

  it("applies the presence penalty once a token appeared, the frequency penalty per appearance", () => {
    const counts = new Map([[1, 3]]);
    const presence = frequencies({ presencePenalty: 1 }, counts).get(1)!;
    // exp(-1) scales token 1: 0.5e^-1 / (0.5e^-1 + 0.5) ≈ 0.27
    expect(presence).toBeCloseTo(0.27, 1);
    const frequency = frequencies({ frequencyPenalty: 0.5 }, counts).get(1)!;
    // exp(-1.5): ≈ 0.18
    expect(frequency).toBeCloseTo(0.18, 1);
    expect(frequencies({ presencePenalty: -1 }, counts).get(1)!).toBeGreaterThan(0.65);
  });

  it("reports the model's log probabilities, renormalised over allowed tokens", () => {
    const source = distribution([
      [1, 0.4],
      [2, 0.4],
      [END, 0.2],
    ]);
    const token = sampleToken(source, { ...BASE, temperature: 0 }, new SeededRandom(1), new Map(), {
      endId: END,
      topLogprobs: 3,
    })!;
    expect(token.logProbability).toBeCloseTo(Math.log(0.4));
    expect(token.top.map((entry) => entry.id)).toEqual([1, 2, END]);
    const constrained = sampleToken(
      source,
      { ...BASE, temperature: 0 },
      new SeededRandom(1),
      new Map(),
      { endId: END, topLogprobs: 3, allow: (id) => id !== 2 },
    )!;
    expect(constrained.logProbability).toBeCloseTo(Math.log(0.4 / 0.6));
    expect(constrained.top.map((entry) => entry.id)).toEqual([1, END]);
  });

  it("repeats the same draws for the same seed", () => {
    const source = distribution([
      [1, 0.25],
      [2, 0.25],
      [3, 0.25],
      [4, 0.25],
    ]);
    const draw = (seed: number) => {
      const random = new SeededRandom(seed);
      return Array.from(
        { length: 20 },
        () => sampleToken(source, BASE, random, new Map(), { endId: END })!.id,
      ).join(",");
    };
    expect(draw(5)).toBe(draw(5));
    expect(draw(5)).not.toBe(draw(6));
  });
});
