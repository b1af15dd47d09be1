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
 * frames) is drained over a few frames, each bounded (a few new blocks laid out and painted).
 */
export const MAX_REVEAL_PER_FRAME = 3000;
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

/**
 * Work a view does on text as it is received, ahead of the frame that shows it (the answer's
 * view parses the blocks that are complete): given the text parts of the whole response so far,
 * candidate by candidate, in a microtask after a chunk is added (in the task that received it,
 * so before any frame can show it; chunks added together are prepared once), and the revealer
 * they come from (the same
 * object for every call of one revealer; responses shown side by side have one each).
 */
export type ReceivedTextPreparer = (texts: readonly string[], source: object) => void;

const preparers = new Set<ReceivedTextPreparer>();

/** Registers a preparer of received text for every revealer; returns its removal. */
export function prepareReceivedText(preparer: ReceivedTextPreparer): () => void {
  preparers.add(preparer);
  return () => preparers.delete(preparer);
}

function textParts(response: AccumulatedResponse): string[] {
  return response.candidates.flatMap((candidate) =>
    (candidate?.content?.parts ?? []).flatMap((part) =>
      typeof part.text === "string" ? [part.text] : [],
    ),
  );
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
  let preparing = false;
  const source = {};
  // What was received is prepared at the end of the task that received it: always before the
  // frame that shows it (a task of its own, queued behind the frame, often came after it, and
  // the frame then parsed the blocks itself).
  const prepare = () => {
    preparing = false;
    const texts = textParts(response);
    for (const preparer of preparers) preparer(texts, source);
  };
  const received = () => {
    if (preparing || preparers.size === 0) return;
    preparing = true;
    queueMicrotask(prepare);
  };
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
      received();
      cancelFrame ??= scheduleFrame(flush);
    },
    replace(next) {
      response = next;
      received();
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
