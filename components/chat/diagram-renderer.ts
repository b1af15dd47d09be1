/**
 * The page's side of the diagram renderer frame (lib/server/api/diagram-frame.ts): one hidden
 * sandboxed iframe, made when the first diagram asks for it, renders every diagram of the
 * page in turn; each drawing is kept as an image URL by source and theme. Messages are taken
 * only from that frame's window.
 */

export type DiagramTheme = "light" | "dark";

export type DiagramDrawing =
  | {
      kind: "drawn";
      url: string;
      width: number;
      height: number;
      /** The diagram's accTitle / accDescr, and its kind as Mermaid names it (flowchart-v2, sequence...). */
      title?: string;
      description?: string;
      diagramKind?: string;
    }
  | { kind: "failed"; message: string };

type FrameReply =
  | {
      type: "rendered";
      id: number;
      svg: string;
      width: number;
      height: number;
      title?: string;
      description?: string;
      kind?: string;
    }
  | { type: "failed"; id: number; message: string }
  | { type: "ready" };

/** Longest wait for the frame to load Mermaid and answer (a cold, busy machine included). */
const FRAME_START_TIMEOUT_MS = 60_000;
/** Drawings kept; older ones' image URLs are released. */
const KEPT_DRAWINGS = 100;

let frameWindow: Promise<Window> | null = null;
let nextId = 1;
const waiting = new Map<number, (reply: FrameReply) => void>();
const drawings = new Map<string, Promise<DiagramDrawing>>();

function startFrame(): Promise<Window> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement("iframe");
    frame.src = "/diagram-frame";
    // Scripts only: an opaque origin, no cookies, storage, forms, pop-ups or navigation of the page.
    frame.setAttribute("sandbox", "allow-scripts");
    frame.title = "Diagram renderer (hidden)";
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.style.cssText =
      "position:fixed;width:1024px;height:768px;left:-10000px;top:0;border:0;visibility:hidden";
    const timer = setTimeout(() => {
      frameWindow = null;
      frame.remove();
      reject(new Error("The diagram renderer did not start."));
    }, FRAME_START_TIMEOUT_MS);
    window.addEventListener("message", (event: MessageEvent<FrameReply>) => {
      if (event.source === null || event.source !== frame.contentWindow) return;
      const reply = event.data;
      if (reply?.type === "ready") {
        clearTimeout(timer);
        resolve(frame.contentWindow!);
      } else if (reply && (reply.type === "rendered" || reply.type === "failed")) {
        waiting.get(reply.id)?.(reply);
        waiting.delete(reply.id);
      }
    });
    document.body.append(frame);
  });
}

function toDrawing(reply: FrameReply): DiagramDrawing {
  if (reply.type === "rendered")
    return {
      kind: "drawn",
      url: URL.createObjectURL(new Blob([reply.svg], { type: "image/svg+xml" })),
      width: reply.width,
      height: reply.height,
      title: reply.title,
      description: reply.description,
      diagramKind: reply.kind,
    };
  if (reply.type === "failed") return { kind: "failed", message: reply.message };
  return { kind: "failed", message: "The diagram renderer sent no drawing." };
}

async function draw(source: string, theme: DiagramTheme): Promise<DiagramDrawing> {
  try {
    frameWindow ??= startFrame();
    const target = await frameWindow;
    const id = nextId++;
    const reply = await new Promise<FrameReply>((resolve) => {
      waiting.set(id, resolve);
      target.postMessage({ type: "render", id, source, theme }, "*");
    });
    return toDrawing(reply);
  } catch (error) {
    return { kind: "failed", message: error instanceof Error ? error.message : String(error) };
  }
}

/** The drawing of a Mermaid source in a theme: drawn once, then shared by every view of it. */
export function drawDiagram(source: string, theme: DiagramTheme): Promise<DiagramDrawing> {
  const key = `${theme}\n${source}`;
  let drawing = drawings.get(key);
  if (!drawing) {
    drawing = draw(source, theme);
    drawings.set(key, drawing);
    // A failure to start is not kept: the next view tries again.
    void drawing.then((result) => {
      if (result.kind === "failed" && frameWindow === null) drawings.delete(key);
    });
    if (drawings.size > KEPT_DRAWINGS) {
      const [oldestKey, oldest] = drawings.entries().next().value!;
      drawings.delete(oldestKey);
      void oldest.then((result) => result.kind === "drawn" && URL.revokeObjectURL(result.url));
    }
  }
  return drawing;
}
