"use client";

import { useCallback, useMemo } from "react";
import { Field, inputClassName } from "@/components/ui/field";
import type { FunctionCallingMode, FunctionDeclaration } from "@/lib/gemini/types";
import { useChatStore } from "@/lib/stores/chat-store";
import {
  MODES_WITH_ALLOWED_NAMES,
  declarationsToolIndex,
  withAllowedFunctionNames,
  withCallingMode,
  withFunctionDeclarations,
} from "@/lib/studio/function-declarations-form";
import { settingsFieldViolations } from "@/lib/studio/settings-model";
import { BuiltInToolsFields } from "./built-in-tools-fields";
import { FunctionDeclarationsForm } from "./function-declarations-form";
import { JsonEditor } from "./json-editor";
import { Checkbox, Section, type SettingsFieldsProps } from "./settings-fields";

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
  const calling = settings.toolConfig?.functionCallingConfig;
  const mode = calling?.mode ?? "";
  const allowed = calling?.allowedFunctionNames ?? [];
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
      <Field label="Function calling mode" errors={errorsOf("tool_config")}>
        {(props) => (
          <select
            {...props}
            value={mode}
            onChange={(event) =>
              update(withCallingMode(settings, event.target.value as FunctionCallingMode | ""))
            }
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
      {MODES_WITH_ALLOWED_NAMES.includes(mode as FunctionCallingMode) &&
        declaredNames.length > 0 && (
          <fieldset className="flex flex-col gap-1" data-allowed-function-names="">
            <legend className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
              Allowed function names (none checked: any declared function)
            </legend>
            {declaredNames.map((name, index) => (
              <Checkbox
                key={`${index} ${name}`}
                label={name || `function ${index + 1} (no name yet)`}
                checked={allowed.includes(name)}
                onChange={(checked) =>
                  update(
                    withAllowedFunctionNames(
                      settings,
                      checked
                        ? declaredNames.filter((item) => item === name || allowed.includes(item))
                        : allowed.filter((item) => item !== name),
                    ),
                  )
                }
              />
            ))}
          </fieldset>
        )}
    </Section>
  );
}
