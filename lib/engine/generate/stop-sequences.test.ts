import { describe, expect, it } from "vitest";
import { StopSequenceFilter } from "./stop-sequences";

function run(sequences: string[], pieces: string[]): { text: string; stopped: boolean } {
  const filter = new StopSequenceFilter(sequences);
  let text = "";
  for (const piece of pieces) {
    const result = filter.push(piece);
    text += result.emit;
    if (result.stopped) return { text, stopped: true };
  }
  return { text: text + filter.flush(), stopped: false };
}

describe("StopSequenceFilter", () => {
  it("cuts at a sequence inside one piece and leaves it out", () => {
    expect(run(["END"], ["hello END world"])).toEqual({ text: "hello ", stopped: true });
  });

  it("catches a sequence split across pieces", () => {
    expect(run(["STOP"], ["one tw", "o S", "TO", "P three"])).toEqual({
      text: "one two ",
      stopped: true,
    });
  });

  it("holds back a possible prefix, then releases it when it is not a stop", () => {
    const filter = new StopSequenceFilter(["abc"]);
    expect(filter.push("xxab")).toEqual({ emit: "xx", stopped: false });
    expect(filter.push("d")).toEqual({ emit: "abd", stopped: false });
  });

  it("picks the earliest of several sequences", () => {
    expect(run(["world", "lo"], ["hello world"])).toEqual({ text: "hel", stopped: true });
  });

  it("flushes held text at the natural end", () => {
    expect(run(["xyz"], ["abc x"])).toEqual({ text: "abc x", stopped: false });
  });

  it("passes everything through without sequences", () => {
    expect(run([], ["a", "b"])).toEqual({ text: "ab", stopped: false });
  });
});
