"use client";

import { memo, useCallback, useMemo, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { SettingsPanel } from "@/components/settings/settings-panel";
import { Button } from "@/components/ui/button";
import { useCompareActions } from "@/lib/hooks/use-compare-actions";
import { useSettingsState } from "@/lib/hooks/use-conversation-settings";
import { useModels, type ModelChoice } from "@/lib/hooks/use-models";
import { usePrices } from "@/lib/hooks/use-prices";
import { tokensPerSecond } from "@/lib/studio/answer-trace";
import { answerCost, formatCost } from "@/lib/studio/price-table";
import { defaultSettings, validateSettings, violationCount } from "@/lib/studio/settings-model";
import {
  MAX_PANES,
  MIN_PANES,
  useCompareStore,
  type ComparePane,
  type PaneRun,
} from "@/lib/stores/compare-store";
import { Composer } from "./composer";
import { PartsView } from "./message-parts";
import { ModelPicker } from "./model-picker";
import { UsageLine } from "./usage-line";

/** Draft key of the compare prompt (kept apart from the chat's own draft). */
const COMPARE_DRAFT_KEY = "compare";

function milliseconds(value: number | undefined): string {
  if (value === undefined) return "…";
  return value >= 10_000
    ? `${(value / 1000).toFixed(1)} s`
    : `${Math.round(value).toLocaleString("en")} ms`;
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
            <span className="tabular-nums">{Math.round(rate).toLocaleString("en")}</span> tokens/s
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

/** One pane; it reads only its own pane, so a pane's stream re-renders that pane alone. */
const PaneView = memo(function PaneView({
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

/**
 * Compare mode: the prompt goes to every pane at once; each pane streams its answer with its
 * own model and settings, and one answer is picked to continue the conversation. The page's
 * one layout: panes, composer and the settings of the pane being set share its state.
 */
export function CompareView({
  conversationId,
  onClose,
}: {
  conversationId: string | null;
  onClose(): void;
}) {
  const [settingsKey, setSettingsKey] = useState<string | null>(null);
  const panes = useCompareStore(useShallow((state) => state.panes.map((pane) => pane.settings)));
  const paneKeys = useCompareStore(useShallow((state) => state.panes.map((pane) => pane.key)));
  const running = useCompareStore((state) =>
    state.panes.some((pane) => pane.run?.status === "sending" || pane.run?.status === "streaming"),
  );
  const sending = useCompareStore((state) =>
    state.panes.some((pane) => pane.run?.status === "sending"),
  );
  const settingsPane = useCompareStore(
    (state) => state.panes.find((pane) => pane.key === settingsKey) ?? null,
  );
  const setPaneCount = useCompareStore((state) => state.setPaneCount);
  const setPaneSettings = useCompareStore((state) => state.setPaneSettings);
  const actions = useCompareActions();
  const models = useModels();
  const blockedPane = useMemo(() => firstBlockedPane(panes, models.data), [panes, models.data]);
  const toggleSettings = useCallback(
    (key: string) => setSettingsKey((open) => (open === key ? null : key)),
    [],
  );
  const pick = useCallback((key: string) => actions.pick(key), [actions]);
  const columns = [
    "md:grid-cols-2",
    "md:grid-cols-2 xl:grid-cols-3",
    "md:grid-cols-2 xl:grid-cols-4",
  ][panes.length - MIN_PANES];

  return (
    <div className="flex min-h-0 min-w-0 flex-1">
      <section
        aria-labelledby="compare-title"
        className="flex min-h-0 min-w-0 flex-1 flex-col"
        data-compare=""
      >
        <CompareHeader
          paneCount={panes.length}
          running={running}
          onPaneCount={setPaneCount}
          onClose={onClose}
        />
        <div className="min-h-0 flex-1 overflow-y-auto">
          <div className={`grid grid-cols-1 gap-3 px-3 py-3 ${columns}`}>
            {paneKeys.map((key, index) => (
              <PaneView
                key={key}
                paneKey={key}
                index={index}
                canPick={!running}
                settingsOpen={settingsKey === key}
                onOpenSettings={toggleSettings}
                onPick={pick}
              />
            ))}
          </div>
        </div>
        <div className="mx-auto w-full max-w-3xl px-3 pb-3">
          <Composer
            draftKey={COMPARE_DRAFT_KEY}
            streaming={running}
            sending={sending}
            onSend={(text) => void actions.send(conversationId, [{ text }])}
            onStop={() => actions.stop()}
            sendBlockedReason={
              blockedPane >= 0 ? `Fix the settings of pane ${blockedPane + 1} first.` : null
            }
          />
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
            Every pane answers the same prompt at once; each answer is kept as a version of it.
          </p>
        </div>
      </section>
      {settingsPane && (
        <aside
          id="compare-settings"
          aria-label={`Settings of pane ${paneKeys.indexOf(settingsPane.key) + 1}`}
          className="absolute inset-0 z-30 overflow-y-auto bg-white md:static md:w-96 md:shrink-0 md:border-l md:border-zinc-200 dark:bg-zinc-950 md:dark:border-zinc-800"
        >
          <PaneSettings
            pane={settingsPane}
            onChange={(next) => setPaneSettings(settingsPane.key, next)}
            onClose={() => setSettingsKey(null)}
          />
        </aside>
      )}
    </div>
  );
}

/** The index of the first pane whose settings break a rule (sending waits for it), or -1. */
function firstBlockedPane(
  panes: ComparePane["settings"][],
  models: ModelChoice[] | undefined,
): number {
  return panes.findIndex(
    (settings) =>
      violationCount(
        validateSettings(
          settings,
          models?.find((choice) => choice.model.name === settings.model)?.traits,
        ),
      ) > 0,
  );
}

/** Compare mode's toolbar: how many panes (fixed while they answer), and back to the chat. */
function CompareHeader({
  paneCount,
  running,
  onPaneCount,
  onClose,
}: {
  paneCount: number;
  running: boolean;
  onPaneCount(count: number): void;
  onClose(): void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
      <h1 id="compare-title" className="flex-1 text-base font-semibold">
        Compare answers
      </h1>
      <label className="flex items-center gap-1 text-xs">
        Panes
        <select
          value={paneCount}
          disabled={running}
          onChange={(event) => onPaneCount(Number(event.target.value))}
          className="rounded-md border border-zinc-300 bg-white px-1 py-1 text-xs text-zinc-900 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
        >
          {Array.from({ length: MAX_PANES - MIN_PANES + 1 }, (_, offset) => (
            <option key={offset} value={MIN_PANES + offset}>
              {MIN_PANES + offset}
            </option>
          ))}
        </select>
      </label>
      <Button size="sm" onClick={onClose}>
        Back to the chat
      </Button>
    </div>
  );
}

function PaneSettings({
  pane,
  onChange,
  onClose,
}: {
  pane: ComparePane;
  onChange(settings: ComparePane["settings"]): void;
  onClose(): void;
}) {
  const state = useSettingsState(pane.key, pane.settings, onChange);
  return <SettingsPanel state={state} onClose={onClose} />;
}
