"use client";

import { NumberField } from "./number-field";
import { withNestedField } from "@/lib/studio/settings-model";
import { Checkbox, Section, type SettingsFieldsProps } from "./settings-fields";

/** Thinking: thought summaries and the budget, for models that think. */
export function ThinkingFields({ settings, traits, setConfig, errorsOf }: SettingsFieldsProps) {
  const config = settings.generationConfig;
  if (!traits?.thinking && !config.thinkingConfig) return null;
  return (
    <Section title="Thinking">
      <Checkbox
        label="Include thought summaries"
        checked={config.thinkingConfig?.includeThoughts ?? false}
        errors={errorsOf("thinking_config")}
        onChange={(checked) =>
          setConfig({
            thinkingConfig: withNestedField(
              config.thinkingConfig,
              "includeThoughts",
              checked || undefined,
            ),
          })
        }
      />
      <NumberField
        label="Thinking budget (tokens)"
        hint={
          traits?.thinking
            ? `${traits.thinking.minBudget}–${traits.thinking.maxBudget}, -1 dynamic, ${traits.thinking.canDisable ? "0 off" : "0 not accepted (this model always thinks)"}; empty = model default`
            : undefined
        }
        step={1}
        value={config.thinkingConfig?.thinkingBudget}
        placeholder={
          traits?.thinking
            ? `${traits.thinking.defaultBudget}${traits.thinking.defaultBudget === -1 ? " (dynamic)" : traits.thinking.defaultBudget === 0 ? " (off)" : ""}, the default`
            : undefined
        }
        onChange={(value) =>
          setConfig({
            thinkingConfig: withNestedField(config.thinkingConfig, "thinkingBudget", value),
          })
        }
      />
    </Section>
  );
}
