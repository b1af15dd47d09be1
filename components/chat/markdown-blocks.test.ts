import { describe, expect, it } from "vitest";
import { MAX_BLOCK_CHARACTERS, splitGrowingMarkdown, splitMarkdownBlocks } from "./markdown-blocks";

describe("splitMarkdownBlocks", () => {
  it("splits at blank lines and keeps fenced code whole", () => {
    const text =
      "# Title\n\nA paragraph\nwith two lines.\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- two";
    expect(splitMarkdownBlocks(text)).toEqual([
      "# Title",
      "A paragraph\nwith two lines.",
      "```js\nconst a = 1;\n\nconst b = 2;\n```",
      "| a | b |\n|---|---|\n| 1 | 2 |",
      "- one\n- two",
    ]);
  });

  it("keeps an unclosed fence (still streaming) as one block", () => {
    expect(splitMarkdownBlocks("Intro\n\n```py\nx = 1\n\ny = 2")).toEqual([
      "Intro",
      "```py\nx = 1\n\ny = 2",
    ]);
  });

  it("earlier blocks do not change while text is appended", () => {
    const full = "First paragraph.\n\nSecond paragraph grows";
    const before = splitMarkdownBlocks(full);
    const after = splitMarkdownBlocks(`${full} longer\n\nThird`);
    expect(after[0]).toBe(before[0]);
    expect(after).toHaveLength(3);
  });

  it("cuts an endless paragraph into bounded blocks without losing text", () => {
    const sentence = "The quick brown fox jumps over the lazy dog. ";
    const text = sentence.repeat(400);
    const blocks = splitMarkdownBlocks(text);
    expect(blocks.length).toBeGreaterThan(4);
    for (const block of blocks) expect(block.length).toBeLessThanOrEqual(MAX_BLOCK_CHARACTERS);
    expect(blocks.join(" ").replace(/\s+/g, " ").trim()).toBe(text.replace(/\s+/g, " ").trim());
  });
});

describe("splitGrowingMarkdown", () => {
  it("gives the blocks of a whole split at every step of a growing text", () => {
    const document = [
      "# Harbours",
      "A paragraph\nof two lines.",
      "```ts\nconst a = 1;\n\nconst b = 2;\n```",
      "| a | b |\n|---|---|\n| 1 | 2 |",
      "- one\n- two",
      "The quick brown fox jumps over the lazy dog. ".repeat(150),
      "~~~\nfenced\n\n~~~",
      "Last words.",
    ].join("\n\n");
    let split = null;
    for (let end = 1; end <= document.length; end += 7) {
      const text = document.slice(0, end);
      split = splitGrowingMarkdown(split, text);
      expect(split.blocks).toEqual(splitMarkdownBlocks(text));
    }
    // A text that does not extend the last one is split afresh.
    expect(splitGrowingMarkdown(split, "Other").blocks).toEqual(["Other"]);
  });
});
