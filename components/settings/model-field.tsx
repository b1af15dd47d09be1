"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { Field, inputClassName } from "@/components/ui/field";
import type { ConversationSettingsState } from "@/lib/hooks/use-conversation-settings";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import { describeInputs } from "@/lib/gemini/model-uses";
import { purposeNote, type ModelFacts } from "@/lib/studio/model-facts";
import { ModelSelect } from "./model-select";

/** The thinking rule in words: its range, and whether 0 turns it off or the model always thinks. */
export function thinkingSummary(traits: ModelTraits): string {
  const thinking = traits.thinking;
  if (!thinking) return "no thinking";
  return `thinking (budget ${thinking.minBudget}–${thinking.maxBudget}, -1 dynamic, ${thinking.canDisable ? "0 turns it off" : "always thinks: 0 is not accepted"})`;
}

/** One line of what the chosen model takes and allows: inputs, limits, sampling, thinking, outputs. */
function factsSummary(facts: ModelFacts): string {
  const traits = facts.traits;
  const inputs = facts.inputs.length ? `takes ${describeInputs(facts.inputs)}` : null;
  if (!traits)
    return [inputs, "its other rules are the service's to judge (not in the local catalog)"]
      .filter(Boolean)
      .join(" · ");
  const items = [
    inputs,
    `${formatNumber(traits.inputTokenLimit)} input tokens`,
    `${formatNumber(traits.outputTokenLimit)} output tokens`,
    `temperature ${traits.temperature} (max ${traits.maxTemperature})`,
    `topP ${traits.topP}`,
    traits.topK !== undefined ? `topK ${traits.topK}` : "no topK",
    thinkingSummary(traits),
    traits.singleCandidateOnly ? "one candidate only" : null,
    `outputs ${traits.responseModalities.map((combination) => combination.join("+")).join(" or ")}`,
  ];
  return items.filter(Boolean).join(" · ");
}

/**
 * The model choice with what the model is for and a summary of its facts. Choosing another
 * model moves the settings to it (ModelSelect).
 */
export function ModelField({
  state,
  errors,
}: {
  state: ConversationSettingsState;
  errors: string[] | undefined;
}) {
  const { facts, models } = state;
  const note = facts ? purposeNote(facts) : null;
  return (
    <Field
      label="Model"
      errors={errors}
      hint={
        facts
          ? `${note ? `${note} ` : ""}${factsSummary(facts)}`
          : models
            ? undefined
            : "Loading models…"
      }
    >
      {(props) => <ModelSelect {...props} state={state} className={inputClassName} />}
    </Field>
  );
}
