"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { modalityBreakdown } from "@/components/tokens/token-counter";
import { knowsCacheMinimum } from "@/lib/gemini/cache-minimums";
import type { TokenCountState } from "@/lib/hooks/use-token-count";

/**
 * What the cache would hold, counted before it is created (countTokens of exactly what will be
 * cached), against the model's minimum: the service refuses a cache under it.
 */
export function CacheSizeStatus({
  nothing,
  waitingForConversation,
  size,
  model,
  minimum,
  tooSmall,
}: {
  /** Nothing chosen to cache yet. */
  nothing: boolean;
  waitingForConversation: boolean;
  size: TokenCountState;
  model: string;
  minimum: number;
  tooSmall: boolean;
}) {
  const total = size.result?.totalTokens;
  return (
    <div
      role="status"
      aria-live="polite"
      className="rounded-md bg-zinc-100 px-3 py-2 text-sm dark:bg-zinc-900"
      data-testid="cache-size"
    >
      {nothing ? (
        waitingForConversation ? (
          "Loading the conversation…"
        ) : (
          "Choose a conversation and/or files to cache."
        )
      ) : total === undefined ? (
        size.error ? (
          `Could not count the tokens: ${size.error.message}`
        ) : (
          "Counting the tokens…"
        )
      ) : (
        <>
          Size:{" "}
          <strong className="tabular-nums" data-cache-size={total}>
            {formatNumber(total)}
          </strong>{" "}
          tokens
          {size.counting ? " (updating…)" : ""} · minimum for {model.replace(/^models\//, "")}:{" "}
          <strong className="tabular-nums">{formatNumber(minimum)}</strong>
          {!knowsCacheMinimum(model) && " (assumed)"}
          {modalityBreakdown(size.result?.promptTokensDetails) && (
            <> · {modalityBreakdown(size.result?.promptTokensDetails)}</>
          )}
          {tooSmall && (
            <span className="mt-1 block font-medium text-red-700 dark:text-red-400">
              Too small: the service refuses caches under {formatNumber(minimum)} tokens for this
              model. Add contents or choose another model.
            </span>
          )}
        </>
      )}
    </div>
  );
}
