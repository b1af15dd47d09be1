"use client";

import { Button } from "@/components/ui/button";
import { Field, inputClassName } from "@/components/ui/field";
import type { FieldViolation } from "@/lib/gemini/api-error";
import type { FunctionDeclaration } from "@/lib/gemini/types";
import { violationsAt } from "@/lib/studio/schema-form";
import { SchemaForm } from "./schema-form";
import { ViolationList } from "./violation-list";

export interface FunctionDeclarationFieldsProps {
  declaration: FunctionDeclaration;
  /** Its place in the list, from 0. */
  index: number;
  onChange(declaration: FunctionDeclaration): void;
  onRemove(): void;
  /** The server's path of this declaration (`tools[1].function_declarations[0]`). */
  path: string;
  violations: readonly FieldViolation[];
}

/** One function declaration: name, description, parameters through the schema form, remove. */
export function FunctionDeclarationFields({
  declaration,
  index,
  onChange,
  onRemove,
  path,
  violations,
}: FunctionDeclarationFieldsProps) {
  const nameErrors = violationsAt(violations, `${path}.name`).map((item) => item.description);
  const ownErrors = violationsAt(violations, path).filter(
    (violation) => !violation.field.startsWith(`${path}.name`),
  );
  const label = `Function ${declaration.name || index + 1}`;
  return (
    <fieldset
      className="flex flex-col gap-2 rounded-md border border-zinc-300 p-2 dark:border-zinc-700"
      data-function-declaration={index}
    >
      <legend className="px-1 text-xs font-semibold text-zinc-700 dark:text-zinc-300">
        {label}
      </legend>
      <Field label={`Name of function ${index + 1}`} errors={nameErrors}>
        {(props) => (
          <input
            {...props}
            type="text"
            value={declaration.name}
            onChange={(event) => onChange({ ...declaration, name: event.target.value })}
            className={`${inputClassName} font-mono`}
          />
        )}
      </Field>
      <Field label={`Description of function ${index + 1}`}>
        {(props) => (
          <textarea
            {...props}
            rows={2}
            value={declaration.description ?? ""}
            onChange={(event) => {
              const { description: _old, ...rest } = declaration;
              onChange(event.target.value ? { ...rest, description: event.target.value } : rest);
            }}
            className={inputClassName}
          />
        )}
      </Field>
      <ViolationList violations={ownErrors} />
      <ParametersFields
        declaration={declaration}
        index={index}
        label={label}
        onChange={onChange}
        path={path}
        violations={violations}
      />
      <div>
        <Button size="sm" variant="ghost" onClick={onRemove}>
          Remove function<span className="sr-only"> {declaration.name || index + 1}</span>
        </Button>
      </div>
    </fieldset>
  );
}

/**
 * Whether the function takes parameters, and their schema through the schema form; a JSON
 * Schema (`parametersJsonSchema`) is left to the JSON editor.
 */
function ParametersFields({
  declaration,
  index,
  label,
  onChange,
  path,
  violations,
}: Omit<FunctionDeclarationFieldsProps, "onRemove"> & { label: string }) {
  if (declaration.parametersJsonSchema !== undefined)
    return (
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Its parameters are a JSON Schema (parametersJsonSchema): edit them in the JSON.
      </p>
    );
  return (
    <>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={declaration.parameters !== undefined}
          onChange={(event) => {
            const { parameters: _old, ...rest } = declaration;
            onChange(
              event.target.checked
                ? { ...rest, parameters: { type: "OBJECT", properties: {} } }
                : rest,
            );
          }}
        />
        Takes parameters<span className="sr-only"> ({label})</span>
      </label>
      {declaration.parameters && (
        <SchemaForm
          schema={declaration.parameters}
          onChange={(parameters) => onChange({ ...declaration, parameters })}
          label={`Parameters of ${declaration.name || `function ${index + 1}`}`}
          path={`${path}.parameters`}
          violations={violations}
        />
      )}
    </>
  );
}
