"use client";

import { useEffect, useState } from "react";

/** The current time, refreshed every `intervalMs` (one timer per component using it). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Time left in words: "1 d 23 h", "5 h 7 min", "12 min 5 s", "9 s"; "expired" at or below zero. */
export function formatRemaining(milliseconds: number): string {
  if (!Number.isFinite(milliseconds)) return "—";
  if (milliseconds <= 0) return "expired";
  const seconds = Math.floor(milliseconds / 1000);
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${rest} s`;
  return `${rest} s`;
}

/** A date and time in the person's locale and zone, with seconds. */
export function formatDateTime(iso: string | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

/**
 * A live countdown to `expireTime`. Screen readers get the absolute time (a label that
 * changes every second would be read over and over).
 */
export function ExpiryCountdown({ expireTime, now }: { expireTime: string; now: number }) {
  const remaining = Date.parse(expireTime) - now;
  const expired = remaining <= 0;
  return (
    <time
      dateTime={expireTime}
      title={formatDateTime(expireTime)}
      data-expired={expired ? "" : undefined}
      className={`tabular-nums ${expired ? "font-medium text-red-700 dark:text-red-400" : ""}`}
    >
      <span aria-hidden="true">{expired ? "Expired" : `in ${formatRemaining(remaining)}`}</span>
      <span className="sr-only">
        {expired
          ? `Expired at ${formatDateTime(expireTime)}`
          : `Expires ${formatDateTime(expireTime)}`}
      </span>
    </time>
  );
}
