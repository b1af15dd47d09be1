"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { memo } from "react";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { usePrices } from "@/lib/hooks/use-prices";
import { tokensPerSecond } from "@/lib/studio/answer-trace";
import { answerCost, formatCost } from "@/lib/studio/price-table";

function milliseconds(value: number): string {
  return value >= 10_000
    ? `${(value / 1000).toFixed(1)} s`
    : `${formatNumber(Math.round(value))} ms`;
}

/**
 * Which model answered, how fast (time to first token, output tokens per second, total time)
 * and what it cost by the studio's price table.
 */
export const AnswerFacts = memo(function AnswerFacts({ message }: { message: StoredMessage }) {
  const prices = usePrices();
  const model = (message.modelVersion ?? message.settings?.model ?? "").replace(/^models\//, "");
  const timing = message.timing;
  const rate = timing ? tokensPerSecond(timing, message.usageMetadata) : null;
  const cost =
    prices.data && message.settings
      ? answerCost(message.usageMetadata, message.settings.model, prices.data)
      : null;
  const items: { key: string; label: string; value: string }[] = [];
  if (model) items.push({ key: "model", label: "Model", value: model });
  if (timing?.firstTokenMs !== undefined)
    items.push({
      key: "first-token",
      label: "first token",
      value: milliseconds(timing.firstTokenMs),
    });
  if (rate !== null)
    items.push({
      key: "rate",
      label: "",
      value: `${formatNumber(Math.round(rate))} tokens/s`,
    });
  if (timing) items.push({ key: "total", label: "total", value: milliseconds(timing.totalMs) });
  if (cost) items.push({ key: "cost", label: "cost", value: formatCost(cost) });
  if (items.length === 0) return null;
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400" data-answer-facts="">
      <span className="sr-only">Answer facts: </span>
      {items.map((item, index) => (
        <span key={item.key} data-fact={item.key}>
          {index > 0 && " · "}
          {item.label && `${item.label} `}
          <span className="tabular-nums">{item.value}</span>
        </span>
      ))}
    </p>
  );
});
