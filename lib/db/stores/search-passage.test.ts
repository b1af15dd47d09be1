import { describe, expect, it } from "vitest";
import { markedPassage } from "./search-passage";

const marks = { start: "[", end: "]" };

describe("markedPassage", () => {
  it("marks whole words and the last word as a prefix, case and accents folded", () => {
    expect(
      markedPassage("The Lighthouse of Alexandria, and a lighthouse keeper.", ["lighthou"], marks),
    ).toBe("The [Lighthouse] of Alexandria, and a [lighthouse] keeper.");
    expect(markedPassage("Café au lait at the CAFÉ", ["cafe", "au"], marks)).toBe(
      "[Café] [au] lait at the [CAFÉ]",
    );
    expect(markedPassage("zebra done", ["zebra"], marks)).toBe("[zebra] done");
  });

  it("shows a few words before the first match and sixteen in all, with ellipses where the text goes on", () => {
    const words = Array.from({ length: 40 }, (_, index) => `w${index}`);
    words[20] = "needle";
    expect(markedPassage(`${words.join(" ")}.`, ["needle"], marks)).toBe(
      `…w17 w18 w19 [needle] ${words.slice(21, 33).join(" ")}…`,
    );
    expect(markedPassage("needle at the start", ["needle"], marks)).toBe("[needle] at the start");
  });

  it("is null when no word matches (earlier words must match whole)", () => {
    expect(markedPassage("nothing here", ["needle"], marks)).toBeNull();
    expect(markedPassage("lighthouses and more", ["lighthouse", "and"], marks)).toBe(
      "lighthouses [and] more",
    );
    expect(markedPassage("anything", [], marks)).toBeNull();
  });
});
