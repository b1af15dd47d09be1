"use client";

import {
  memo,
  useEffect,
  useMemo,
  useState,
  type ComponentPropsWithoutRef,
  type ReactNode,
} from "react";
import type { Element } from "hast";
import { toJsxRuntime } from "hast-util-to-jsx-runtime";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";
import type { Components } from "react-markdown";
import { CopyButton } from "@/components/ui/copy-button";
import { prepareReceivedText } from "@/lib/chat-client/response-revealer";
import { createBlockCache } from "./block-cache";
import { splitGrowingMarkdown, type BlockSplit } from "./markdown-blocks";
import { formulaOf, formulasOf, markdownToHast, OPEN_FENCE_PROPERTY } from "./markdown-processor";
import { MathFormula, typesetAhead } from "./math-formula";
import { MermaidDiagram } from "./mermaid-diagram";
import "./code-theme.css";

type Highlighter = (code: string, language: string | undefined) => string;
let highlighter: Highlighter | null = null;
let highlighterLoad: Promise<Highlighter> | null = null;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Compiles grammars while the page is idle, one per idle callback. */
function compileWhenIdle(names: readonly string[], compile: (name: string) => void): void {
  const [name, ...rest] = names;
  if (name === undefined || typeof requestIdleCallback !== "function") return;
  requestIdleCallback(() => {
    compile(name);
    compileWhenIdle(rest, compile);
  });
}

function loadHighlighter(): Promise<Highlighter> {
  highlighterLoad ??= import("./highlight").then((module) => {
    compileWhenIdle(module.LANGUAGE_NAMES, module.compileLanguage);
    return (highlighter = module.highlightCode);
  });
  return highlighterLoad;
}

/**
 * Loads highlight.js when the browser is idle after the page appeared: it stays out of the
 * first load, and is ready, its grammars compiled, before an answer's first code block streams
 * in.
 */
export function preloadHighlighter(): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(() => void loadHighlighter(), { timeout: 3000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(() => void loadHighlighter(), 1500);
  return () => clearTimeout(timer);
}

function useHighlighterLoaded(): Highlighter | null {
  const [, setLoaded] = useState(highlighter !== null);
  useEffect(() => {
    if (highlighter) return;
    let live = true;
    void loadHighlighter().then(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, []);
  return highlighter;
}

/**
 * Highlighted HTML of a code block. Until highlight.js is loaded (see preloadHighlighter) the
 * code shows as plain text. A block whose closing fence has not arrived (still streaming) shows
 * as plain text too, and is highlighted once the browser is idle with its text unchanged: while
 * an answer streams, a growing block is not highlighted again, whole, every frame.
 */
function useHighlighted(code: string, language: string | undefined, open: boolean): string {
  const ready = useHighlighterLoaded();
  const [idle, setIdle] = useState<{ code: string; language?: string; html: string } | null>(null);
  useEffect(() => {
    if (!open || !ready) return;
    const highlight = () => setIdle({ code, language, html: ready(code, language) });
    if (typeof requestIdleCallback !== "function") {
      const timer = setTimeout(highlight, 200);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(highlight);
    return () => cancelIdleCallback(handle);
  }, [open, ready, code, language]);
  return useMemo(() => {
    if (!ready) return escapeHtml(code);
    if (!open) return ready(code, language);
    return idle?.code === code && idle.language === language ? idle.html : escapeHtml(code);
  }, [ready, open, idle, code, language]);
}

function CodeBlock({ code, language, open }: { code: string; language?: string; open: boolean }) {
  const html = useHighlighted(code, language, open);
  return (
    <figure className="chat-code my-2 overflow-hidden rounded-md border border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900">
      <figcaption className="flex items-center justify-between border-b border-zinc-200 px-2 py-0.5 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
        <span>{language || "text"}</span>
        <CopyButton text={code} label={`Copy ${language || "code"}`} />
      </figcaption>
      <pre className="overflow-x-auto p-3 text-[13px] leading-5" tabIndex={0}>
        <code className="font-mono" dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
    </figure>
  );
}

function textOf(children: ReactNode): string {
  if (typeof children === "string") return children;
  if (Array.isArray(children)) return children.map(textOf).join("");
  return "";
}

const COMPONENTS: Components = {
  pre: ({ children }) => <>{children}</>,
  code: ({
    className,
    children,
    ...props
  }: ComponentPropsWithoutRef<"code"> & { node?: Element }) => {
    const language = /language-([\w+#-]+)/.exec(className ?? "")?.[1];
    const text = textOf(children);
    const formula = formulaOf(className ?? "", text);
    if (formula) return <MathFormula tex={formula.tex} display={formula.display} />;
    if (language === "mermaid") return <MermaidDiagram source={text.replace(/\n$/, "")} />;
    const block = language !== undefined || text.includes("\n");
    if (!block) {
      const { node: _node, ...rest } = props;
      return (
        <code
          className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.9em] dark:bg-zinc-800"
          {...rest}
        >
          {children}
        </code>
      );
    }
    return (
      <CodeBlock
        code={text.replace(/\n$/, "")}
        language={language}
        open={props.node?.properties[OPEN_FENCE_PROPERTY] === true}
      />
    );
  },
  a: ({ href, children }) => (
    <a
      href={href}
      target="_blank"
      rel="noreferrer noopener"
      className="text-blue-700 underline dark:text-blue-400"
    >
      {children}
    </a>
  ),
  table: ({ children }) => (
    <div className="my-2 overflow-x-auto">
      <table className="border-collapse text-sm">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th
      style={style}
      className="border border-zinc-300 bg-zinc-100 px-2 py-1 text-left font-medium dark:border-zinc-700 dark:bg-zinc-800"
    >
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border border-zinc-300 px-2 py-1 dark:border-zinc-700">
      {children}
    </td>
  ),
  ul: ({ children }) => <ul className="my-1 list-disc pl-6">{children}</ul>,
  ol: ({ children, start }) => (
    <ol start={start} className="my-1 list-decimal pl-6">
      {children}
    </ol>
  ),
  p: ({ children }) => <p className="my-1.5 whitespace-pre-wrap break-words">{children}</p>,
  // Answer headings sit below the page's own (h1 page, h2 conversation).
  h1: ({ children }) => <h3 className="mt-3 mb-1 text-lg font-semibold">{children}</h3>,
  h2: ({ children }) => <h4 className="mt-3 mb-1 text-base font-semibold">{children}</h4>,
  h3: ({ children }) => <h5 className="mt-2 mb-1 font-semibold">{children}</h5>,
  blockquote: ({ children }) => (
    <blockquote className="my-2 border-l-4 border-zinc-300 pl-3 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
      {children}
    </blockquote>
  ),
};

/**
 * A block that is one `$$…$$` on a line is display math, as models write it (remark-math reads
 * display math only between `$$` lines): rewritten to that form.
 */
function asDisplayMath(block: string): string {
  const match = /^\$\$([^$]+)\$\$$/.exec(block.trim());
  return match ? `$$\n${match[1]!.trim()}\n$$` : block;
}

/**
 * A markdown text's React elements (its components run when React renders them). A complete
 * block's formulas are typeset here too, so a block rendered ahead of its frame leaves the frame
 * no typesetting; the growing last block's are not kept (their TeX may still change).
 */
function renderMarkdown(markdown: string, complete: boolean): ReactNode {
  const tree = markdownToHast(markdown);
  if (complete) for (const { tex, display } of formulasOf(tree)) typesetAhead(tex, display);
  return toJsxRuntime(tree, {
    Fragment,
    jsx,
    jsxs,
    components: COMPONENTS,
    ignoreInvalidStyle: true,
    passKeys: true,
    passNode: true,
  });
}

/**
 * Rendered blocks by their text: a block is parsed once, not again on every render around it.
 * The texts a growing last block passes through are not kept (see MarkdownBlock).
 */
const renderedBlocks = createBlockCache((text) => renderMarkdown(text, true), 500_000);

/**
 * Characters of complete blocks rendered ahead per task: a burst (many chunks read in one task,
 * a snapshot when joining) is spread over tasks of its own.
 */
const AHEAD_CHARACTERS_PER_TASK = 1000;

/** A text part of a response being received: its split, and its blocks rendered ahead so far. */
interface ReceivedPart {
  split: BlockSplit;
  rendered: number;
}

/** The parts of each response being received, by the revealer showing it. */
const receivedParts = new WeakMap<object, ReceivedPart[]>();
/** Responses with complete blocks not yet rendered. */
const pending = new Set<ReceivedPart[]>();
/** Characters rendered ahead since the last task boundary (the next-task timer resets it). */
let spent = 0;
let nextTaskScheduled = false;

/** A task after this one: the budget starts again, and what is left is rendered. */
function continueInNextTask(): void {
  if (nextTaskScheduled) return;
  nextTaskScheduled = true;
  setTimeout(() => {
    nextTaskScheduled = false;
    spent = 0;
    renderAhead();
  }, 0);
}

function renderAhead(): void {
  for (const parts of pending) {
    for (const part of parts) {
      const complete = part.split.blocks.length - part.split.tailBlocks;
      while (part.rendered < complete) {
        if (spent >= AHEAD_CHARACTERS_PER_TASK) return;
        const block = part.split.blocks[part.rendered++]!;
        renderedBlocks.get(asDisplayMath(block));
        spent += block.length;
        continueInNextTask();
      }
    }
    pending.delete(parts);
  }
}

/**
 * Renders the blocks of a streamed answer that are complete as soon as their text is received
 * (up to 1,000 characters in the task that received them, whatever its number of chunks; any
 * more in tasks of their own),
 * so the frame that shows them finds them kept and only lays them out. The growing last block
 * is left to the frame.
 */
function renderCompletedBlocks(texts: readonly string[], source: object): void {
  const parts = receivedParts.get(source) ?? [];
  texts.forEach((text, position) => {
    const previous = parts[position];
    const split = splitGrowingMarkdown(previous?.split ?? null, text);
    const extended = previous !== undefined && text.startsWith(previous.split.text);
    parts[position] = { split, rendered: extended ? previous.rendered : 0 };
  });
  parts.length = texts.length;
  receivedParts.set(source, parts);
  pending.add(parts);
  renderAhead();
}

if (typeof window !== "undefined") prepareReceivedText(renderCompletedBlocks);

/**
 * One block of an answer, rendered from its text. The last block may be one a stream is still
 * writing, whose text changes every frame: it is rendered without being kept (unless kept
 * already), so the cache holds blocks that are complete.
 */
const MarkdownBlock = memo(function MarkdownBlock({ text, last }: { text: string; last: boolean }) {
  const markdown = asDisplayMath(text);
  return last
    ? (renderedBlocks.peek(markdown) ?? renderMarkdown(markdown, false))
    : renderedBlocks.get(markdown);
});

/** Blocks per chunk: the unit React compares per frame and the browser may skip when off screen. */
const BLOCKS_PER_CHUNK = 16;

interface ChunkProps {
  blocks: readonly string[];
  /** The answer's last chunk, whose last block may still grow. */
  last: boolean;
}

function sameBlocks(previous: ChunkProps, next: ChunkProps): boolean {
  return (
    previous.last === next.last &&
    previous.blocks.length === next.blocks.length &&
    previous.blocks.every((block, index) => block === next.blocks[index])
  );
}

/**
 * A run of consecutive blocks. While an answer grows only the last chunk re-renders, and
 * `content-visibility: auto` lets the browser skip style, layout and paint of chunks scrolled
 * out of view, so a frame's work does not grow with the length of the answer.
 */
const MarkdownChunk = memo(function MarkdownChunk({ blocks, last }: ChunkProps) {
  return (
    <div className="[contain-intrinsic-size:auto_20rem] [content-visibility:auto]">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} text={block} last={last && index === blocks.length - 1} />
      ))}
    </div>
  );
}, sameBlocks);

/**
 * Markdown with GFM (tables, task lists, strikethrough), highlighted code with copy buttons,
 * TeX formulas and Mermaid diagrams.
 */
export const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  // A streamed answer only grows: each frame splits what was added, not the whole text again
  // (the split follows the text while rendering, React's pattern for state derived from props).
  const [lastSplit, setLastSplit] = useState<BlockSplit>(() => splitGrowingMarkdown(null, text));
  let split = lastSplit;
  if (split.text !== text) {
    split = splitGrowingMarkdown(lastSplit, text);
    setLastSplit(split);
  }
  const blocks = split.blocks;
  const chunks = useMemo(() => {
    const grouped: string[][] = [];
    for (let start = 0; start < blocks.length; start += BLOCKS_PER_CHUNK)
      grouped.push(blocks.slice(start, start + BLOCKS_PER_CHUNK));
    return grouped;
  }, [blocks]);
  return (
    <div className="text-sm leading-6">
      {chunks.map((blocks, index) => (
        <MarkdownChunk key={index} blocks={blocks} last={index === chunks.length - 1} />
      ))}
    </div>
  );
});
