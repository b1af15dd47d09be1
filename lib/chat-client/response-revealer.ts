import type { GenerateContentResponse } from "@/lib/gemini/types";
import {
  accumulateResponse,
  EMPTY_RESPONSE,
  responseTextLength,
  revealPrefix,
  type AccumulatedResponse,
} from "@/lib/studio/accumulate-response";

/** New characters a frame shows at least, when that many are waiting. */
export const REVEAL_PER_FRAME = 800;
/**
 * New characters a frame shows at most: a burst (a tab catching up, a stream faster than the
 * frames) is drained over a few frames, each bounded (a few new blocks parsed).
 */
export const MAX_REVEAL_PER_FRAME = 6000;
/** Frames a backlog is drained over: a stream's end is on screen a few frames after it arrived. */
const CATCH_UP_FRAMES = 3;

function scheduleFrame(callback: () => void): () => void {
  if (
    typeof document !== "undefined" &&
    document.visibilityState === "visible" &&
    typeof requestAnimationFrame === "function"
  ) {
    const frame = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(callback, 50);
  return () => clearTimeout(timer);
}

export interface ResponseRevealer {
  add(chunk: GenerateContentResponse): void;
  replace(next: AccumulatedResponse): void;
  /** Resolves once everything received is on screen. */
  finish(): Promise<void>;
  cancel(): void;
}

/**
 * Shows a growing response (through `show`) at most once per frame: at least `perFrame` new
 * characters, or a third of what is waiting, so what arrives is on screen within a few frames
 * whatever the stream's pace; at most `maxPerFrame`, so a burst (a fast engine, a snapshot when
 * joining, a tab catching up) is shown over a few frames instead of one long parse. Responses
 * shown side by side share the budget (each gets its part), since their frames' work adds up.
 */
export function createRevealer(
  show: (response: AccumulatedResponse) => void,
  perFrame = REVEAL_PER_FRAME,
  maxPerFrame = MAX_REVEAL_PER_FRAME,
): ResponseRevealer {
  let response: AccumulatedResponse = EMPTY_RESPONSE;
  let shown = 0;
  let cancelFrame: (() => void) | null = null;
  let caughtUp: (() => void) | null = null;
  const flush = () => {
    cancelFrame = null;
    const total = responseTextLength(response);
    const step = Math.min(
      maxPerFrame,
      Math.max(perFrame, Math.ceil((total - shown) / CATCH_UP_FRAMES)),
    );
    shown = Math.min(total, shown + step);
    show(revealPrefix(response, shown));
    if (shown < total) cancelFrame = scheduleFrame(flush);
    else caughtUp?.();
  };
  return {
    add(chunk) {
      response = accumulateResponse(response, chunk);
      cancelFrame ??= scheduleFrame(flush);
    },
    replace(next) {
      response = next;
      cancelFrame ??= scheduleFrame(flush);
    },
    finish() {
      return new Promise((resolve) => {
        caughtUp = resolve;
        cancelFrame ??= scheduleFrame(flush);
      });
    },
    cancel() {
      cancelFrame?.();
      cancelFrame = null;
    },
  };
}
