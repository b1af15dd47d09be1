"use client";

import { useCallback, useMemo } from "react";
import { Field, inputClassName } from "@/components/ui/field";
import {
  MEDIA_RESOLUTIONS,
  PREBUILT_VOICE_NAMES,
  SPEECH_LANGUAGE_CODES,
} from "@/lib/gemini/schemas/constants";
import type { GenerationConfig, Schema } from "@/lib/gemini/types";
import { useChatStore } from "@/lib/stores/chat-store";
import { JsonEditor } from "./json-editor";
import { NumberInput } from "./number-input";
import { settingsFieldViolations, withNestedField } from "@/lib/studio/settings-model";
import { SchemaForm } from "./schema-form";
import { Checkbox, Section, type SettingsFieldsProps } from "./settings-fields";

type OutputMode = "text" | "json" | "enum";

function outputMode(config: GenerationConfig): OutputMode {
  if (config.responseMimeType === "application/json") return "json";
  if (config.responseMimeType === "text/x.enum") return "enum";
  return "text";
}

/** Output: format and schema, modalities, speech, media resolution, logprobs, civic answers. */
export function OutputFields({
  settingsKey,
  settings,
  traits,
  setConfig,
  errorsOf,
}: SettingsFieldsProps) {
  const config = settings.generationConfig;
  const setFormError = useChatStore((store) => store.setFormError);
  const schemaError = useCallback(
    (error: string | null) => setFormError(settingsKey, "response_schema", error),
    [settingsKey, setFormError],
  );
  const jsonSchemaError = useCallback(
    (error: string | null) => setFormError(settingsKey, "response_json_schema", error),
    [settingsKey, setFormError],
  );
  const mode = outputMode(config);
  const violations = useMemo(() => settingsFieldViolations(settings, traits), [settings, traits]);
  const schemaKind =
    config.responseJsonSchema !== undefined
      ? "json-schema"
      : config.responseSchema !== undefined
        ? "openapi"
        : "none";
  // Only what the model can answer with, plus anything already set (so it can be cleared).
  const offeredModalities = ["TEXT", "IMAGE", "AUDIO"].filter(
    (modality) =>
      traits === undefined ||
      traits.responseModalities.some((combination) => combination.includes(modality)) ||
      config.responseModalities?.includes(modality),
  );
  const supportsAudio =
    traits?.responseModalities.some((combination) => combination.includes("AUDIO")) ?? false;
  return (
    <Section title="Output">
      <Field label="Response format" errors={errorsOf("response_mime_type")}>
        {(props) => (
          <select
            {...props}
            value={mode}
            onChange={(event) => {
              const next = event.target.value as OutputMode;
              if (next === "text")
                setConfig({
                  responseMimeType: undefined,
                  responseSchema: undefined,
                  responseJsonSchema: undefined,
                });
              if (next === "json")
                setConfig({
                  responseMimeType: "application/json",
                  responseSchema: config.responseSchema?.enum ? undefined : config.responseSchema,
                });
              if (next === "enum")
                setConfig({
                  responseMimeType: "text/x.enum",
                  responseJsonSchema: undefined,
                  responseSchema: { type: "STRING", enum: config.responseSchema?.enum ?? [] },
                });
            }}
            className={inputClassName}
          >
            <option value="text">Text (text/plain)</option>
            <option value="json">JSON (application/json)</option>
            <option value="enum">Enum (text/x.enum)</option>
          </select>
        )}
      </Field>
      {mode === "json" && (
        <>
          <Field label="Schema kind">
            {(props) => (
              <select
                {...props}
                value={schemaKind}
                onChange={(event) => {
                  const kind = event.target.value;
                  if (kind === "none")
                    setConfig({ responseSchema: undefined, responseJsonSchema: undefined });
                  if (kind === "openapi")
                    setConfig({
                      responseJsonSchema: undefined,
                      responseSchema: config.responseSchema ?? { type: "OBJECT", properties: {} },
                    });
                  if (kind === "json-schema")
                    setConfig({
                      responseSchema: undefined,
                      responseJsonSchema: config.responseJsonSchema ?? {
                        type: "object",
                        properties: {},
                      },
                    });
                  schemaError(null);
                  jsonSchemaError(null);
                }}
                className={inputClassName}
              >
                <option value="none">No schema</option>
                <option value="openapi">responseSchema (OpenAPI subset)</option>
                <option value="json-schema">responseJsonSchema (JSON Schema)</option>
              </select>
            )}
          </Field>
          {schemaKind === "openapi" && config.responseSchema && (
            <SchemaForm
              schema={config.responseSchema}
              onChange={(responseSchema) => setConfig({ responseSchema })}
              label="Response schema"
              path="generation_config.response_schema"
              violations={violations}
            />
          )}
          {schemaKind === "openapi" && (
            <Field label="Response schema (JSON)" errors={errorsOf("response_schema")}>
              {(props) => (
                <JsonEditor
                  {...props}
                  value={config.responseSchema}
                  onChange={(value) => setConfig({ responseSchema: value as Schema | undefined })}
                  onParseError={schemaError}
                />
              )}
            </Field>
          )}
          {schemaKind === "json-schema" && (
            <Field label="Response JSON schema" errors={errorsOf("response_json_schema")}>
              {(props) => (
                <JsonEditor
                  {...props}
                  value={config.responseJsonSchema}
                  onChange={(value) => setConfig({ responseJsonSchema: value })}
                  onParseError={jsonSchemaError}
                />
              )}
            </Field>
          )}
        </>
      )}
      {mode === "enum" && (
        <Field label="Enum values (one per line)" errors={errorsOf("response_schema")}>
          {(props) => (
            <textarea
              {...props}
              rows={3}
              value={(config.responseSchema?.enum ?? []).join("\n")}
              onChange={(event) =>
                setConfig({
                  responseSchema: {
                    type: "STRING",
                    enum: event.target.value
                      .split("\n")
                      .filter((line, index, lines) => line !== "" || index === lines.length - 1),
                  },
                })
              }
              className={`${inputClassName} font-mono`}
            />
          )}
        </Field>
      )}
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
      {(supportsAudio || config.speechConfig) && (
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
      )}
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
        <Field label="Top logprobs per step" errors={errorsOf("logprobs")}>
          {(props) => (
            <NumberInput
              {...props}
              step={1}
              min={0}
              value={config.logprobs}
              onChange={(value) => setConfig({ logprobs: value })}
            />
          )}
        </Field>
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
