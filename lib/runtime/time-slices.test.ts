import { describe, expect, it } from "vitest";
import { runInSlices, TimeSlices } from "./time-slices";

/** A slicer whose slice is always used up: every pause waits for its turn. */
class EverySlice extends TimeSlices {
  override due(): boolean {
    return true;
  }
}

/** Counts turns of the event loop: a setImmediate that schedules itself runs once per turn. */
function turnCounter(): { turn(): number; stop(): void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turn += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    turn: () => turn,
    stop: () => {
      running = false;
    },
  };
}

describe("TimeSlices", () => {
  it("lets one slice run per turn of the event loop, however many slicers wait", async () => {
    const turns = turnCounter();
    const resumed: { slicer: number; turn: number }[] = [];
    await Promise.all(
      [0, 1, 2].map(async (slicer) => {
        const slices = new EverySlice();
        for (let step = 0; step < 20; step++) {
          await slices.pause();
          resumed.push({ slicer, turn: turns.turn() });
        }
      }),
    );
    turns.stop();
    expect(resumed).toHaveLength(60);
    // Each slicer's resumption came in a turn of its own: no turn ran two slices.
    expect(new Set(resumed.map((entry) => entry.turn)).size).toBe(60);
    // And they took turns, oldest waiter first.
    expect(resumed.slice(0, 6).map((entry) => entry.slicer)).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it("runs a generator to its end in slices and returns its result", async () => {
    function* steps(): Generator<void, number, void> {
      let sum = 0;
      for (let index = 0; index < 1000; index++) {
        sum += index;
        yield;
      }
      return sum;
    }
    expect(await runInSlices(steps())).toBe(499_500);
    const turns = turnCounter();
    expect(await runInSlices(steps(), new EverySlice())).toBe(499_500);
    turns.stop();
    // The clock is looked at every 64 steps: a pause (here always due) at each look.
    expect(turns.turn()).toBeGreaterThanOrEqual(15);
  });
});
