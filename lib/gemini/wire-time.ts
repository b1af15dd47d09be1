/**
 * Durations (`"3600s"`, `"1.5s"`) and RFC 3339 timestamps as the wire carries them
 * (google.protobuf.Duration / Timestamp JSON). Input accepts any UTC offset and 0–9
 * fractional digits; output is always UTC `Z`. Browser-safe: no Node APIs.
 */
import { ApiError } from "./api-error";

/** google.protobuf.Duration's own bound: ±315,576,000,000 s (10,000 years). */
export const MAX_DURATION_SECONDS = 315_576_000_000;

const DURATION_PATTERN = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/;
const TIMESTAMP_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Why `text` is not a duration, or undefined when it is one. Negative durations are valid
 * protobuf Durations; callers that need a non-negative one check the sign themselves.
 */
export function durationProblem(text: unknown): string | undefined {
  const usage = `a duration is seconds with up to 9 fractional digits followed by "s", like "3600s" or "1.5s"`;
  if (typeof text !== "string") return usage;
  const match = DURATION_PATTERN.exec(text);
  if (!match) return usage;
  if (Number(match[2]) > MAX_DURATION_SECONDS)
    return `a duration is at most ${MAX_DURATION_SECONDS}s`;
  return undefined;
}

/**
 * Parses a wire duration (`"3600s"`, `"0.25s"`, up to 9 fractional digits) into
 * milliseconds (fractional below a millisecond). Throws ApiError 400 naming `field`.
 */
export function parseDuration(text: string, field: string): number {
  const problem = durationProblem(text);
  if (problem) throw invalidValue(field, "Duration", text, problem);
  const [, sign, seconds, fraction] = DURATION_PATTERN.exec(text)!;
  const nanos = fraction ? Number(fraction.padEnd(9, "0")) : 0;
  const milliseconds = Number(seconds) * 1000 + nanos / 1e6;
  return sign ? -milliseconds : milliseconds;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Why `text` is not an RFC 3339 timestamp, or undefined when it is one. */
export function timestampProblem(text: unknown): string | undefined {
  const usage = `a timestamp is RFC 3339, like "2025-01-31T12:00:00Z" or "2025-01-31T13:00:00.5+01:00"`;
  if (typeof text !== "string") return usage;
  const match = TIMESTAMP_PATTERN.exec(text);
  if (!match) return usage;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = match[10] === undefined ? 0 : Number(match[10]);
  const offsetMinutes = match[11] === undefined ? 0 : Number(match[11]);
  if (
    year < 1 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  ) {
    return `the date or time of day does not exist; ${usage}`;
  }
  return undefined;
}

/**
 * Parses an RFC 3339 timestamp with any offset and 0–9 fractional digits into epoch
 * milliseconds (digits past the millisecond are dropped). Throws ApiError 400 naming `field`.
 */
export function parseTimestamp(text: string, field: string): number {
  const problem = timestampProblem(text);
  if (problem) throw invalidValue(field, "Timestamp", text, problem);
  const match = TIMESTAMP_PATTERN.exec(text)!;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const milliseconds = match[7] ? Number(match[7].padEnd(9, "0").slice(0, 3)) : 0;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 onto 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, milliseconds);
  const offsetMinutes = match[9]
    ? (match[9] === "-" ? -1 : 1) * (Number(match[10]) * 60 + Number(match[11]))
    : 0;
  return date.getTime() - offsetMinutes * 60_000;
}

/** Formats epoch milliseconds as RFC 3339 UTC: `2025-01-31T12:00:00Z` or `...:00.250Z`. */
export function formatTimestamp(milliseconds: number): string {
  const date = new Date(Math.floor(milliseconds));
  if (Number.isNaN(date.getTime()))
    throw new RangeError(`formatTimestamp: ${milliseconds} is not a time`);
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}

/**
 * The fractional digits the service writes in its resources' timestamps (recorded, files and
 * caches, 2025-2026): the times it stamps (createTime, updateTime) in microseconds, the
 * expiries it computes (expireTime, expirationTime: request time plus a duration) in
 * nanoseconds.
 */
export const STAMP_DIGITS = 6;
export const EXPIRY_DIGITS = 9;

/**
 * Formats epoch milliseconds as RFC 3339 UTC with exactly `digits` fractional digits, as the
 * service writes its resources' times. Digits past the millisecond are zeros: our clock and
 * stores keep milliseconds.
 */
export function formatTimestampDigits(milliseconds: number, digits: 3 | 6 | 9): string {
  const whole = formatTimestamp(milliseconds);
  const [seconds, fraction = ""] = whole.slice(0, -1).split(".");
  return `${seconds}.${fraction.padEnd(3, "0").padEnd(digits, "0")}Z`;
}

/**
 * Formats milliseconds as a wire duration: whole seconds as `"3600s"`, otherwise 3, 6 or 9
 * fractional digits as the service writes them (`"1.500s"`, `"0.000250s"`).
 */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds))
    throw new RangeError(`formatDuration: ${milliseconds} is not a duration`);
  const sign = milliseconds < 0 ? "-" : "";
  const totalNanos = BigInt(Math.round(Math.abs(milliseconds) * 1e6));
  const seconds = totalNanos / 1_000_000_000n;
  const nanos = totalNanos % 1_000_000_000n;
  if (nanos === 0n) return `${sign}${seconds}s`;
  let fraction = nanos.toString().padStart(9, "0");
  while (fraction.endsWith("000")) fraction = fraction.slice(0, -3);
  return `${sign}${seconds}.${fraction}s`;
}

function invalidValue(
  field: string,
  type: "Duration" | "Timestamp",
  text: unknown,
  problem: string,
): ApiError {
  const rendered = typeof text === "string" ? JSON.stringify(text) : String(text);
  const message = `Invalid value at '${field}' (type.googleapis.com/google.protobuf.${type}), ${rendered}: ${problem}.`;
  return ApiError.invalidArgument(message, [{ field, description: `${problem}.` }]);
}
