"use client";

import { ModelSelect } from "@/components/settings/model-select";
import type { ConversationSettingsState } from "@/lib/hooks/use-conversation-settings";

/**
 * The conversation's model, chosen in the chat header (the same setting as in the settings
 * panel). In a narrow header (a container query) it takes the width of its row, so the chosen
 * name stays readable.
 */
export function ModelPicker({ state }: { state: ConversationSettingsState }) {
  return (
    <label className="flex min-w-[10rem] flex-1 items-center gap-1 text-xs @2xl:flex-none">
      <span className="sr-only @2xl:not-sr-only">Model</span>
      <ModelSelect
        state={state}
        className="w-full min-w-0 truncate rounded-md border border-zinc-300 bg-white px-1 py-1 text-xs text-zinc-900 @2xl:w-auto @2xl:max-w-[16rem] dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
      />
    </label>
  );
}
