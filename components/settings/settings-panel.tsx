"use client";

import { Field, inputClassName } from "@/components/ui/field";
import type { ConversationSettingsState } from "@/lib/hooks/use-conversation-settings";
import type { GenerationConfig } from "@/lib/gemini/types";
import { violationCount, withGenerationConfig } from "@/lib/studio/settings-model";
import { ModelField } from "./model-field";
import { PresetFields } from "./preset-fields";
import { OutputFields } from "./output-fields";
import { SafetySettingsFields } from "./safety-settings-fields";
import { SamplingFields } from "./sampling-fields";
import { Section, type SettingsFieldsProps } from "./settings-fields";
import { ThinkingFields } from "./thinking-fields";
import { ToolFields } from "./tool-fields";

type ConfigKey = keyof GenerationConfig;

export interface SettingsPanelProps {
  state: ConversationSettingsState;
  onClose(): void;
}

/** Every setting of a conversation, validated inline with the server's rules as they are typed. */
export function SettingsPanel({ state, onClose }: SettingsPanelProps) {
  const { settings, traits, facts, violations, update, key } = state;
  const errorsOf = (field: string) => violations[field];
  const setConfig = (changes: Partial<Record<ConfigKey, unknown>>) =>
    update(withGenerationConfig(settings, changes));
  const fields: SettingsFieldsProps = {
    settingsKey: key,
    settings,
    facts,
    traits,
    update,
    setConfig,
    errorsOf,
  };

  return (
    <form
      aria-label="Chat settings"
      className="flex flex-col gap-4 p-4"
      onSubmit={(event) => event.preventDefault()}
    >
      <PanelHeader onClose={onClose} />
      <ViolationSummary total={violationCount(violations)} />
      <ModelField state={state} errors={errorsOf("model")} />
      <Field label="System instruction" errors={errorsOf("system_instruction")}>
        {(props) => (
          <textarea
            {...props}
            rows={3}
            value={settings.systemInstruction}
            onChange={(event) => update({ ...settings, systemInstruction: event.target.value })}
            placeholder="How the model should behave"
            className={inputClassName}
          />
        )}
      </Field>

      <SamplingFields {...fields} />
      <OutputFields {...fields} />
      <ThinkingFields {...fields} />
      <Section title="Safety thresholds">
        <SafetySettingsFields settings={settings} traits={traits} onChange={update} />
      </Section>

      <ToolFields {...fields} />
      <PresetFields state={state} />
    </form>
  );
}

function PanelHeader({ onClose }: { onClose(): void }) {
  return (
    <div className="flex items-center justify-between">
      <h2 className="text-base font-semibold">Settings</h2>
      <button
        type="button"
        onClick={onClose}
        className="rounded-md px-2 py-1 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
        aria-label="Close settings"
      >
        ✕
      </button>
    </div>
  );
}

/** How many settings break a rule; sending waits until none do. */
function ViolationSummary({ total }: { total: number }) {
  if (total === 0) return null;
  return (
    <p
      role="status"
      className="rounded-md bg-red-50 px-2 py-1 text-xs text-red-800 dark:bg-red-950/50 dark:text-red-300"
    >
      {total === 1 ? "1 setting needs fixing" : `${total} settings need fixing`} before sending.
    </p>
  );
}
