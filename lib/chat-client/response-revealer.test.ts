import { afterEach, describe, expect, it } from "vitest";
import { responseTextLength } from "@/lib/studio/accumulate-response";
import { createRevealer, prepareReceivedText } from "./response-revealer";

const removals: (() => void)[] = [];
afterEach(() => removals.splice(0).forEach((remove) => remove()));

function chunk(text: string) {
  return { candidates: [{ index: 0, content: { role: "model", parts: [{ text }] } }] };
}

describe("createRevealer", () => {
  it("hands what was received to the preparers in the task that received it, before any frame", async () => {
    const prepared: string[][] = [];
    const sources = new Set<object>();
    removals.push(
      prepareReceivedText((texts, source) => {
        prepared.push([...texts]);
        sources.add(source);
      }),
    );
    const shown: number[] = [];
    const revealer = createRevealer((response) => shown.push(responseTextLength(response)), 10, 10);
    revealer.add(chunk("a".repeat(60)));
    revealer.add(chunk("b".repeat(40)));
    await Promise.resolve();
    // Prepared once for both chunks, with the whole text, in the task that received them:
    // before any frame showed anything.
    expect(prepared).toEqual([["a".repeat(60) + "b".repeat(40)]]);
    expect(shown).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(prepared).toHaveLength(1);
    expect(Math.max(0, ...shown)).toBeLessThanOrEqual(10);
    // A second revealer (a response shown beside the first) is a source of its own.
    const beside = createRevealer(() => {}, 10, 10);
    beside.add(chunk("c"));
    revealer.add(chunk("d"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(prepared.slice(1)).toEqual(
      expect.arrayContaining([["c"], ["a".repeat(60) + "b".repeat(40) + "d"]]),
    );
    expect(sources.size).toBe(2);
    await revealer.finish();
    expect(shown.at(-1)).toBe(101);
    revealer.cancel();
    beside.cancel();
  });
});
