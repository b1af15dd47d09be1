import "server-only";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { setTimeout as sleep } from "node:timers/promises";

/** How long after a request arrived the server still counts as busy for work that can wait. */
export const QUIET_AFTER_MS = 300;

/** The most work that can wait waits in all: past it, requests that keep coming have run its code. */
export const LONGEST_WAIT_MS = 10_000;

/** Node's own channel, published when its HTTP server has read a request's headers. */
const REQUEST_START = "http.server.request.start";

export interface RequestQuiet {
  /**
   * Resolves `true` once no request has arrived for QUIET_AFTER_MS, at once when none has;
   * `false` when the waits have reached LONGEST_WAIT_MS in all: the work should end.
   */
  untilQuiet(): Promise<boolean>;
  /** Stops watching requests; the watch then costs requests nothing. */
  close(): void;
}

/**
 * Work that only prepares the server for requests (the warm-ups after a start) steps aside for
 * the requests themselves: between its steps it awaits `untilQuiet()`. A person's first answer,
 * sent while the warm-up still runs, then has the process to itself instead of sharing it with
 * the warm-up's answers (on this project's machine the server is busy for seconds after a
 * start). Only the arrival of requests is watched, not their end: a long stream does not hold
 * the work back, and nothing is kept per request. Each watch subscribes for its own lifetime,
 * so requests after the warm-up pay nothing.
 */
export function watchRequestQuiet({
  quietAfterMs = QUIET_AFTER_MS,
  longestWaitMs = LONGEST_WAIT_MS,
} = {}): RequestQuiet {
  const now = () => performance.now();
  let lastArrival = Number.NEGATIVE_INFINITY;
  let waited = 0;
  const noteArrival = () => {
    lastArrival = now();
  };
  subscribe(REQUEST_START, noteArrival);
  return {
    async untilQuiet() {
      for (;;) {
        const sinceArrival = now() - lastArrival;
        if (sinceArrival >= quietAfterMs) return true;
        if (waited >= longestWaitMs) return false;
        const wait = Math.min(quietAfterMs - sinceArrival, longestWaitMs - waited);
        waited += wait;
        await sleep(wait, undefined, { ref: false });
      }
    },
    close() {
      unsubscribe(REQUEST_START, noteArrival);
    },
  };
}
