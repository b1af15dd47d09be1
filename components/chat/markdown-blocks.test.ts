import { describe, expect, it } from "vitest";
import { createBlockCache } from "./block-cache";
import { MAX_BLOCK_CHARACTERS, splitGrowingMarkdown, splitMarkdownBlocks } from "./markdown-blocks";
import { markdownToHast } from "./markdown-processor";

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

/** A document with every construct whose blocks may hold blank lines, and a few that may not. */
const CONSTRUCTS = [
  "# Title",
  "A paragraph\nwith two lines and $x^2$ inline.",
  "    indented code\n\n    after a blank line",
  "```js\nconst a = 1;\n\n\nconst b = 2;\n```",
  "~~~~\n```\nstill code\n\n~~~\n~~~~",
  "$$\n\\begin{aligned}\na &= b\n\n\\\\ c &= d\n\\end{aligned}\n$$",
  "- loose item one\n\n- loose item two\n\n  its second paragraph\n\n- three",
  "1. first\n2. second\n\n3. third, still the same list",
  "- item with code:\n\n  ```py\n  x = 1\n\n  y = 2\n  ```\n- next item",
  "* nested\n  - inner one\n\n  - inner two\n- other bullet, a new list\n\n* back to stars",
  "| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |",
  "Intro line\n| x | y |\n|---|---|\n| 5 | 6 |",
  "> a quote\n>\n> of two paragraphs",
  "Text before\n$$\nE = mc^2\n$$",
  "Last words.",
].join("\n\n");

/** A tree without source positions and the line breaks between top-level blocks. */
function shape(children: readonly unknown[]): string {
  return JSON.stringify(
    children.filter(
      (node) =>
        !(
          (node as { type: string }).type === "text" &&
          (node as { value: string }).value.trim() === ""
        ),
    ),
    (key, value) => (key === "position" ? undefined : value),
  );
}

describe("splitMarkdownBlocks on fences, lists, tables and math", () => {
  it("gives blocks that render, one by one, the tree of the whole text", () => {
    const blocks = splitMarkdownBlocks(CONSTRUCTS);
    // Loose lists, a list's fenced code and multi-line math stay whole.
    expect(blocks).toContain(
      "- loose item one\n\n- loose item two\n\n  its second paragraph\n\n- three",
    );
    expect(blocks).toContain("1. first\n2. second\n\n3. third, still the same list");
    expect(blocks).toContain(
      "- item with code:\n\n  ```py\n  x = 1\n\n  y = 2\n  ```\n- next item",
    );
    expect(blocks).toContain("$$\n\\begin{aligned}\na &= b\n\n\\\\ c &= d\n\\end{aligned}\n$$");
    expect(blocks).toContain("    indented code\n\n    after a blank line");
    const separately = blocks.flatMap((block) => markdownToHast(block).children);
    expect(shape(separately)).toBe(shape(markdownToHast(CONSTRUCTS).children));
  });

  it("splits a growing text as it splits the whole, at every length", () => {
    let split = null;
    for (let end = 1; end <= CONSTRUCTS.length; end += 3) {
      const text = CONSTRUCTS.slice(0, end);
      split = splitGrowingMarkdown(split, text);
      expect(split.blocks).toEqual(splitMarkdownBlocks(text));
    }
  });

  it("never cuts a long list or table, which would render differently in pieces", () => {
    const list = Array.from({ length: 200 }, (_item, index) => `- item number ${index}`).join("\n");
    const table = `| n | square |\n|---|---|\n${Array.from({ length: 300 }, (_row, n) => `| ${n} | ${n * n} |`).join("\n")}`;
    expect(list.length).toBeGreaterThan(MAX_BLOCK_CHARACTERS);
    expect(table.length).toBeGreaterThan(MAX_BLOCK_CHARACTERS);
    expect(splitMarkdownBlocks(`${list}\n\n${table}`)).toEqual([list, table]);
  });
});

describe("rendered blocks kept by their text", () => {
  it("parses a completed block once, however often later text arrives", () => {
    const parsed = new Map<string, number>();
    const cache = createBlockCache((text: string) => {
      parsed.set(text, (parsed.get(text) ?? 0) + 1);
      return markdownToHast(text);
    }, 1_000_000);
    let split = null;
    let frames = 0;
    for (let end = 40; end < CONSTRUCTS.length + 40; end += 40, frames++) {
      const previous = new Set(split?.blocks);
      split = splitGrowingMarkdown(split, CONSTRUCTS.slice(0, end));
      // Every block renders on every frame, as the answer's view asks for them.
      const before = [...parsed.values()].reduce((sum, count) => sum + count, 0);
      for (const block of split.blocks) cache.get(block);
      const after = [...parsed.values()].reduce((sum, count) => sum + count, 0);
      // Only what changed since the last frame is parsed: the growing block and new ones.
      const changed = split.blocks.filter((block) => !previous.has(block));
      expect(after - before).toBe(new Set(changed).size);
      // …which are the last blocks: those before them are the last frame's, unchanged.
      expect(split.blocks.slice(split.blocks.length - changed.length)).toEqual(changed);
    }
    expect(frames).toBeGreaterThan(10);
    for (const block of split!.blocks) expect(parsed.get(block)).toBe(1);
    expect(cache.get(split!.blocks[0]!)).toBe(cache.get(split!.blocks[0]!));
  });

  it("drops the least recently used texts beyond its size", () => {
    let renders = 0;
    const cache = createBlockCache((text: string) => ({ text, render: ++renders }), 10);
    cache.get("aaaa");
    cache.get("bbbb");
    cache.get("aaaa");
    cache.get("cccc"); // 12 characters: "bbbb", the least recently used, goes
    expect(cache.peek("bbbb")).toBeUndefined();
    expect(cache.get("aaaa").render).toBe(1);
    expect(cache.get("bbbb").render).toBe(4);
    expect(cache.peek("never")).toBeUndefined();
    expect(cache.get("never").render).toBe(5);
  });
});
