import type { Element } from "hast";
import { toJsxRuntime } from "hast-util-to-jsx-runtime";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { describe, expect, it } from "vitest";
import { formulasOf, markdownToHast, OPEN_FENCE_PROPERTY } from "./markdown-processor";

const DOCUMENT = [
  "# Title",
  "A paragraph with **bold**, *emphasis*, `code`, $x^2$ and ~~struck~~ text.[^1]",
  "```js\nconst a = 1;\n\nconst b = 2;\n```",
  "$$\nE = mc^2\n$$",
  "- [x] done\n- [ ] open\n  1. nested",
  "| a | b |\n|---|:-:|\n| 1 | 2 |",
  "> a quote",
  '<div onclick="x()">raw</div> and [x](javascript:alert(1)), [y](https://example.com "t")',
  '![img](https://example.com/a.png "t")',
  "[^1]: A note.",
].join("\n\n");

describe("formulasOf", () => {
  it("finds a tree's inline and display formulas with their TeX, not its code", () => {
    const markdown = [
      "Load $L_1 = a$ and $b$, with `c` and ~~d~~.",
      "$$\n\\int_0^1 x\\,dx\n$$",
      "```ts\nconst e = 1;\n```",
      "- $f$ in a list",
    ].join("\n\n");
    expect(formulasOf(markdownToHast(markdown))).toEqual([
      { tex: "L_1 = a", display: false },
      { tex: "b", display: false },
      { tex: "\\int_0^1 x\\,dx", display: true },
      { tex: "f", display: false },
    ]);
  });
});

describe("markdownToHast", () => {
  it("marks fenced code whose closing fence has not arrived", () => {
    const code = (markdown: string) =>
      (markdownToHast(markdown).children[0] as Element).children[0] as Element;
    expect(code("```ts\nconst a = 1;").properties[OPEN_FENCE_PROPERTY]).toBe(true);
    expect(code("```ts\nconst a = 1;\n``").properties[OPEN_FENCE_PROPERTY]).toBe(true);
    expect(code("```ts\nconst a = 1;\n```").properties[OPEN_FENCE_PROPERTY]).toBeUndefined();
    expect(code("~~~\nx\n~~~~").properties[OPEN_FENCE_PROPERTY]).toBeUndefined();
    expect(code("    indented").properties[OPEN_FENCE_PROPERTY]).toBeUndefined();
  });

  it("gives the HTML react-markdown gives with the same plugins", () => {
    const ours = renderToStaticMarkup(
      toJsxRuntime(markdownToHast(DOCUMENT), {
        Fragment,
        jsx,
        jsxs,
        passKeys: true,
        ignoreInvalidStyle: true,
      }),
    );
    const theirs = renderToStaticMarkup(
      createElement(Markdown, { remarkPlugins: [remarkGfm, remarkMath] }, DOCUMENT),
    );
    expect(ours).toContain("<table>");
    expect(ours).toBe(theirs);
  });

  it("shows raw HTML as text and drops unsafe link addresses, as react-markdown does", () => {
    const tree = markdownToHast(
      '<b>bold</b> [x](javascript:alert(1)) [y](https://example.com "t")',
    );
    const paragraph = tree.children[0] as Element;
    expect(paragraph.children[0]).toEqual(expect.objectContaining({ type: "text", value: "<b>" }));
    const links = paragraph.children.filter(
      (node): node is Element => node.type === "element" && node.tagName === "a",
    );
    expect(links.map((link) => link.properties.href)).toEqual(["", "https://example.com"]);
  });
});
