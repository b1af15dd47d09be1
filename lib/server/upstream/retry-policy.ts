import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "@/lib/gemini/api-error";
import { retryInfoDelayMs } from "@/lib/gemini/retry-info";
import { countUpstreamRetry } from "../observability/studio-metrics";
import { UpstreamError } from "./upstream-errors";

/**
 * When the gateway may send a request to the upstream again, and how long it waits first.
 * Only 429/500/502/503/504 and lost connections are worth a retry, and only for operations
 * where a second attempt cannot do harm: reads and computations ("idempotent"), creates only
 * when the first attempt provably never reached the upstream ("create"), and never a request
 * whose body was streamed or whose answer already reached the client ("never").
 */

export type RetrySafety = "idempotent" | "create" | "never";

export interface RetrySettings {
  maxAttempts: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
}

const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

function retryableError(error: unknown, safety: RetrySafety): boolean {
  if (safety === "never" || !(error instanceof ApiError)) return false;
  if (!(error instanceof UpstreamError))
    return safety === "idempotent" && RETRYABLE_STATUSES.has(error.httpStatus);
  switch (error.failure) {
    case "not-sent":
      return true;
    case "status":
      return safety === "idempotent" && RETRYABLE_STATUSES.has(error.httpStatus);
    case "connection-lost":
      return safety === "idempotent";
    // A timeout is not retried: the upstream may still be working, and a second wait of the
    // same length helps nobody. What the gateway refused (a redirect, a malformed answer,
    // rejected credentials) would only be refused again.
    case "timeout":
    case "gateway":
      return false;
  }
}

/**
 * How long to wait before attempt `attempt + 1` after `error` ended attempt `attempt`
 * (1-based), or null when the error goes to the client. Exponential backoff with jitter;
 * a RetryInfo delay from the upstream is honoured, and if it asks for longer than we are
 * willing to wait the error (with its RetryInfo) is passed on instead.
 */
export function retryDelayMs(
  attempt: number,
  error: unknown,
  safety: RetrySafety,
  settings: RetrySettings,
  random: () => number = Math.random,
): number | null {
  if (attempt >= settings.maxAttempts) return null;
  if (!retryableError(error, safety)) return null;
  const requested = error instanceof ApiError ? retryInfoDelayMs(error.details) : null;
  if (requested !== null) {
    if (requested > settings.retryMaxDelayMs) return null;
    return Math.round(
      requested + random() * Math.min(settings.retryBaseDelayMs, requested * 0.2 + 1),
    );
  }
  const ceiling = Math.min(
    settings.retryMaxDelayMs,
    settings.retryBaseDelayMs * 2 ** (attempt - 1),
  );
  // "Equal jitter": at least half the backoff, so retries never bunch up at zero.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Why an attempt is tried again, as the retries metric counts it: a status, or how it failed. */
export function retryCause(error: unknown): string {
  if (error instanceof UpstreamError && error.failure !== "status")
    return error.failure.replace(/-/g, "_");
  return error instanceof ApiError ? String(error.httpStatus) : "other";
}

/** Runs `attempt` until it succeeds or the policy says stop; the last error is thrown. */
export async function withRetries<T>(
  run: (attempt: number) => Promise<T>,
  options: {
    safety: RetrySafety;
    settings: RetrySettings;
    signal: AbortSignal;
    onRetry?: (attempt: number, delayMs: number, error: unknown) => void;
  },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      const delay = retryDelayMs(attempt, error, options.safety, options.settings);
      if (delay === null || options.signal.aborted) throw error;
      countUpstreamRetry(retryCause(error));
      options.onRetry?.(attempt, delay, error);
      // Rejects with an AbortError as soon as the client goes away.
      await sleep(delay, undefined, { signal: options.signal });
    }
  }
}
