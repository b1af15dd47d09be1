/**
 * The expiration a person chooses for a cache, as the wire wants it: a ttl ("3600s") or an
 * expireTime (RFC 3339 UTC), with the problem in words when the input is not usable.
 */
import { durationProblem, formatTimestamp, timestampProblem } from "@/lib/gemini/wire-time";

export type ExpiryMode = "ttl" | "expireTime";
export type TtlUnit = "minutes" | "hours" | "days";

export interface ExpiryChoice {
  mode: ExpiryMode;
  /** Amount of `unit` (ttl mode). */
  amount: string;
  unit: TtlUnit;
  /** `datetime-local` value in the person's zone (expireTime mode). */
  localDateTime: string;
}

const UNIT_SECONDS: Record<TtlUnit, number> = { minutes: 60, hours: 3600, days: 86_400 };

export const DEFAULT_EXPIRY: ExpiryChoice = {
  mode: "ttl",
  amount: "1",
  unit: "hours",
  localDateTime: "",
};

/** The wire expiration for a choice, or the reason it cannot be used. */
export function expiryFields(
  choice: ExpiryChoice,
  now = Date.now(),
): { ttl: string } | { expireTime: string } | { problem: string } {
  if (choice.mode === "ttl") {
    const amount = Number(choice.amount);
    if (choice.amount.trim() === "" || !Number.isFinite(amount) || amount <= 0)
      return { problem: "Enter a time to live greater than 0." };
    const seconds = Math.round(amount * UNIT_SECONDS[choice.unit]);
    const ttl = `${seconds}s`;
    const problem = durationProblem(ttl);
    return problem ? { problem: `The time to live is not valid: ${problem}.` } : { ttl };
  }
  if (!choice.localDateTime) return { problem: "Choose the date and time the cache expires." };
  const time = new Date(choice.localDateTime).getTime();
  if (Number.isNaN(time)) return { problem: "The expiry time is not a valid date and time." };
  if (time <= now) return { problem: "The expiry time must be in the future." };
  const expireTime = formatTimestamp(time);
  const problem = timestampProblem(expireTime);
  return problem ? { problem } : { expireTime };
}

/** A `datetime-local` value (local zone, minutes) for epoch milliseconds. */
export function toLocalDateTimeValue(milliseconds: number): string {
  const date = new Date(milliseconds);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
