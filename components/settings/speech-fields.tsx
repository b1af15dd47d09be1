"use client";

import { Field, inputClassName } from "@/components/ui/field";
import { PREBUILT_VOICE_NAMES, SPEECH_LANGUAGE_CODES } from "@/lib/gemini/schemas/constants";
import { withNestedField } from "@/lib/studio/settings-model";
import type { SettingsFieldsProps } from "./settings-fields";

/** Voice and language of spoken answers (speechConfig), for models that answer in audio. */
export function SpeechFields({ settings, setConfig, errorsOf }: SettingsFieldsProps) {
  const config = settings.generationConfig;
  return (
    <div className="grid grid-cols-2 gap-3">
      <Field label="Voice" errors={errorsOf("speech_config")}>
        {(props) => (
          <select
            {...props}
            value={config.speechConfig?.voiceConfig?.prebuiltVoiceConfig?.voiceName ?? ""}
            onChange={(event) => {
              const voiceName = event.target.value;
              setConfig({
                speechConfig: withNestedField(
                  config.speechConfig,
                  "voiceConfig",
                  voiceName ? { prebuiltVoiceConfig: { voiceName } } : undefined,
                ),
              });
            }}
            className={inputClassName}
          >
            <option value="">Default (the model&apos;s voice)</option>
            {PREBUILT_VOICE_NAMES.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Speech language">
        {(props) => (
          <select
            {...props}
            value={config.speechConfig?.languageCode ?? ""}
            onChange={(event) =>
              setConfig({
                speechConfig: withNestedField(
                  config.speechConfig,
                  "languageCode",
                  event.target.value || undefined,
                ),
              })
            }
            className={inputClassName}
          >
            <option value="">Default (from the text)</option>
            {SPEECH_LANGUAGE_CODES.map((code) => (
              <option key={code}>{code}</option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
