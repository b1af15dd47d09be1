/**
 * The error an answer keeps: the service's code, message and status, and when the error asked
 * to be retried (its RetryInfo, the body's Retry-After) as a moment, so Retry waits for it
 * after a reload too.
 */
import type { ApiError } from "@/lib/gemini/api-error";
import { retryInfoDelayMs } from "@/lib/gemini/retry-info";

export interface MessageError {
  code: number;
  message: string;
  status: string;
  /** When a retry may be sent (ISO time); absent when the error asked for no wait. */
  retryAt?: string;
}

/** What an answer keeps of an ApiError, its wait counted from `now`. */
export function messageErrorOf(error: ApiError, now = Date.now()): MessageError {
  const summary: MessageError = {
    code: error.httpStatus,
    message: error.message,
    status: error.rpcStatus,
  };
  const delay = retryInfoDelayMs(error.details);
  if (delay !== null && delay > 0) summary.retryAt = new Date(now + delay).toISOString();
  return summary;
}

/** Milliseconds left before a retry may be sent (0: now). */
export function retryWaitMs(error: MessageError | undefined, now = Date.now()): number {
  if (!error?.retryAt) return 0;
  const at = Date.parse(error.retryAt);
  return Number.isFinite(at) ? Math.max(0, at - now) : 0;
}
