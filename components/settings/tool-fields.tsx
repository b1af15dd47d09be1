"use client";

import { useCallback, useMemo } from "react";
import { Field } from "@/components/ui/field";
import type { FunctionDeclaration } from "@/lib/gemini/types";
import { useChatStore } from "@/lib/stores/chat-store";
import {
  declarationsToolIndex,
  withFunctionDeclarations,
} from "@/lib/studio/function-declarations-form";
import { settingsFieldViolations } from "@/lib/studio/settings-model";
import { BuiltInToolsFields } from "./built-in-tools-fields";
import { FunctionCallingFields } from "./function-calling-fields";
import { FunctionDeclarationsForm } from "./function-declarations-form";
import { JsonEditor } from "./json-editor";
import { Section, type SettingsFieldsProps } from "./settings-fields";

/** Tools: built-in tools, function declarations (form and JSON), the calling mode and allowed names. */
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
  const violations = useMemo(() => settingsFieldViolations(settings, traits), [settings, traits]);
  const toolIndex = declarationsToolIndex(settings);
  const functionDeclarations = settings.tools?.[toolIndex]?.functionDeclarations;
  const declaredNames = (functionDeclarations ?? []).map((declaration) => declaration.name);
  return (
    <Section title="Tools">
      <BuiltInToolsFields settings={settings} traits={traits} onChange={update} />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Function declarations
        </legend>
        <FunctionDeclarationsForm
          declarations={functionDeclarations ?? []}
          onChange={(declarations) => update(withFunctionDeclarations(settings, declarations))}
          path={`tools[${toolIndex < 0 ? (settings.tools?.length ?? 0) : toolIndex}].function_declarations`}
          violations={violations}
        />
      </fieldset>
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
              update(
                withFunctionDeclarations(settings, value as FunctionDeclaration[] | undefined),
              );
            }}
          />
        )}
      </Field>
      <FunctionCallingFields
        settings={settings}
        declaredNames={declaredNames}
        errors={errorsOf("tool_config")}
        update={update}
      />
    </Section>
  );
}
