"use client";

import { useCallback, useMemo } from "react";
import { Field, inputClassName } from "@/components/ui/field";
import type { GenerationConfig, Schema } from "@/lib/gemini/types";
import { useChatStore } from "@/lib/stores/chat-store";
import { settingsFieldViolations } from "@/lib/studio/settings-model";
import { JsonEditor } from "./json-editor";
import { SchemaForm } from "./schema-form";
import type { SettingsFieldsProps } from "./settings-fields";

type OutputMode = "text" | "json" | "enum";
type SchemaKind = "none" | "openapi" | "json-schema";

function outputMode(config: GenerationConfig): OutputMode {
  if (config.responseMimeType === "application/json") return "json";
  if (config.responseMimeType === "text/x.enum") return "enum";
  return "text";
}

/**
 * The answer's format (responseMimeType) and what shapes it: a schema for JSON (either kind),
 * the values for an enum. Switching format keeps what still applies and drops the rest.
 */
export function ResponseFormatFields(fields: SettingsFieldsProps) {
  const { settings, setConfig, errorsOf } = fields;
  const config = settings.generationConfig;
  const mode = outputMode(config);
  return (
    <>
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
      {mode === "json" && <JsonSchemaFields {...fields} />}
      {mode === "enum" && <EnumValuesField {...fields} />}
    </>
  );
}

/**
 * No schema, responseSchema (the OpenAPI subset) or responseJsonSchema, edited as JSON. Text
 * that does not parse yet is a form error kept in the chat store, so sending waits for it.
 */
function JsonSchemaFields({
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
  const violations = useMemo(() => settingsFieldViolations(settings, traits), [settings, traits]);
  const schemaKind: SchemaKind =
    config.responseJsonSchema !== undefined
      ? "json-schema"
      : config.responseSchema !== undefined
        ? "openapi"
        : "none";
  function chooseKind(kind: SchemaKind) {
    setConfig(schemaKindChange(kind, config));
    schemaError(null);
    jsonSchemaError(null);
  }
  return (
    <>
      <SchemaKindField kind={schemaKind} onChange={chooseKind} />
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
  );
}

/** Switching schema kind: the other kind's schema is dropped, the chosen one kept or started empty. */
function schemaKindChange(kind: SchemaKind, config: GenerationConfig): Partial<GenerationConfig> {
  if (kind === "none") return { responseSchema: undefined, responseJsonSchema: undefined };
  if (kind === "openapi")
    return {
      responseJsonSchema: undefined,
      responseSchema: config.responseSchema ?? { type: "OBJECT", properties: {} },
    };
  return {
    responseSchema: undefined,
    responseJsonSchema: config.responseJsonSchema ?? { type: "object", properties: {} },
  };
}

/** Which schema shapes the JSON: none, responseSchema (OpenAPI subset) or responseJsonSchema. */
function SchemaKindField({
  kind,
  onChange,
}: {
  kind: SchemaKind;
  onChange(kind: SchemaKind): void;
}) {
  return (
    <Field label="Schema kind">
      {(props) => (
        <select
          {...props}
          value={kind}
          onChange={(event) => onChange(event.target.value as SchemaKind)}
          className={inputClassName}
        >
          <option value="none">No schema</option>
          <option value="openapi">responseSchema (OpenAPI subset)</option>
          <option value="json-schema">responseJsonSchema (JSON Schema)</option>
        </select>
      )}
    </Field>
  );
}

/** An enum's values one per line, kept as a STRING schema with `enum`. */
function EnumValuesField({ settings, setConfig, errorsOf }: SettingsFieldsProps) {
  const config = settings.generationConfig;
  return (
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
  );
}
