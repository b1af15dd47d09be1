import { formatNumber } from "@/lib/studio/number-format";
import { memo } from "react";
import type { UsageMetadata } from "@/lib/gemini/types";

/** Token usage of one answer: prompt (of which cached), output, thoughts, total. */
export const UsageLine = memo(function UsageLine({ usage }: { usage: UsageMetadata | undefined }) {
  if (!usage) return null;
  const items: [string, number | undefined][] = [
    ["prompt", usage.promptTokenCount],
    ["cached", usage.cachedContentTokenCount],
    ["output", usage.candidatesTokenCount],
    ["thoughts", usage.thoughtsTokenCount],
    ["total", usage.totalTokenCount],
  ];
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400" data-usage="">
      <span className="sr-only">Token usage: </span>
      {items.map(([label, value], index) => (
        <span key={label}>
          {index > 0 && " · "}
          {label} <span className="tabular-nums">{formatNumber(value ?? 0)}</span>
        </span>
      ))}
    </p>
  );
});
