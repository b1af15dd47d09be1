"use client";

import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { MarkdownView, preloadHighlighter } from "./markdown-view";
import { preloadKatex } from "./math-formula";
import { warmNumberFormat } from "@/lib/studio/number-format";

/** A short answer with the markdown answers commonly have (no formula or diagram: those load their own code). */
const SAMPLE_ANSWER = [
  "## Harbours",
  "A harbour is **sheltered** water where *ships* can dock; see [charts](https://example.com) and `depth`.",
  "- breakwaters\n- quays\n  1. north\n  2. south",
  "> Tides matter.",
  "| port | depth |\n|---|---:|\n| A | 12 |",
  "```ts\nconst depth = 12;\n```",
].join("\n\n");

let warmed = false;

/**
 * Renders the sample answer once per page load, off screen (a detached root, dropped right
 * after).
 */
function renderSampleAnswer(): void {
  if (warmed) return;
  warmed = true;
  const root = createRoot(document.createElement("div"));
  flushSync(() => root.render(<MarkdownView text={SAMPLE_ANSWER} />));
  setTimeout(() => root.unmount(), 0);
  // Each its own task, so that a key pressed meanwhile waits for one piece at most: the usage
  // line's number formatter (the page's first loads locale data) and KaTeX's script (evaluated
  // when it arrives).
  setTimeout(warmNumberFormat, 0);
  setTimeout(preloadKatex, 0);
}

/**
 * Compiles what shows an answer before the first answer arrives, instead of while its first
 * tokens wait: once the browser is first idle after the page appeared (hydrated), a sample
 * answer is rendered off screen (the markdown parser and the answer's components run once), the
 * number formatter the usage line uses is built, and highlight.js and KaTeX load. Returns the
 * cancel for an effect's cleanup.
 */
export function warmAnswerRendering(): () => void {
  const cancelHighlighter = preloadHighlighter();
  const idle = typeof requestIdleCallback === "function";
  const handle = idle
    ? requestIdleCallback(renderSampleAnswer, { timeout: 3000 })
    : window.setTimeout(renderSampleAnswer, 1500);
  return () => {
    cancelHighlighter();
    if (idle) cancelIdleCallback(handle);
    else clearTimeout(handle);
  };
}
