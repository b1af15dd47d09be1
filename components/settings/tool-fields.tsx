"use client";

import { useCallback } from "react";
import { Field, inputClassName } from "@/components/ui/field";
import type { FunctionCallingMode, Tool } from "@/lib/gemini/types";
import { useChatStore } from "@/lib/stores/chat-store";
import { BuiltInToolsFields } from "./built-in-tools-fields";
import { JsonEditor } from "./json-editor";
import { Section, type SettingsFieldsProps } from "./settings-fields";

/** Tools: built-in tools, function declarations and the calling mode. */
export function ToolFields({
  settingsKey,
  settings,
  traits,
  update,
  errorsOf,
}: SettingsFieldsProps) {
  const setFormError = useChatStore((store) => store.setFormError);
  const toolsError = useCallback(
    (error: string | null) => setFormError(settingsKey, "tools", error),
    [settingsKey, setFormError],
  );
  const functionDeclarations = settings.tools?.find(
    (tool) => tool.functionDeclarations,
  )?.functionDeclarations;
  return (
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
  );
}
