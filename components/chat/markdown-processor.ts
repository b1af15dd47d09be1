/**
 * Markdown to HTML syntax trees (hast) with one processor built and frozen once for every block
 * of every answer: GFM (tables, task lists, strikethrough) and TeX math ($…$ and $$…$$, as
 * remark-math reads them). The trees are those react-markdown renders (the same plugins, raw
 * HTML shown as its text, link and image addresses through its URL filter); building the
 * processor per block, as react-markdown does per render, was a tenth of a streamed answer's
 * markdown time.
 */
import type { Element, ElementContent, Root as HastRoot } from "hast";
import type { Code, Root as MdastRoot } from "mdast";
import { defaultUrlTransform } from "react-markdown";
import { urlAttributes } from "html-url-attributes";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { VFile } from "vfile";

/** Property a fenced code block's `<code>` element carries while its closing fence is missing. */
export const OPEN_FENCE_PROPERTY = "dataOpenFence";

const OPENING_FENCE = /^\s*(`{3,}|~{3,})/;

/** Whether a fenced block's source (container prefixes included) ends with its closing fence. */
function fenceClosed(source: string): boolean {
  const opening = OPENING_FENCE.exec(source)?.[1];
  if (!opening) return true; // indented code has no fence to wait for
  const lastBreak = source.lastIndexOf("\n");
  if (lastBreak < 0) return false;
  const last = source
    .slice(lastBreak + 1)
    .replace(/^[\s>]*/, "")
    .trimEnd();
  return (
    last.length >= opening.length &&
    last[0] === opening[0] &&
    /^(`+|~+)$/.test(last) &&
    !last.includes(opening[0] === "`" ? "~" : "`")
  );
}

/**
 * Marks fenced code whose closing fence has not arrived yet (a block still streaming), so its
 * view can show plain text until it closes instead of highlighting it again every frame.
 */
function markOpenFences() {
  return (tree: MdastRoot, file: VFile) => {
    const source = String(file.value);
    visit(tree, "code", (node: Code) => {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start === undefined || end === undefined || fenceClosed(source.slice(start, end))) return;
      node.data = {
        ...node.data,
        hProperties: { ...node.data?.hProperties, [OPEN_FENCE_PROPERTY]: true },
      };
    });
  };
}

// Models write inline TeX as $…$ (and display as $$…$$), so single dollars are math, as in
// remark-math's default; a "$" meant as money is written \$ by models that also write TeX.
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkMath)
  .use(markOpenFences)
  .use(remarkRehype, { allowDangerousHtml: true })
  .freeze();

/** What react-markdown does to a tree before rendering it: raw HTML as text, addresses filtered. */
function sanitise(tree: HastRoot): void {
  visit(tree, (node, index, parent) => {
    if (node.type === "raw" && parent && typeof index === "number") {
      parent.children[index] = { type: "text", value: node.value };
      return index;
    }
    if (node.type !== "element") return;
    const element = node as Element;
    for (const [key, tags] of Object.entries(urlAttributes)) {
      if (!Object.hasOwn(element.properties, key)) continue;
      if (tags === null || tags.includes(element.tagName))
        element.properties[key] = defaultUrlTransform(String(element.properties[key] || ""));
    }
  });
}

/** The HTML syntax tree of a markdown text, ready to render. */
export function markdownToHast(markdown: string): HastRoot {
  const file = new VFile(markdown);
  const tree = processor.runSync(processor.parse(file), file);
  sanitise(tree);
  return tree;
}

/** A TeX formula of an answer: `$…$` inline, `$$…$$` display. */
export interface Formula {
  tex: string;
  display: boolean;
}

/**
 * The formula a `<code>` element holds, from its class (remark-math marks `$…$` math-inline and
 * `$$…$$` math-display) and its text; null for code that is not math.
 */
export function formulaOf(className: string, text: string): Formula | null {
  if (className.includes("math-inline")) return { tex: text, display: false };
  if (className.includes("math-display")) return { tex: text.replace(/\n$/, ""), display: true };
  return null;
}

function textOfNodes(nodes: readonly ElementContent[]): string {
  return nodes
    .map((node) =>
      node.type === "text" ? node.value : node.type === "element" ? textOfNodes(node.children) : "",
    )
    .join("");
}

/** The formulas of a tree, as its `<code>` elements render them. */
export function formulasOf(tree: HastRoot): Formula[] {
  const formulas: Formula[] = [];
  visit(tree, "element", (element: Element) => {
    if (element.tagName !== "code") return;
    const { className } = element.properties;
    const classes = Array.isArray(className) ? className.join(" ") : String(className ?? "");
    const formula = formulaOf(classes, textOfNodes(element.children));
    if (formula) formulas.push(formula);
  });
  return formulas;
}
