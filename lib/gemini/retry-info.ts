/**
 * The wait an error asks for before a retry: the retryDelay of its RetryInfo detail (the body's
 * form of the service's Retry-After). Browser-safe: the gateway's retries and the chat's Retry
 * button read it the same way.
 */
import type { ErrorDetail } from "./api-error";
import { durationProblem, parseDuration } from "./wire-time";

export const RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo" as const;

/** Reads a wire duration (`"3s"`, `"0.250s"`) as whole milliseconds; null if it is not one. */
export function parseDurationMs(value: string): number | null {
  if (durationProblem(value) !== undefined) return null;
  return Math.max(0, Math.round(parseDuration(value, "retryDelay")));
}

/** The retryDelay of the first RetryInfo detail, in ms, or null. */
export function retryInfoDelayMs(details: readonly ErrorDetail[] | undefined): number | null {
  for (const detail of details ?? []) {
    if (detail["@type"] === RETRY_INFO_TYPE && typeof detail.retryDelay === "string")
      return parseDurationMs(detail.retryDelay);
  }
  return null;
}

/** A RetryInfo detail for a Retry-After header of whole seconds, or null if it is not one. */
export function retryInfoFromHeader(value: string | null): ErrorDetail | null {
  if (value === null || !/^\d{1,9}$/.test(value.trim())) return null;
  return { "@type": RETRY_INFO_TYPE, retryDelay: `${Number(value.trim())}s` };
}
