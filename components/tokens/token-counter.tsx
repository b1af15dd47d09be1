"use client";

import { formatNumber } from "@/lib/studio/number-format";
import type { TokenCountState } from "@/lib/hooks/use-token-count";
import type { ModalityTokenCount } from "@/lib/gemini/types";

const MODALITY_LABELS: Record<string, string> = {
  TEXT: "text",
  IMAGE: "image",
  AUDIO: "audio",
  VIDEO: "video",
  DOCUMENT: "document",
  MODALITY_UNSPECIFIED: "other",
};

function number(value: number): string {
  return formatNumber(value);
}

/** "text 1,200 · image 258" from per-modality counts (largest first). */
export function modalityBreakdown(details: readonly ModalityTokenCount[] | undefined): string {
  if (!details?.length) return "";
  return [...details]
    .sort((left, right) => right.tokenCount - left.tokenCount)
    .map(
      (detail) =>
        `${MODALITY_LABELS[detail.modality] ?? detail.modality.toLowerCase()} ${number(detail.tokenCount)}`,
    )
    .join(" · ");
}

/** Whether a count is over the model's input limit. */
export function isOverLimit(
  totalTokens: number | undefined,
  inputLimit: number | undefined,
): boolean {
  return (
    totalTokens !== undefined &&
    inputLimit !== undefined &&
    inputLimit > 0 &&
    totalTokens > inputLimit
  );
}

export interface TokenCounterProps {
  state: TokenCountState;
  /** The model's input token limit. */
  inputLimit: number | undefined;
  modelName: string;
  /** Attachments that are not counted yet (still uploading or PROCESSING). */
  uncounted: number;
}

/**
 * The live size of the next request: total with a bar against the model's input limit, the
 * breakdown per modality, cached tokens when a cache is attached, and a warning over the limit.
 */
export function TokenCounter({ state, inputLimit, modelName, uncounted }: TokenCounterProps) {
  const total = state.result?.totalTokens;
  const cached = state.result?.cachedContentTokenCount;
  const limit = inputLimit ?? 0;
  const over = isOverLimit(total, inputLimit);
  const fraction = total !== undefined && limit > 0 ? Math.min(1, total / limit) : 0;
  const breakdown = modalityBreakdown(state.result?.promptTokensDetails);
  const model = modelName.replace(/^models\//, "");
  return (
    <section
      aria-label="Token count"
      aria-busy={state.counting}
      className="mt-1 flex flex-col gap-1 text-xs text-zinc-600 dark:text-zinc-400"
      data-testid="token-counter"
    >
      <div className="flex items-center gap-2">
        <TokenMeter total={total} limit={limit} over={over} fraction={fraction} />
        <p className={`min-w-0 flex-1 ${state.current ? "" : "italic"}`} aria-busy={!state.current}>
          {total === undefined ? (
            state.counting ? (
              "Counting tokens…"
            ) : (
              "Type or attach something to count its tokens."
            )
          ) : (
            <>
              <span
                className="font-medium tabular-nums text-zinc-800 dark:text-zinc-200"
                data-total-tokens={total}
              >
                {number(total)}
              </span>{" "}
              / {number(limit)} tokens
              {cached ? (
                <>
                  {" "}
                  · <span data-cached-tokens={cached}>{number(cached)} cached</span>
                </>
              ) : null}
              {breakdown && <span className="hidden sm:inline"> · {breakdown}</span>}
              {state.counting && <span> · updating…</span>}
            </>
          )}
        </p>
      </div>
      {breakdown && <p className="sm:hidden">{breakdown}</p>}
      {uncounted > 0 && (
        <p>
          {uncounted === 1 ? "1 attachment is" : `${uncounted} attachments are`} counted once
          ACTIVE.
        </p>
      )}
      {state.error && (
        <p className="text-red-700 dark:text-red-400">
          Could not count tokens: {state.error.message}
        </p>
      )}
      {over && total !== undefined && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-2 py-1 font-medium text-red-900 dark:bg-red-950/50 dark:text-red-200"
        >
          Over the input limit: this request is {number(total)} tokens and {model} accepts{" "}
          {number(limit)}. The service will refuse it; remove attachments, shorten the conversation
          or choose a model with a larger limit.
        </p>
      )}
    </section>
  );
}

/** The bar of the next request's tokens against the model's input limit (amber past 80%, red over). */
function TokenMeter({
  total,
  limit,
  over,
  fraction,
}: {
  total: number | undefined;
  limit: number;
  over: boolean;
  fraction: number;
}) {
  return (
    <div
      role="meter"
      aria-label="Input tokens of the next request"
      aria-valuemin={0}
      aria-valuemax={limit || undefined}
      aria-valuenow={total ?? 0}
      aria-valuetext={
        total === undefined
          ? "not counted yet"
          : `${number(total)} of ${number(limit)} input tokens`
      }
      className="h-1.5 w-24 shrink-0 overflow-hidden rounded-full bg-zinc-200 sm:w-40 dark:bg-zinc-800"
    >
      <div
        className={`h-full ${over ? "bg-red-600" : fraction > 0.8 ? "bg-amber-500" : "bg-emerald-600"}`}
        style={{ width: `${Math.max(fraction * 100, total ? 1 : 0)}%` }}
      />
    </div>
  );
}
