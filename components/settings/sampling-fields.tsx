"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { Field, inputClassName } from "@/components/ui/field";
import { NumberField } from "./number-field";
import { Section, type SettingsFieldsProps } from "./settings-fields";

/**
 * Sampling: temperature, top P/K, seed, lengths, candidates, penalties, stop sequences.
 * Long as a list is long: eight NumberFields side by side, read top to bottom as the form shows them.
 */
export function SamplingFields({ settings, traits, setConfig, errorsOf }: SettingsFieldsProps) {
  const config = settings.generationConfig;
  return (
    <Section title="Sampling">
      <div className="grid grid-cols-2 gap-3">
        <NumberField
          label="Temperature"
          errors={errorsOf("temperature")}
          hint={traits ? `0–${traits.maxTemperature}, default ${traits.temperature}` : undefined}
          step={0.05}
          min={0}
          max={traits?.maxTemperature ?? 2}
          value={config.temperature}
          placeholder={traits ? `${traits.temperature}, the default` : undefined}
          onChange={(value) => setConfig({ temperature: value })}
        />
        <NumberField
          label="Top P"
          errors={errorsOf("top_p")}
          hint={traits ? `0–1, default ${traits.topP}` : undefined}
          step={0.05}
          min={0}
          max={1}
          value={config.topP}
          placeholder={traits ? `${traits.topP}, the default` : undefined}
          onChange={(value) => setConfig({ topP: value })}
        />
        {traits?.topK !== undefined || config.topK !== undefined ? (
          <NumberField
            label="Top K"
            errors={errorsOf("top_k")}
            hint={traits?.topK !== undefined ? `default ${traits.topK}` : "this model has no topK"}
            step={1}
            min={1}
            value={config.topK}
            placeholder={traits?.topK !== undefined ? `${traits.topK}, the default` : undefined}
            onChange={(value) => setConfig({ topK: value })}
          />
        ) : null}
        <NumberField
          label="Seed"
          errors={errorsOf("seed")}
          hint="Same seed, same answer"
          step={1}
          value={config.seed}
          placeholder={"random, the default"}
          onChange={(value) => setConfig({ seed: value })}
        />
        <NumberField
          label="Max output tokens"
          errors={errorsOf("max_output_tokens")}
          hint={traits ? `1–${formatNumber(traits.outputTokenLimit)}` : undefined}
          step={1}
          min={1}
          max={traits?.outputTokenLimit}
          value={config.maxOutputTokens}
          placeholder={traits ? `${traits.outputTokenLimit}, the default` : undefined}
          onChange={(value) => setConfig({ maxOutputTokens: value })}
        />
        <NumberField
          label="Candidate count"
          errors={errorsOf("candidate_count")}
          hint={traits?.singleCandidateOnly ? "one only on this model" : "default 1"}
          step={1}
          min={1}
          max={8}
          value={config.candidateCount}
          placeholder={"1, the default"}
          onChange={(value) => setConfig({ candidateCount: value })}
        />
        <NumberField
          label="Presence penalty"
          errors={errorsOf("presence_penalty")}
          step={0.1}
          value={config.presencePenalty}
          placeholder={"0, the default"}
          onChange={(value) => setConfig({ presencePenalty: value })}
        />
        <NumberField
          label="Frequency penalty"
          errors={errorsOf("frequency_penalty")}
          step={0.1}
          value={config.frequencyPenalty}
          placeholder={"0, the default"}
          onChange={(value) => setConfig({ frequencyPenalty: value })}
        />
      </div>
      <StopSequencesField
        stopSequences={config.stopSequences}
        errors={errorsOf("stop_sequences")}
        onChange={(stopSequences) => setConfig({ stopSequences })}
      />
    </Section>
  );
}

/** Stop sequences one per line; an empty box leaves the field out of the request. */
function StopSequencesField({
  stopSequences,
  errors,
  onChange,
}: {
  stopSequences: string[] | undefined;
  errors: string[] | undefined;
  onChange(stopSequences: string[] | undefined): void;
}) {
  return (
    <Field label="Stop sequences (one per line, at most 5)" errors={errors}>
      {(props) => (
        <textarea
          {...props}
          rows={2}
          value={(stopSequences ?? []).join("\n")}
          onChange={(event) => {
            const lines = event.target.value.split("\n");
            onChange(lines.length === 1 && lines[0] === "" ? undefined : lines);
          }}
          className={`${inputClassName} font-mono`}
        />
      )}
    </Field>
  );
}
