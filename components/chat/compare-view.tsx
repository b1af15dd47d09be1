"use client";

import { useCallback, useMemo, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { SettingsPanel } from "@/components/settings/settings-panel";
import { Button } from "@/components/ui/button";
import { useCompareActions } from "@/lib/hooks/use-compare-actions";
import { useSettingsState } from "@/lib/hooks/use-conversation-settings";
import { useModels } from "@/lib/hooks/use-models";
import type { ModelFacts } from "@/lib/studio/model-facts";
import { validateSettings, violationCount } from "@/lib/studio/settings-model";
import { MAX_PANES, MIN_PANES, type ComparePane } from "@/lib/chat-client/compare-state";
import { useCompareStore } from "@/lib/stores/compare-store";
import { Composer } from "./composer";
import { PaneView } from "./compare-pane";

/** Draft key of the compare prompt (kept apart from the chat's own draft). */
const COMPARE_DRAFT_KEY = "compare";

/**
 * Compare mode: the prompt goes to every pane at once; each pane (compare-pane.tsx) streams its
 * answer with its own model and settings, and one answer is picked to continue the conversation.
 * The page's one layout: the pane being set is the state its parts share.
 */
export function CompareView({
  conversationId,
  onClose,
}: {
  conversationId: string | null;
  onClose(): void;
}) {
  const [settingsKey, setSettingsKey] = useState<string | null>(null);
  const paneKeys = useCompareStore(useShallow((state) => state.panes.map((pane) => pane.key)));
  const running = useCompareStore((state) =>
    state.panes.some((pane) => pane.run?.status === "sending" || pane.run?.status === "streaming"),
  );
  const setPaneCount = useCompareStore((state) => state.setPaneCount);
  const toggleSettings = useCallback(
    (key: string) => setSettingsKey((open) => (open === key ? null : key)),
    [],
  );

  return (
    <div className="flex min-h-0 min-w-0 flex-1">
      <section
        aria-labelledby="compare-title"
        className="flex min-h-0 min-w-0 flex-1 flex-col"
        data-compare=""
      >
        <CompareHeader
          paneCount={paneKeys.length}
          running={running}
          onPaneCount={setPaneCount}
          onClose={onClose}
        />
        <PaneGrid
          paneKeys={paneKeys}
          running={running}
          settingsKey={settingsKey}
          onOpenSettings={toggleSettings}
        />
        <CompareComposer conversationId={conversationId} running={running} />
      </section>
      <PaneSettingsAside
        paneKey={settingsKey}
        paneKeys={paneKeys}
        onClose={() => setSettingsKey(null)}
      />
    </div>
  );
}

/** The panes, two to four columns wide on wider screens; an answer can be picked once none runs. */
function PaneGrid({
  paneKeys,
  running,
  settingsKey,
  onOpenSettings,
}: {
  paneKeys: string[];
  running: boolean;
  /** The pane whose settings are open. */
  settingsKey: string | null;
  onOpenSettings(key: string): void;
}) {
  const actions = useCompareActions();
  const pick = useCallback((key: string) => actions.pick(key), [actions]);
  const columns = [
    "md:grid-cols-2",
    "md:grid-cols-2 xl:grid-cols-3",
    "md:grid-cols-2 xl:grid-cols-4",
  ][paneKeys.length - MIN_PANES];
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <div className={`grid grid-cols-1 gap-3 px-3 py-3 ${columns}`}>
        {paneKeys.map((key, index) => (
          <PaneView
            key={key}
            paneKey={key}
            index={index}
            canPick={!running}
            settingsOpen={settingsKey === key}
            onOpenSettings={onOpenSettings}
            onPick={pick}
          />
        ))}
      </div>
    </div>
  );
}

/** The one prompt for every pane; sending waits while a pane's settings break a rule. */
function CompareComposer({
  conversationId,
  running,
}: {
  conversationId: string | null;
  running: boolean;
}) {
  const panes = useCompareStore(useShallow((state) => state.panes.map((pane) => pane.settings)));
  const sending = useCompareStore((state) =>
    state.panes.some((pane) => pane.run?.status === "sending"),
  );
  const actions = useCompareActions();
  const models = useModels();
  const blockedPane = useMemo(() => firstBlockedPane(panes, models.data), [panes, models.data]);
  return (
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
  );
}

/** The settings of the pane being set, beside the panes (over them on a narrow screen). */
function PaneSettingsAside({
  paneKey,
  paneKeys,
  onClose,
}: {
  paneKey: string | null;
  paneKeys: string[];
  onClose(): void;
}) {
  const settingsPane = useCompareStore(
    (state) => state.panes.find((pane) => pane.key === paneKey) ?? null,
  );
  const setPaneSettings = useCompareStore((state) => state.setPaneSettings);
  if (!settingsPane) return null;
  return (
    <aside
      id="compare-settings"
      aria-label={`Settings of pane ${paneKeys.indexOf(settingsPane.key) + 1}`}
      className="absolute inset-0 z-30 overflow-y-auto bg-white md:static md:w-96 md:shrink-0 md:border-l md:border-zinc-200 dark:bg-zinc-950 md:dark:border-zinc-800"
    >
      <PaneSettings
        pane={settingsPane}
        onChange={(next) => setPaneSettings(settingsPane.key, next)}
        onClose={onClose}
      />
    </aside>
  );
}

/** The index of the first pane whose settings break a rule (sending waits for it), or -1. */
function firstBlockedPane(
  panes: ComparePane["settings"][],
  models: ModelFacts[] | undefined,
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
