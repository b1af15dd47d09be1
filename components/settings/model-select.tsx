"use client";

import type { SelectHTMLAttributes } from "react";
import type { ConversationSettingsState } from "@/lib/hooks/use-conversation-settings";
import { useChatStore } from "@/lib/stores/chat-store";
import { factsOf, groupByPurpose } from "@/lib/studio/model-facts";
import { settingsForModel } from "@/lib/studio/model-switch";

/**
 * The model choice, grouped by what the models do, each model once under a name no other
 * shows. Choosing one moves the settings to it (lib/studio/model-switch.ts): what it cannot
 * take is cleared, what it needs is set, and what changed is said in the chat's notice. A model
 * no longer listed stays shown so it can be changed.
 */
export function ModelSelect({
  state,
  ...props
}: { state: ConversationSettingsState } & Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "value" | "onChange" | "children"
>) {
  const { settings, models, update } = state;
  const setNotice = useChatStore((store) => store.setNotice);
  const listed = factsOf(models, settings.model) !== undefined;
  return (
    <select
      {...props}
      value={settings.model}
      onChange={(event) => {
        const next = event.target.value;
        const moved = settingsForModel(settings, next, factsOf(models, next));
        update(moved.settings);
        if (moved.changes.length) setNotice({ kind: "info", text: moved.changes.join(" ") });
      }}
    >
      {!listed && <option value={settings.model}>{settings.model.replace(/^models\//, "")}</option>}
      {groupByPurpose(models ?? []).map((group) => (
        <optgroup key={group.purpose} label={group.label}>
          {group.models.map((facts) => (
            <option key={facts.model.name} value={facts.model.name}>
              {facts.label}
              {facts.chats ? "" : " (not for chat)"}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
