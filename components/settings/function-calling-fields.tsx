"use client";

import { Field, inputClassName } from "@/components/ui/field";
import type { FunctionCallingMode } from "@/lib/gemini/types";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import {
  MODES_WITH_ALLOWED_NAMES,
  withAllowedFunctionNames,
  withCallingMode,
} from "@/lib/studio/function-declarations-form";
import { Checkbox } from "./settings-fields";

/**
 * The function calling mode, and in the modes that take them, which declared functions the
 * model may call (none checked: any).
 */
export function FunctionCallingFields({
  settings,
  declaredNames,
  errors,
  update,
}: {
  settings: ConversationSettings;
  declaredNames: readonly string[];
  errors: string[] | undefined;
  update(settings: ConversationSettings): void;
}) {
  const calling = settings.toolConfig?.functionCallingConfig;
  const mode = calling?.mode ?? "";
  const allowed = calling?.allowedFunctionNames ?? [];
  const choose = (name: string, checked: boolean) =>
    update(
      withAllowedFunctionNames(
        settings,
        checked
          ? declaredNames.filter((item) => item === name || allowed.includes(item))
          : allowed.filter((item) => item !== name),
      ),
    );
  return (
    <>
      <Field label="Function calling mode" errors={errors}>
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
                onChange={(checked) => choose(name, checked)}
              />
            ))}
          </fieldset>
        )}
    </>
  );
}
