"use client";

import { memo, useState, useSyncExternalStore } from "react";
import { createBlockCache } from "./block-cache";

/**
 * A TeX formula of an answer ($…$ inline, $$…$$ display), typeset by KaTeX with its MathML
 * for screen readers; the TeX source is one click away. KaTeX (its script and CSS; the fonts
 * come when a formula uses them) loads when the chat page is first idle (preloadKatex, from
 * answer-warm-up.tsx) or when the first formula appears, whichever is first; until then the
 * formula shows as its source.
 */
type Render = (tex: string, display: boolean) => string;

let render: Render | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function loadKatex(): void {
  loading ??= Promise.all([import("katex"), import("katex/dist/katex.min.css")]).then(
    ([module]) => {
      const katex = module.default;
      render = (tex, display) =>
        katex.renderToString(tex, {
          displayMode: display,
          throwOnError: false,
          output: "htmlAndMathml",
          // Answers are untrusted: no \href, \includegraphics or HTML extensions.
          trust: false,
          maxSize: 50,
          maxExpand: 1000,
        });
      for (const listener of listeners) listener();
    },
  );
}

/**
 * Loads KaTeX and typesets a sample formula, each in a task of its own while the page is idle:
 * evaluating KaTeX's script is a long task (about 100 ms of CPU on the project machine) that
 * would otherwise come in the middle of the first streamed answer with a formula.
 */
export function preloadKatex(): void {
  loadKatex();
  void loading?.then(() => setTimeout(() => render?.("\\frac{a}{b} = \\sqrt{x^2}", false), 0));
}

/**
 * Formulas typeset ahead of the frame that shows them (typesetAhead), kept by their TeX: the
 * frame sets their HTML instead of typesetting them. Bounded by the TeX's characters (a
 * formula's HTML is some kilobytes).
 */
const typesetFormulas = createBlockCache<string>(
  (key) => render!(key.slice(1), key.startsWith("D")),
  20_000,
);

function formulaKey(tex: string, display: boolean): string {
  return `${display ? "D" : "I"}${tex}`;
}

/**
 * Typesets a formula of a complete block ahead of its frame, if KaTeX is loaded (else the frame
 * typesets it once KaTeX is).
 */
export function typesetAhead(tex: string, display: boolean): void {
  if (render) typesetFormulas.get(formulaKey(tex, display));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  loadKatex();
  return () => listeners.delete(listener);
}

export const MathFormula = memo(function MathFormula({
  tex,
  display,
}: {
  tex: string;
  display: boolean;
}) {
  const renderer = useSyncExternalStore(
    subscribe,
    () => render,
    () => null,
  );
  const [source, setSource] = useState(false);
  const html =
    renderer && !source
      ? (typesetFormulas.peek(formulaKey(tex, display)) ?? renderer(tex, display))
      : null;
  const toggle = (
    <button
      type="button"
      aria-pressed={source}
      onClick={() => setSource(!source)}
      className="rounded px-1 text-[11px] text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400"
      data-math-source-toggle=""
    >
      {source ? "Formula" : "TeX"}
    </button>
  );
  const body = html ? (
    <span dangerouslySetInnerHTML={{ __html: html }} />
  ) : (
    <code className="rounded bg-zinc-100 px-1 font-mono text-[0.9em] dark:bg-zinc-800" data-tex="">
      {display ? `$$${tex}$$` : `$${tex}$`}
    </code>
  );
  return display ? (
    <span className="my-2 flex items-center gap-2 overflow-x-auto" data-math="display">
      <span className="min-w-0 flex-1">{body}</span>
      {toggle}
    </span>
  ) : (
    <span data-math="inline">
      {body}
      {toggle}
    </span>
  );
});
