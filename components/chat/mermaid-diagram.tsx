"use client";

import { memo, useEffect, useState, useSyncExternalStore } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { drawDiagram, type DiagramDrawing, type DiagramTheme } from "./diagram-renderer";

/**
 * A ```mermaid block of an answer, drawn as an image by the sandboxed renderer frame
 * (diagram-renderer.ts), with its source one click away. While the block is still streaming
 * (its text keeps changing) the source shows as it arrives; the diagram is drawn once the
 * text has held still for a moment, so a growing diagram is not drawn at every token.
 */

/** How long the source must stay unchanged before it is drawn. */
const SETTLE_MS = 300;

function subscribeTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}

function currentTheme(): DiagramTheme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

/** The page's colour scheme (the html element's `dark` class), live. */
function useTheme(): DiagramTheme {
  return useSyncExternalStore(subscribeTheme, currentTheme, () => "light");
}

/** Mermaid's name for a diagram's kind, as people say it. */
function kindLabel(kind: string | undefined, source: string): string {
  const named = kind ?? /^\s*([A-Za-z-]+)/.exec(source)?.[1] ?? "";
  const word = named
    .replace(/-v\d+$/, "")
    .replace(/Diagram$/i, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return word ? `${word} diagram` : "diagram";
}

export const MermaidDiagram = memo(function MermaidDiagram({ source }: { source: string }) {
  const theme = useTheme();
  const [settled, setSettled] = useState<string | null>(null);
  const [drawing, setDrawing] = useState<{ key: string; result: DiagramDrawing } | null>(null);
  const [showSource, setShowSource] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setSettled(source), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [source]);

  const key = settled === null ? null : `${theme}\n${settled}`;
  useEffect(() => {
    if (settled === null || key === null) return;
    let live = true;
    void drawDiagram(settled, theme).then((result) => {
      if (live) setDrawing({ key, result });
    });
    return () => {
      live = false;
    };
  }, [settled, theme, key]);

  const current = drawing && settled === source && drawing.key === key ? drawing.result : null;
  const drawn = current?.kind === "drawn" ? current : null;
  const label = kindLabel(drawn?.diagramKind, source);
  const alt = [drawn?.title, drawn?.description].filter(Boolean).join(". ") || `A ${label}`;

  return (
    <figure
      className="my-2 overflow-hidden rounded-md border border-zinc-200 dark:border-zinc-800"
      data-diagram={drawn ? "drawn" : current?.kind === "failed" ? "failed" : "pending"}
    >
      <figcaption className="flex items-center justify-between gap-2 border-b border-zinc-200 px-2 py-0.5 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
        <span>Mermaid {label}</span>
        <span className="flex items-center gap-1">
          <button
            type="button"
            aria-pressed={showSource}
            onClick={() => setShowSource(!showSource)}
            className="rounded px-1 underline-offset-2 hover:underline"
            data-diagram-source-toggle=""
          >
            Source
          </button>
          <CopyButton text={source} label="Copy diagram source" />
        </span>
      </figcaption>
      {drawn && !showSource ? (
        <div className="overflow-x-auto bg-white p-2 dark:bg-zinc-950">
          {/* An image: nothing in the drawing can run script or reach the page. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img
            src={drawn.url}
            alt={alt}
            width={drawn.width || undefined}
            height={drawn.height || undefined}
            className="h-auto max-w-full"
            data-diagram-image=""
          />
        </div>
      ) : (
        <pre className="overflow-x-auto p-3 text-[13px] leading-5" tabIndex={0}>
          <code className="font-mono" data-diagram-code="">
            {source}
          </code>
        </pre>
      )}
      {current?.kind === "failed" && (
        <p className="border-t border-zinc-200 px-2 py-1 text-xs text-red-700 dark:border-zinc-800 dark:text-red-400">
          Could not draw this diagram: {current.message}
        </p>
      )}
    </figure>
  );
});
