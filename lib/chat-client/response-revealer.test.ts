import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AccumulatedResponse } from "@/lib/studio/accumulate-response";
import { responseTextLength } from "@/lib/studio/accumulate-response";
import {
  createRevealer,
  DEFAULT_PACE,
  MIN_REVEAL_PER_FRAME,
  nextRevealLimit,
} from "./response-revealer";

function textChunk(text: string) {
  return { candidates: [{ index: 0, content: { role: "model", parts: [{ text }] } }] };
}

describe("nextRevealLimit", () => {
  it("follows the measured rate down when a frame is over budget", () => {
    expect(nextRevealLimit(1600, 1600, 48, DEFAULT_PACE)).toBe(400);
  });

  it("never goes below the minimum, however slow the frame", () => {
    expect(nextRevealLimit(1600, 1600, 10_000, DEFAULT_PACE)).toBe(MIN_REVEAL_PER_FRAME);
  });

  it("grows by half when a frame held by the limit was well under budget, up to the maximum", () => {
    expect(nextRevealLimit(1600, 1600, 2, DEFAULT_PACE)).toBe(2400);
    expect(nextRevealLimit(5000, 5000, 2, DEFAULT_PACE)).toBe(DEFAULT_PACE.maxPerFrame);
  });

  it("stays when the frame showed less than the limit or was within budget", () => {
    expect(nextRevealLimit(1600, 300, 1, DEFAULT_PACE)).toBe(1600);
    expect(nextRevealLimit(1600, 1600, 10, DEFAULT_PACE)).toBe(1600);
    expect(nextRevealLimit(1600, 0, 100, DEFAULT_PACE)).toBe(1600);
  });
});

describe("createRevealer", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A revealer whose `show` costs `msPerCharacter` of the given clock per new character. */
  function costlyRevealer(msPerCharacter: number) {
    let clock = 0;
    const steps: number[] = [];
    let last = 0;
    const revealer = createRevealer(
      (response: AccumulatedResponse) => {
        const length = responseTextLength(response);
        steps.push(length - last);
        clock += (length - last) * msPerCharacter;
        last = length;
      },
      DEFAULT_PACE,
      () => clock,
    );
    return { revealer, steps, shown: () => last };
  }

  it("shows a burst in frames that keep within the budget once their cost is known", async () => {
    const { revealer, steps, shown } = costlyRevealer(0.03);
    revealer.add(textChunk("x".repeat(30_000)));
    const finished = revealer.finish();
    while (shown() < 30_000) await vi.advanceTimersByTimeAsync(50);
    await finished;
    // The first frame is shown before anything is measured; every later one is within budget.
    for (const step of steps.slice(1, -1))
      expect(step * 0.03).toBeLessThanOrEqual(DEFAULT_PACE.budgetMs);
    expect(steps.reduce((sum, step) => sum + step, 0)).toBe(30_000);
  });

  it("on cheap frames drains a burst in steps up to the maximum", async () => {
    const { revealer, steps, shown } = costlyRevealer(0.0001);
    revealer.add(textChunk("x".repeat(60_000)));
    while (shown() < 60_000) await vi.advanceTimersByTimeAsync(50);
    expect(Math.max(...steps)).toBe(DEFAULT_PACE.maxPerFrame);
  });
});
