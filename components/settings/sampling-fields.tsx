"use client";

import { Field, inputClassName } from "@/components/ui/field";
import { NumberInput } from "./number-input";
import { Section, type SettingsFieldsProps } from "./settings-fields";

/** Sampling: temperature, top P/K, seed, lengths, candidates, penalties, stop sequences. */
export function SamplingFields({ settings, traits, setConfig, errorsOf }: SettingsFieldsProps) {
  const config = settings.generationConfig;
  return (
    <Section title="Sampling">
      <div className="grid grid-cols-2 gap-3">
        <Field
          label="Temperature"
          errors={errorsOf("temperature")}
          hint={traits ? `0–${traits.maxTemperature}, default ${traits.temperature}` : undefined}
        >
          {(props) => (
            <NumberInput
              {...props}
              step={0.05}
              min={0}
              max={traits?.maxTemperature ?? 2}
              value={config.temperature}
              placeholder={traits ? `${traits.temperature}, the default` : undefined}
              onChange={(value) => setConfig({ temperature: value })}
            />
          )}
        </Field>
        <Field
          label="Top P"
          errors={errorsOf("top_p")}
          hint={traits ? `0–1, default ${traits.topP}` : undefined}
        >
          {(props) => (
            <NumberInput
              {...props}
              step={0.05}
              min={0}
              max={1}
              value={config.topP}
              placeholder={traits ? `${traits.topP}, the default` : undefined}
              onChange={(value) => setConfig({ topP: value })}
            />
          )}
        </Field>
        {traits?.topK !== undefined || config.topK !== undefined ? (
          <Field
            label="Top K"
            errors={errorsOf("top_k")}
            hint={traits?.topK !== undefined ? `default ${traits.topK}` : "this model has no topK"}
          >
            {(props) => (
              <NumberInput
                {...props}
                step={1}
                min={1}
                value={config.topK}
                placeholder={traits?.topK !== undefined ? `${traits.topK}, the default` : undefined}
                onChange={(value) => setConfig({ topK: value })}
              />
            )}
          </Field>
        ) : null}
        <Field label="Seed" errors={errorsOf("seed")} hint="Same seed, same answer">
          {(props) => (
            <NumberInput
              {...props}
              step={1}
              value={config.seed}
              placeholder={"random, the default"}
              onChange={(value) => setConfig({ seed: value })}
            />
          )}
        </Field>
        <Field
          label="Max output tokens"
          errors={errorsOf("max_output_tokens")}
          hint={traits ? `1–${traits.outputTokenLimit.toLocaleString("en")}` : undefined}
        >
          {(props) => (
            <NumberInput
              {...props}
              step={1}
              min={1}
              max={traits?.outputTokenLimit}
              value={config.maxOutputTokens}
              placeholder={traits ? `${traits.outputTokenLimit}, the default` : undefined}
              onChange={(value) => setConfig({ maxOutputTokens: value })}
            />
          )}
        </Field>
        <Field
          label="Candidate count"
          errors={errorsOf("candidate_count")}
          hint={traits?.singleCandidateOnly ? "one only on this model" : "default 1"}
        >
          {(props) => (
            <NumberInput
              {...props}
              step={1}
              min={1}
              max={8}
              value={config.candidateCount}
              placeholder={"1, the default"}
              onChange={(value) => setConfig({ candidateCount: value })}
            />
          )}
        </Field>
        <Field label="Presence penalty" errors={errorsOf("presence_penalty")}>
          {(props) => (
            <NumberInput
              {...props}
              step={0.1}
              value={config.presencePenalty}
              placeholder={"0, the default"}
              onChange={(value) => setConfig({ presencePenalty: value })}
            />
          )}
        </Field>
        <Field label="Frequency penalty" errors={errorsOf("frequency_penalty")}>
          {(props) => (
            <NumberInput
              {...props}
              step={0.1}
              value={config.frequencyPenalty}
              placeholder={"0, the default"}
              onChange={(value) => setConfig({ frequencyPenalty: value })}
            />
          )}
        </Field>
      </div>
      <Field label="Stop sequences (one per line, at most 5)" errors={errorsOf("stop_sequences")}>
        {(props) => (
          <textarea
            {...props}
            rows={2}
            value={(config.stopSequences ?? []).join("\n")}
            onChange={(event) => {
              const lines = event.target.value.split("\n");
              setConfig({
                stopSequences: lines.length === 1 && lines[0] === "" ? undefined : lines,
              });
            }}
            className={`${inputClassName} font-mono`}
          />
        )}
      </Field>
    </Section>
  );
}
