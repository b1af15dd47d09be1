"use client";

import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { Button } from "@/components/ui/button";
import { RetryButton } from "./retry-button";

/** What is said under an answer that is short, missing or failed, and the actions that follow. */

const FINISH_REASON_TEXT: Record<string, string> = {
  MAX_TOKENS: "Stopped at the output token limit (MAX_TOKENS)",
  SAFETY: "Stopped for safety (SAFETY)",
  RECITATION: "Stopped for recitation (RECITATION)",
  LANGUAGE: "Unsupported language (LANGUAGE)",
  BLOCKLIST: "Blocked by a term list (BLOCKLIST)",
  PROHIBITED_CONTENT: "Prohibited content (PROHIBITED_CONTENT)",
  SPII: "Sensitive personal information (SPII)",
  MALFORMED_FUNCTION_CALL: "Malformed function call (MALFORMED_FUNCTION_CALL)",
  OTHER: "Stopped for another reason (OTHER)",
};

/** Whether an answer failed because the conversation's cache is gone (expired, deleted or not the caller's). */
function failedOnDeadCache(message: StoredMessage): boolean {
  return (
    Boolean(message.settings?.cachedContent) &&
    message.error?.status === "PERMISSION_DENIED" &&
    /cachedcontent/i.test(message.error.message)
  );
}

/** Why an answer is short or missing: nothing returned, stopped, interrupted, another finish reason. */
export function AnswerNotes({
  message,
  streaming,
  empty,
  finishReason,
  candidateBlocked,
}: {
  message: StoredMessage;
  streaming: boolean;
  empty: boolean;
  finishReason: string | undefined;
  /** The blocked card already says why. */
  candidateBlocked: boolean;
}) {
  return (
    <>
      {empty && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          The model returned no answer text
          {finishReason === "MAX_TOKENS" && (message.usageMetadata?.thoughtsTokenCount ?? 0) > 0
            ? ": thinking used the whole output token limit"
            : ""}
          .
        </p>
      )}
      {message.stopped && (
        <p
          className="text-xs font-medium text-amber-800 dark:text-amber-300"
          data-message-status="stopped"
        >
          Stopped — the answer above is partial.
        </p>
      )}
      {message.interrupted && !streaming && (
        <p
          role="status"
          className="text-xs font-medium text-amber-800 dark:text-amber-300"
          data-message-status="interrupted"
        >
          Interrupted — the studio server stopped before this answer was finished; the text above is
          partial. Regenerate to ask again.
        </p>
      )}
      {finishReason && finishReason !== "STOP" && !candidateBlocked && (
        <p
          className="text-xs font-medium text-amber-800 dark:text-amber-300"
          data-finish-reason={finishReason}
        >
          {FINISH_REASON_TEXT[finishReason] ?? finishReason}
        </p>
      )}
    </>
  );
}

/** A failed answer: the service's error as sent, Retry, and going on without a cache that is gone. */
export function AnswerError({
  message,
  error,
  canAct,
  onRetry,
  onContinueWithoutCache,
}: {
  message: StoredMessage;
  error: NonNullable<StoredMessage["error"]>;
  canAct: boolean;
  onRetry(): void;
  onContinueWithoutCache(): void;
}) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
    >
      <p className="font-semibold">
        Error {error.code || ""} {error.status}
      </p>
      <p className="whitespace-pre-wrap">{error.message}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <RetryButton error={error} onRetry={onRetry} disabled={!canAct} />
        {failedOnDeadCache(message) && (
          <Button size="sm" onClick={onContinueWithoutCache} disabled={!canAct}>
            Continue without the cache
          </Button>
        )}
      </div>
    </div>
  );
}
