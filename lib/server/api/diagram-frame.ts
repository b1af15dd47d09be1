import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";

/**
 * The Mermaid renderer of the chat's answers: a page the chat loads in a sandboxed iframe
 * (scripts, no same origin), and Mermaid's ES modules that page imports.
 *
 * Why a frame: Mermaid's parse, layout and text measuring take 30–300 ms of script per
 * diagram, and the module itself about 80 ms to evaluate; in the chat's own page that would
 * break the streaming budget (no main-thread task over 50 ms). Chromium runs a sandboxed
 * frame in a process of its own, so the page's main thread never waits for it. And the
 * answer is untrusted: in the frame Mermaid runs in an opaque origin with no cookies, no
 * storage and no network (its CSP allows scripts from this server only, and no connections),
 * and the chat shows its output as an image, where no script runs. No script is inline, so the
 * frame needs no nonce; only Mermaid's SVG styling needs inline styles, in the frame alone.
 *
 * The modules are served from the installed package (node_modules/mermaid/dist), read at
 * run time from the repository root like the tokenizer worker; nothing is fetched from
 * elsewhere. They are public library code, so any origin may read them (the frame's origin
 * is opaque: `null`).
 */

const MODULE_ROOT = "node_modules/mermaid/dist";
const ENTRY = "mermaid.esm.min.mjs";
const CHUNKS = "chunks/mermaid.esm.min";
/** A chunk's file name as the package names them (no dots, slashes or `..`). */
const CHUNK_NAME = /^[A-Za-z0-9_-]{1,100}\.mjs$/;

let installedVersion: string | null = null;

/** The package's folder; not traced by the bundler (read at run time, never bundled). */
function packagePath(relative: string): string {
  return path.resolve(/* turbopackIgnore: true */ process.cwd(), relative);
}

function moduleRoot(): string {
  return packagePath(MODULE_ROOT);
}

/** The installed Mermaid's version: part of the module URLs, so they can be cached for good. */
function mermaidVersion(): string {
  installedVersion ??= (
    JSON.parse(fs.readFileSync(packagePath("node_modules/mermaid/package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  return installedVersion;
}

const FRAME_PATH = "/diagram-frame";

/** The frame's script: renders what its parent asks, one diagram at a time, and answers the SVG. */
function rendererScript(version: string): string {
  return `import mermaid from "${FRAME_PATH}/mermaid/${version}/${ENTRY}";
let next = Promise.resolve();
let count = 0;
addEventListener("message", (event) => {
  if (event.source !== parent) return;
  const request = event.data;
  if (!request || request.type !== "render" || typeof request.source !== "string") return;
  next = next.then(() => render(request));
});
async function render({ id, source, theme }) {
  try {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      theme: theme === "dark" ? "dark" : "default",
      htmlLabels: false,
      flowchart: { htmlLabels: false },
      maxTextSize: 50000,
      maxEdges: 500,
      suppressErrorRendering: true,
    });
    const { svg } = await mermaid.render("diagram-" + ++count, source);
    const root = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
    const box = (root.getAttribute("viewBox") || "").trim().split(/[\\s,]+/).map(Number);
    const width = Math.ceil(box[2] || 0);
    const height = Math.ceil(box[3] || 0);
    if (width > 0 && height > 0) {
      root.setAttribute("width", String(width));
      root.setAttribute("height", String(height));
    }
    root.removeAttribute("style");
    const title = root.querySelector(":scope > title")?.textContent?.trim() || undefined;
    const description = root.querySelector(":scope > desc")?.textContent?.trim() || undefined;
    const kind = root.getAttribute("aria-roledescription") || undefined;
    parent.postMessage(
      { type: "rendered", id, svg: new XMLSerializer().serializeToString(root), width, height, title, description, kind },
      "*",
    );
  } catch (error) {
    const message = String((error && error.message) || error).slice(0, 1000);
    parent.postMessage({ type: "failed", id, message }, "*");
  } finally {
    document.querySelectorAll("body > [id^='ddiagram-'], body > [id^='diagram-']").forEach((node) => node.remove());
  }
}
parent.postMessage({ type: "ready" }, "*");
`;
}

const RENDERER_PATH = `${FRAME_PATH}/renderer.mjs`;

/** GET /diagram-frame: the renderer page, with a CSP of its own (no network, no framing by others). */
export function diagramFrameHandler(): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Diagram renderer</title></head><body><script type="module" src="${RENDERER_PATH}?v=${mermaidVersion()}"></script></body></html>`;
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": [
        "default-src 'none'",
        // This server's modules only ('self' is the frame URL's origin, though the sandboxed
        // document's own origin is opaque); nothing inline, no eval.
        "script-src 'self'",
        // Mermaid styles its SVG with a <style> element and style attributes.
        "style-src 'unsafe-inline'",
        "img-src data:",
        "font-src data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'self'",
      ].join("; "),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    },
  });
}

/** Headers of a module the opaque-origin frame imports: public code, read cross-origin without credentials. */
function moduleHeaders(cache: string): HeadersInit {
  return {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": cache,
    "Access-Control-Allow-Origin": "*",
    "Cross-Origin-Resource-Policy": "cross-origin",
    "X-Content-Type-Options": "nosniff",
  };
}

/** GET /diagram-frame/renderer.mjs: the frame's script (it names the installed Mermaid's version). */
export function rendererModuleHandler(): Response {
  return new Response(rendererScript(mermaidVersion()), { headers: moduleHeaders("no-cache") });
}

function notFound(): Response {
  return new Response("Not found\n", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * GET /diagram-frame/mermaid/{version}/{file}: Mermaid's entry module or one of its chunks,
 * streamed from the installed package. Only the current version's names resolve; anything
 * else (another version, another folder, a dot segment) is a 404.
 */
export function mermaidModuleHandler(segments: readonly string[]): Response {
  const [version, ...rest] = segments;
  if (version !== mermaidVersion()) return notFound();
  const relative = rest.join("/");
  let file: string | null = null;
  if (relative === ENTRY) file = path.join(moduleRoot(), ENTRY);
  else if (rest.length === 3 && `${rest[0]}/${rest[1]}` === CHUNKS && CHUNK_NAME.test(rest[2]!))
    file = path.join(moduleRoot(), CHUNKS, rest[2]!);
  if (file === null || !fs.existsSync(file)) return notFound();
  const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
  return new Response(body, { headers: moduleHeaders("public, max-age=31536000, immutable") });
}
