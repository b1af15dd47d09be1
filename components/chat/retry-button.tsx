"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { retryWaitMs, type MessageError } from "@/lib/studio/message-error";

/**
 * Retry for a failed answer. An error that asked for a wait (a 429's Retry-After, kept as
 * `retryAt`) holds the button until then, counting down, so a retry is not refused again.
 */
export function RetryButton({
  error,
  disabled,
  onRetry,
}: {
  error: MessageError;
  disabled: boolean;
  onRetry(): void;
}) {
  const [now, setNow] = useState(() => Date.now());
  const waitMs = retryWaitMs(error, now);
  useEffect(() => {
    if (retryWaitMs(error) === 0) return;
    const timer = setInterval(() => {
      const time = Date.now();
      setNow(time);
      if (retryWaitMs(error, time) === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [error]);
  const seconds = Math.ceil(waitMs / 1000);
  return (
    <>
      <Button size="sm" onClick={onRetry} disabled={disabled || seconds > 0}>
        {seconds > 0 ? `Retry in ${seconds} s` : "Retry"}
      </Button>
      {seconds > 0 && (
        <span className="self-center text-xs" data-retry-after={seconds}>
          The service asked to wait before trying again.
        </span>
      )}
    </>
  );
}
