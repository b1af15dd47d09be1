"use client";

import { useCallback, useId, type ReactNode } from "react";
import { Field, inputClassName } from "@/components/ui/field";
import type { ConversationSettingsState } from "@/lib/hooks/use-conversation-settings";
import {
  MEDIA_RESOLUTIONS,
  PREBUILT_VOICE_NAMES,
  SPEECH_LANGUAGE_CODES,
} from "@/lib/gemini/schemas/constants";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { FunctionCallingMode, GenerationConfig, Schema, Tool } from "@/lib/gemini/types";
import { useChatStore } from "@/lib/stores/chat-store";
import { JsonEditor } from "./json-editor";
import { NumberInput } from "./number-input";
import { SafetySettingsFields } from "./safety-settings-fields";
import { BuiltInToolsFields } from "./built-in-tools-fields";
import {
  settingsForModel,
  violationCount,
  withGenerationConfig,
} from "@/lib/studio/settings-model";

type ConfigKey = keyof GenerationConfig;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
      <legend className="pr-2 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
        {title}
      </legend>
      {children}
    </fieldset>
  );
}

function Checkbox({
  label,
  checked,
  onChange,
  errors,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  errors?: string[];
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="flex items-center gap-2 text-sm">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={errors?.length ? true : undefined}
        />
        {label}
      </label>
      {errors?.length ? (
        <ul className="text-xs text-red-700 dark:text-red-400" data-field-error="">
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

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

type OutputMode = "text" | "json" | "enum";

function outputMode(config: GenerationConfig): OutputMode {
  if (config.responseMimeType === "application/json") return "json";
  if (config.responseMimeType === "text/x.enum") return "enum";
  return "text";
}

export interface SettingsPanelProps {
  state: ConversationSettingsState;
  onClose(): void;
}

/** Every setting of a conversation, validated inline with the server's rules as they are typed. */
export function SettingsPanel({ state, onClose }: SettingsPanelProps) {
  const { settings, traits, models, violations, update, key } = state;
  const config = settings.generationConfig;
  const setFormError = useChatStore((store) => store.setFormError);
  const errorsOf = (field: string) => violations[field];
  const setConfig = (changes: Partial<Record<ConfigKey, unknown>>) =>
    update(withGenerationConfig(settings, changes));
  const schemaError = useCallback(
    (error: string | null) => setFormError(key, "response_schema", error),
    [key, setFormError],
  );
  const jsonSchemaError = useCallback(
    (error: string | null) => setFormError(key, "response_json_schema", error),
    [key, setFormError],
  );
  const toolsError = useCallback(
    (error: string | null) => setFormError(key, "tools", error),
    [key, setFormError],
  );
  const mode = outputMode(config);
  const schemaKind =
    config.responseJsonSchema !== undefined
      ? "json-schema"
      : config.responseSchema !== undefined
        ? "openapi"
        : "none";
  const total = violationCount(violations);
  const functionDeclarations = settings.tools?.find(
    (tool) => tool.functionDeclarations,
  )?.functionDeclarations;
  const supportsAudio =
    traits?.responseModalities.some((combination) => combination.includes("AUDIO")) ?? false;

  return (
    <form
      aria-label="Chat settings"
      className="flex flex-col gap-4 p-4"
      onSubmit={(event) => event.preventDefault()}
    >
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
      {total > 0 && (
        <p
          role="status"
          className="rounded-md bg-red-50 px-2 py-1 text-xs text-red-800 dark:bg-red-950/50 dark:text-red-300"
        >
          {total === 1 ? "1 setting needs fixing" : `${total} settings need fixing`} before sending.
        </p>
      )}

      <Field
        label="Model"
        errors={errorsOf("model")}
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

      <Field label="System instruction">
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
                onChange={(value) => setConfig({ topP: value })}
              />
            )}
          </Field>
          {traits?.topK !== undefined || config.topK !== undefined ? (
            <Field
              label="Top K"
              errors={errorsOf("top_k")}
              hint={
                traits?.topK !== undefined ? `default ${traits.topK}` : "this model has no topK"
              }
            >
              {(props) => (
                <NumberInput
                  {...props}
                  step={1}
                  min={1}
                  value={config.topK}
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
            {["TEXT", "IMAGE", "AUDIO"].map((modality) => (
              <Checkbox
                key={modality}
                label={modality}
                checked={config.responseModalities?.includes(modality) ?? false}
                onChange={(checked) => {
                  const next = (config.responseModalities ?? []).filter(
                    (item) => item !== modality,
                  );
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
                    const { voiceConfig: _voice, ...rest } = config.speechConfig ?? {};
                    const speechConfig = voiceName
                      ? { ...rest, voiceConfig: { prebuiltVoiceConfig: { voiceName } } }
                      : rest;
                    setConfig({
                      speechConfig: Object.keys(speechConfig).length ? speechConfig : undefined,
                    });
                  }}
                  className={inputClassName}
                >
                  <option value="">Default</option>
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
                  onChange={(event) => {
                    const languageCode = event.target.value;
                    const { languageCode: _code, ...rest } = config.speechConfig ?? {};
                    const speechConfig = languageCode ? { ...rest, languageCode } : rest;
                    setConfig({
                      speechConfig: Object.keys(speechConfig).length ? speechConfig : undefined,
                    });
                  }}
                  className={inputClassName}
                >
                  <option value="">Default</option>
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
              <option value="">Default</option>
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

      {(traits?.thinking || config.thinkingConfig) && (
        <Section title="Thinking">
          <Checkbox
            label="Include thought summaries"
            checked={config.thinkingConfig?.includeThoughts ?? false}
            errors={errorsOf("thinking_config")}
            onChange={(checked) => {
              const { includeThoughts: _include, ...rest } = config.thinkingConfig ?? {};
              const thinkingConfig = checked ? { ...rest, includeThoughts: true } : rest;
              setConfig({
                thinkingConfig: Object.keys(thinkingConfig).length ? thinkingConfig : undefined,
              });
            }}
          />
          <Field
            label="Thinking budget (tokens)"
            hint={
              traits?.thinking
                ? `${traits.thinking.minBudget}–${traits.thinking.maxBudget}, -1 dynamic${traits.thinking.canDisable ? ", 0 off" : ""}; empty = model default`
                : undefined
            }
          >
            {(props) => (
              <NumberInput
                {...props}
                step={1}
                value={config.thinkingConfig?.thinkingBudget}
                onChange={(value) => {
                  const { thinkingBudget: _budget, ...rest } = config.thinkingConfig ?? {};
                  const thinkingConfig =
                    value === undefined ? rest : { ...rest, thinkingBudget: value };
                  setConfig({
                    thinkingConfig: Object.keys(thinkingConfig).length ? thinkingConfig : undefined,
                  });
                }}
              />
            )}
          </Field>
        </Section>
      )}

      <Section title="Safety thresholds">
        <SafetySettingsFields settings={settings} traits={traits} onChange={update} />
      </Section>

      <Section title="Tools">
        <BuiltInToolsFields settings={settings} traits={traits} onChange={update} />
        <Field
          label="Function declarations (JSON array)"
          errors={errorsOf("tools")}
          hint='e.g. [{"name": "get_weather", "description": "…", "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}}}]'
        >
          {(props) => (
            <JsonEditor
              {...props}
              rows={4}
              value={functionDeclarations}
              onParseError={toolsError}
              onChange={(value) => {
                if (value !== undefined && !Array.isArray(value)) {
                  toolsError("Function declarations must be a JSON array.");
                  return;
                }
                const others = (settings.tools ?? []).filter((tool) => !tool.functionDeclarations);
                const tools: Tool[] = value?.length
                  ? [...others, { functionDeclarations: value as Tool["functionDeclarations"] }]
                  : others;
                update({ ...settings, tools: tools.length ? tools : undefined });
              }}
            />
          )}
        </Field>
        <Field label="Function calling mode">
          {(props) => (
            <select
              {...props}
              value={settings.toolConfig?.functionCallingConfig?.mode ?? ""}
              onChange={(event) => {
                const mode = event.target.value as FunctionCallingMode | "";
                update({
                  ...settings,
                  toolConfig: mode ? { functionCallingConfig: { mode } } : undefined,
                });
              }}
              className={inputClassName}
            >
              <option value="">Default (AUTO)</option>
              <option value="AUTO">AUTO</option>
              <option value="ANY">ANY</option>
              <option value="NONE">NONE</option>
              <option value="VALIDATED">VALIDATED</option>
            </select>
          )}
        </Field>
      </Section>
    </form>
  );
}
