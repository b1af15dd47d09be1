"use client";

import { Field, inputClassName } from "@/components/ui/field";
import type { ModelChoice } from "@/lib/hooks/use-models";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import { settingsForModel } from "@/lib/studio/settings-model";

/** One line of what the chosen model accepts: limits, sampling defaults, thinking, outputs. */
function traitsSummary(traits: ModelTraits): string {
  const items = [
    `${traits.inputTokenLimit.toLocaleString("en")} input tokens`,
    `${traits.outputTokenLimit.toLocaleString("en")} output tokens`,
    `temperature ${traits.temperature} (max ${traits.maxTemperature})`,
    `topP ${traits.topP}`,
    traits.topK !== undefined ? `topK ${traits.topK}` : "no topK",
    traits.thinking
      ? `thinking (budget ${traits.thinking.minBudget}–${traits.thinking.maxBudget}${traits.thinking.canDisable ? ", 0 turns it off" : ""}, -1 dynamic)`
      : "no thinking",
    traits.singleCandidateOnly ? "one candidate only" : null,
    `outputs ${traits.responseModalities.map((combination) => combination.join("+")).join(" or ")}`,
  ];
  return items.filter(Boolean).join(" · ");
}

export interface ModelFieldProps {
  settings: ConversationSettings;
  models: ModelChoice[] | undefined;
  traits: ModelTraits | undefined;
  errors: string[] | undefined;
  update(settings: ConversationSettings): void;
}

/**
 * The model choice with a summary of its traits. Choosing another model carries the settings
 * over to it (settingsForModel); a model no longer listed stays shown so it can be changed.
 */
export function ModelField({ settings, models, traits, errors, update }: ModelFieldProps) {
  return (
    <Field
      label="Model"
      errors={errors}
      hint={traits ? traitsSummary(traits) : models ? undefined : "Loading models…"}
    >
      {(props) => (
        <select
          {...props}
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
          className={inputClassName}
        >
          {!models?.some((choice) => choice.model.name === settings.model) && (
            <option value={settings.model}>{settings.model}</option>
          )}
          {models?.map(({ model }) => (
            <option key={model.name} value={model.name}>
              {model.displayName ?? model.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
