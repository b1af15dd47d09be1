import type { GenerateContentResponse } from "@/lib/gemini/types";
import {
  accumulateResponse,
  EMPTY_RESPONSE,
  responseTextLength,
  revealPrefix,
  type AccumulatedResponse,
} from "@/lib/studio/accumulate-response";

/** New characters a frame shows at least, when that many are waiting (and the budget allows). */
export const REVEAL_PER_FRAME = 800;
/**
 * New characters a frame shows at most: a burst (a tab catching up, a stream faster than the
 * frames) is drained over a few frames, each bounded (a few new blocks parsed).
 */
export const MAX_REVEAL_PER_FRAME = 6000;
/** New characters a frame shows at least, however slow the frames: the stream keeps moving. */
export const MIN_REVEAL_PER_FRAME = 200;
/**
 * Milliseconds of rendering (React's render of what a frame added) a frame aims at. The
 * frame's style, layout and paint follow in the same task and take about as long again, so a
 * frame stays well under the 50 ms of a long task on a slow or busy machine as on a fast one.
 */
export const FRAME_BUDGET_MS = 12;
/** Frames a backlog is drained over: a stream's end is on screen a few frames after it arrived. */
const CATCH_UP_FRAMES = 3;

/** How a revealer paces what it shows. */
export interface RevealPace {
  perFrame: number;
  maxPerFrame: number;
  budgetMs: number;
}

export const DEFAULT_PACE: RevealPace = {
  perFrame: REVEAL_PER_FRAME,
  maxPerFrame: MAX_REVEAL_PER_FRAME,
  budgetMs: FRAME_BUDGET_MS,
};

/**
 * The most characters the next frame shows, from what the last one cost: `added` characters
 * rendered in `elapsedMs`. Over budget, the limit follows the measured rate down (never below
 * MIN_REVEAL_PER_FRAME); well under it, while frames were held by the limit, it grows again by
 * half (never above the pace's maximum), so a passing stall does not slow the rest of the answer.
 */
export function nextRevealLimit(
  limit: number,
  added: number,
  elapsedMs: number,
  pace: RevealPace,
): number {
  if (added <= 0) return limit;
  if (elapsedMs > pace.budgetMs)
    return Math.max(MIN_REVEAL_PER_FRAME, Math.floor((added * pace.budgetMs) / elapsedMs));
  if (elapsedMs < pace.budgetMs / 2 && added >= limit)
    return Math.min(pace.maxPerFrame, Math.ceil(limit * 1.5));
  return limit;
}

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
 * whatever the stream's pace; at most what the frame budget allows, measured on the frames
 * before (nextRevealLimit, up to `maxPerFrame`), so a burst (a fast engine, a snapshot when
 * joining, a tab catching up) or a slow machine gives more frames, never longer ones. Responses
 * shown side by side share the budget (each gets its part), since their frames' work adds up.
 */
export function createRevealer(
  show: (response: AccumulatedResponse) => void,
  pace: RevealPace = DEFAULT_PACE,
  now: () => number = () => performance.now(),
): ResponseRevealer {
  let response: AccumulatedResponse = EMPTY_RESPONSE;
  let shown = 0;
  let limit = Math.min(pace.maxPerFrame, pace.perFrame * 2);
  let cancelFrame: (() => void) | null = null;
  let caughtUp: (() => void) | null = null;
  const flush = () => {
    cancelFrame = null;
    const total = responseTextLength(response);
    const wanted = Math.max(pace.perFrame, Math.ceil((total - shown) / CATCH_UP_FRAMES));
    const added = Math.min(total, shown + Math.min(limit, wanted)) - shown;
    shown += added;
    const started = now();
    show(revealPrefix(response, shown));
    // React renders a store update in a microtask of this task, queued by `show`: this one
    // runs after it, so it measures that render.
    queueMicrotask(() => {
      limit = nextRevealLimit(limit, added, now() - started, pace);
    });
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
