"use client";

import { Field, inputClassName } from "@/components/ui/field";
import { MEDIA_RESOLUTIONS } from "@/lib/gemini/schemas/constants";
import { NumberField } from "./number-field";
import { ResponseFormatFields } from "./response-format-fields";
import { Checkbox, Section, type SettingsFieldsProps } from "./settings-fields";
import { SpeechFields } from "./speech-fields";

/** Output: format and schema, modalities, speech, media resolution, logprobs, civic answers. */
export function OutputFields(fields: SettingsFieldsProps) {
  const { settings, facts, setConfig, errorsOf } = fields;
  const config = settings.generationConfig;
  // Voices are a speech model's; a music model answers in audio without one.
  const speaks = facts?.purpose === "speech";
  return (
    <Section title="Output">
      <ResponseFormatFields {...fields} />
      <ResponseModalitiesField {...fields} />
      {(speaks || config.speechConfig) && <SpeechFields {...fields} />}
      <Field label="Media resolution" errors={errorsOf("media_resolution")}>
        {(props) => (
          <select
            {...props}
            value={config.mediaResolution ?? ""}
            onChange={(event) => setConfig({ mediaResolution: event.target.value || undefined })}
            className={inputClassName}
          >
            <option value="">Default (the model&apos;s own)</option>
            {MEDIA_RESOLUTIONS.filter((value) => value !== "MEDIA_RESOLUTION_UNSPECIFIED").map(
              (value) => (
                <option key={value} value={value}>
                  {value.replace("MEDIA_RESOLUTION_", "").toLowerCase()}
                </option>
              ),
            )}
          </select>
        )}
      </Field>
      <div className="grid grid-cols-2 items-end gap-3">
        <Checkbox
          label="Return logprobs"
          checked={config.responseLogprobs ?? false}
          errors={errorsOf("response_logprobs")}
          onChange={(checked) => setConfig({ responseLogprobs: checked || undefined })}
        />
        <NumberField
          label="Top logprobs per step"
          errors={errorsOf("logprobs")}
          step={1}
          min={0}
          value={config.logprobs}
          onChange={(value) => setConfig({ logprobs: value })}
        />
      </div>
      <Checkbox
        label="Enhanced civic answers"
        checked={config.enableEnhancedCivicAnswers ?? false}
        errors={errorsOf("enable_enhanced_civic_answers")}
        onChange={(checked) => setConfig({ enableEnhancedCivicAnswers: checked || undefined })}
      />
    </Section>
  );
}

/** Which modalities the answer may hold; only those the model offers, plus any already set. */
function ResponseModalitiesField({ settings, traits, setConfig, errorsOf }: SettingsFieldsProps) {
  const config = settings.generationConfig;
  // Anything already set stays offered, so it can be cleared.
  const offeredModalities = ["TEXT", "IMAGE", "AUDIO"].filter(
    (modality) =>
      traits === undefined ||
      traits.responseModalities.some((combination) => combination.includes(modality)) ||
      config.responseModalities?.includes(modality),
  );
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        Response modalities (none = text)
      </legend>
      <div className="flex gap-3">
        {offeredModalities.map((modality) => (
          <Checkbox
            key={modality}
            label={modality}
            checked={config.responseModalities?.includes(modality) ?? false}
            onChange={(checked) => {
              const next = (config.responseModalities ?? []).filter((item) => item !== modality);
              if (checked) next.push(modality);
              setConfig({ responseModalities: next.length ? next : undefined });
            }}
          />
        ))}
      </div>
      {errorsOf("response_modalities")?.map((error) => (
        <p key={error} className="text-xs text-red-700 dark:text-red-400" data-field-error="">
          {error}
        </p>
      ))}
    </fieldset>
  );
}
