"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { memo } from "react";
import { Button } from "@/components/ui/button";
import { useSettingsState } from "@/lib/hooks/use-conversation-settings";
import { usePrices } from "@/lib/hooks/use-prices";
import { tokensPerSecond } from "@/lib/studio/answer-trace";
import { answerCost, formatCost } from "@/lib/studio/price-table";
import { defaultSettings, violationCount } from "@/lib/studio/settings-model";
import type { ComparePane, PaneRun } from "@/lib/chat-client/compare-state";
import { useCompareStore } from "@/lib/stores/compare-store";
import { PartsView } from "./message-parts";
import { ModelPicker } from "./model-picker";
import { UsageLine } from "./usage-line";

function milliseconds(value: number | undefined): string {
  if (value === undefined) return "…";
  return value >= 10_000
    ? `${(value / 1000).toFixed(1)} s`
    : `${formatNumber(Math.round(value))} ms`;
}

const STATUS_TEXT: Record<PaneRun["status"], string> = {
  sending: "Sending…",
  streaming: "Streaming…",
  done: "Done",
  failed: "Failed",
};

/** Tokens, latency and cost of one pane's answer, as this page saw it. */
function PaneFacts({ pane, run }: { pane: ComparePane; run: PaneRun }) {
  const prices = usePrices();
  const usage = run.answer?.usageMetadata ?? run.response.usageMetadata;
  const rate =
    run.totalMs !== undefined
      ? tokensPerSecond({ firstTokenMs: run.firstTokenMs, totalMs: run.totalMs }, usage)
      : null;
  const cost = prices.data ? answerCost(usage, pane.settings.model, prices.data) : null;
  return (
    <div className="flex flex-col gap-0.5 text-xs text-zinc-600 dark:text-zinc-400">
      <p data-pane-latency="">
        <span data-fact="first-token">
          first token <span className="tabular-nums">{milliseconds(run.firstTokenMs)}</span>
        </span>
        {" · "}
        <span data-fact="total">
          total <span className="tabular-nums">{milliseconds(run.totalMs)}</span>
        </span>
        {rate !== null && (
          <span data-fact="rate">
            {" · "}
            <span className="tabular-nums">{formatNumber(Math.round(rate))}</span> tokens/s
          </span>
        )}
        {cost && (
          <span data-fact="cost">
            {" · "}cost <span className="tabular-nums">{formatCost(cost)}</span>
          </span>
        )}
      </p>
      <UsageLine usage={usage} />
    </div>
  );
}

const PaneAnswer = memo(function PaneAnswer({ run }: { run: PaneRun }) {
  const parts = run.response.candidates[0]?.content?.parts ?? [];
  const streaming = run.status === "sending" || run.status === "streaming";
  return (
    <div className="min-w-0 text-sm" data-pane-answer="" aria-busy={streaming}>
      <PartsView parts={parts} streaming={streaming} json={false} />
      {run.error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {run.error}
        </p>
      )}
    </div>
  );
});

/** One pane of compare mode; it reads only its own pane, so a pane's stream re-renders that pane alone. */
export const PaneView = memo(function PaneView({
  paneKey,
  index,
  canPick,
  settingsOpen,
  onOpenSettings,
  onPick,
}: {
  paneKey: string;
  index: number;
  canPick: boolean;
  settingsOpen: boolean;
  onOpenSettings(key: string): void;
  onPick(key: string): void;
}) {
  const pane = useCompareStore((state) => state.panes.find((item) => item.key === paneKey));
  const setPaneSettings = useCompareStore((state) => state.setPaneSettings);
  const state = useSettingsState(paneKey, pane?.settings ?? defaultSettings(), (next) =>
    setPaneSettings(paneKey, next),
  );
  const problems = violationCount(state.violations);
  if (!pane) return null;
  const run = pane.run;
  return (
    <section
      aria-label={`Pane ${index + 1}`}
      data-pane={index + 1}
      data-status={run?.status ?? "idle"}
      data-first-token-ms={run?.firstTokenMs?.toFixed(1)}
      data-total-ms={run?.totalMs?.toFixed(1)}
      className="flex min-w-0 flex-col gap-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">Pane {index + 1}</h2>
        <ModelPicker state={state} />
        <Button size="sm" onClick={() => onOpenSettings(paneKey)} aria-expanded={settingsOpen}>
          Settings{problems > 0 ? ` (${problems} to fix)` : ""}
        </Button>
        {run && (
          <span className="text-xs text-zinc-600 dark:text-zinc-400" role="status">
            {STATUS_TEXT[run.status]}
          </span>
        )}
      </div>
      {run && <PaneAnswer run={run} />}
      {run && <PaneFacts pane={pane} run={run} />}
      {run?.status === "done" && (
        <Button
          size="sm"
          onClick={() => onPick(paneKey)}
          disabled={!canPick}
          className="self-start"
        >
          Continue with this answer
        </Button>
      )}
    </section>
  );
});
