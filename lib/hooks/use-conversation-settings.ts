"use client";

import { useMemo } from "react";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import {
  defaultSettings,
  validateSettings,
  type SettingsViolations,
} from "@/lib/studio/settings-model";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import { factsOf, type ModelFacts } from "@/lib/studio/model-facts";
import { NEW_CHAT_KEY } from "@/lib/chat-client/chat-state";
import { useChatStore } from "@/lib/stores/chat-store";
import { useChatActions } from "./use-chat-actions";
import { useConversation } from "./use-conversations";
import { useModels } from "./use-models";
import { usePresets } from "./use-presets";
import { startingSettings } from "@/lib/studio/settings-presets";

export interface ConversationSettingsState {
  key: string;
  settings: ConversationSettings;
  models: ModelFacts[] | undefined;
  /** The chosen model's facts (undefined while the list loads, or when it is not listed). */
  facts: ModelFacts | undefined;
  /** Its rules (undefined too for a model the catalog knows nothing of: the service judges). */
  traits: ModelTraits | undefined;
  /** The server's rules broken by these settings, plus text that does not parse, by field. */
  violations: SettingsViolations;
  update(settings: ConversationSettings): void;
}

/**
 * The settings in force for a conversation and their validation: the draft, else the saved
 * ones; a new chat's from the person's default preset or the settings they used last in this
 * browser (lib/studio/settings-presets.ts), else the studio's defaults.
 */
export function useConversationSettings(conversationId: string | null): ConversationSettingsState {
  const key = conversationId ?? NEW_CHAT_KEY;
  const draft = useChatStore((state) => state.settingsDrafts[key]);
  const lastSettings = useChatStore((state) =>
    conversationId === null ? state.lastSettings : null,
  );
  const conversation = useConversation(conversationId);
  const presets = usePresets();
  const actions = useChatActions();
  const settings = useMemo(
    () =>
      draft ??
      conversation.data?.settings ??
      (conversationId === null ? startingSettings(presets.data, lastSettings) : null) ??
      defaultSettings(),
    [draft, conversation.data?.settings, lastSettings, conversationId, presets.data],
  );
  return useSettingsState(key, settings, (next) => actions.saveSettings(conversationId, next));
}

/**
 * Settings under `key` (a conversation's, or a compare pane's) with the model list, the chosen
 * model's traits and every rule they break (the server's, and text that does not parse yet).
 */
export function useSettingsState(
  key: string,
  settings: ConversationSettings,
  update: (settings: ConversationSettings) => void,
): ConversationSettingsState {
  const formErrors = useChatStore((state) => state.formErrors[key]);
  const models = useModels();
  const facts = factsOf(models.data, settings.model);
  const traits = facts?.traits;
  const violations = useMemo(() => {
    const grouped = validateSettings(settings, traits);
    for (const [field, error] of Object.entries(formErrors ?? {}))
      (grouped[field] ??= []).push(error);
    if (models.data && !facts)
      (grouped.model ??= []).push(`${settings.model} is not in the model list.`);
    return grouped;
  }, [settings, traits, formErrors, models.data, facts]);
  return { key, settings, models: models.data, facts, traits, violations, update };
}
