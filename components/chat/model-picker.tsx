"use client";

import type { ConversationSettingsState } from "@/lib/hooks/use-conversation-settings";
import { settingsForModel } from "@/lib/studio/settings-model";

/** The conversation's model, chosen in the chat header (the same setting as in the settings panel). */
export function ModelPicker({ state }: { state: ConversationSettingsState }) {
  const { settings, models, update } = state;
  return (
    <label className="flex min-w-0 items-center gap-1 text-xs">
      <span className="sr-only sm:not-sr-only">Model</span>
      <select
        value={settings.model}
        onChange={(event) => {
          const next = event.target.value;
          update(
            settingsForModel(
              settings,
              next,
              models?.find((choice) => choice.model.name === next)?.traits,
            ),
          );
        }}
        className="max-w-[10rem] min-w-0 truncate rounded-md border border-zinc-300 bg-white px-1 py-1 text-xs text-zinc-900 sm:max-w-[14rem] dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
      >
        {!models?.some((choice) => choice.model.name === settings.model) && (
          <option value={settings.model}>{settings.model.replace(/^models\//, "")}</option>
        )}
        {models?.map(({ model }) => (
          <option key={model.name} value={model.name}>
            {model.displayName ?? model.name}
          </option>
        ))}
      </select>
    </label>
  );
}
