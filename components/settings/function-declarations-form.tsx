"use client";

import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClassName } from "@/components/ui/field";
import type { FieldViolation } from "@/lib/gemini/api-error";
import type { FunctionDeclaration } from "@/lib/gemini/types";
import { newFunctionDeclaration } from "@/lib/studio/function-declarations-form";
import { violationsAt } from "@/lib/studio/schema-form";
import { SchemaForm } from "./schema-form";

export interface FunctionDeclarationsFormProps {
  declarations: readonly FunctionDeclaration[];
  onChange(declarations: FunctionDeclaration[]): void;
  /** The server's path of the declarations (`tools[1].function_declarations`). */
  path: string;
  violations: readonly FieldViolation[];
}

/**
 * A form per function declaration: name, description and parameters through the schema form.
 * It edits the same list as the raw JSON beside it; each field shows the server's violations
 * of that field as the list changes.
 */
export function FunctionDeclarationsForm({
  declarations,
  onChange,
  path,
  violations,
}: FunctionDeclarationsFormProps) {
  const list = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const replace = (index: number, declaration: FunctionDeclaration) =>
    onChange(declarations.map((item, at) => (at === index ? declaration : item)));
  return (
    <div ref={list} className="flex flex-col gap-2" data-function-declarations-form="">
      {declarations.map((declaration, index) => {
        const at = `${path}[${index}]`;
        const nameErrors = violationsAt(violations, `${at}.name`).map((item) => item.description);
        const label = `Function ${declaration.name || index + 1}`;
        const ownErrors = violationsAt(violations, at).filter(
          (violation) => !violation.field.startsWith(`${at}.name`),
        );
        return (
          <fieldset
            key={index}
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
                  onChange={(event) => replace(index, { ...declaration, name: event.target.value })}
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
                    replace(
                      index,
                      event.target.value ? { ...rest, description: event.target.value } : rest,
                    );
                  }}
                  className={inputClassName}
                />
              )}
            </Field>
            {ownErrors.length > 0 && (
              <ul className="text-xs text-red-700 dark:text-red-400" data-field-error="">
                {ownErrors.map((violation) => (
                  <li key={`${violation.field} ${violation.description}`}>
                    {violation.description}
                  </li>
                ))}
              </ul>
            )}
            {declaration.parametersJsonSchema !== undefined ? (
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                Its parameters are a JSON Schema (parametersJsonSchema): edit them in the JSON.
              </p>
            ) : (
              <>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={declaration.parameters !== undefined}
                    onChange={(event) => {
                      const { parameters: _old, ...rest } = declaration;
                      replace(
                        index,
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
                    onChange={(parameters) => replace(index, { ...declaration, parameters })}
                    label={`Parameters of ${declaration.name || `function ${index + 1}`}`}
                    path={`${at}.parameters`}
                    violations={violations}
                  />
                )}
              </>
            )}
            <div>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  onChange(declarations.filter((_item, at) => at !== index));
                  requestAnimationFrame(() => addButton.current?.focus());
                }}
              >
                Remove function<span className="sr-only"> {declaration.name || index + 1}</span>
              </Button>
            </div>
          </fieldset>
        );
      })}
      <div>
        <Button
          ref={addButton}
          size="sm"
          onClick={() => {
            onChange([...declarations, newFunctionDeclaration(declarations)]);
            requestAnimationFrame(() => {
              const inputs = list.current?.querySelectorAll<HTMLInputElement>(
                "[data-function-declaration] > div > input[type=text]",
              );
              const last = inputs?.[inputs.length - 1];
              last?.focus();
              last?.select();
            });
          }}
        >
          Add function
        </Button>
      </div>
    </div>
  );
}
