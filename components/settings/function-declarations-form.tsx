"use client";

import { useRef } from "react";
import { Button } from "@/components/ui/button";
import type { FieldViolation } from "@/lib/gemini/api-error";
import type { FunctionDeclaration } from "@/lib/gemini/types";
import { newFunctionDeclaration } from "@/lib/studio/function-declarations-form";
import { FunctionDeclarationFields } from "./function-declaration-fields";

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
 * of that field as the list changes. A new function's name is focused; after a removal, "Add
 * function" is.
 */
export function FunctionDeclarationsForm({
  declarations,
  onChange,
  path,
  violations,
}: FunctionDeclarationsFormProps) {
  const list = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const add = () => {
    onChange([...declarations, newFunctionDeclaration(declarations)]);
    requestAnimationFrame(() => {
      const inputs = list.current?.querySelectorAll<HTMLInputElement>(
        "[data-function-declaration] > div > input[type=text]",
      );
      const last = inputs?.[inputs.length - 1];
      last?.focus();
      last?.select();
    });
  };
  return (
    <div ref={list} className="flex flex-col gap-2" data-function-declarations-form="">
      {declarations.map((declaration, index) => (
        <FunctionDeclarationFields
          key={index}
          declaration={declaration}
          index={index}
          onChange={(changed) =>
            onChange(declarations.map((item, at) => (at === index ? changed : item)))
          }
          onRemove={() => {
            onChange(declarations.filter((_item, at) => at !== index));
            requestAnimationFrame(() => addButton.current?.focus());
          }}
          path={`${path}[${index}]`}
          violations={violations}
        />
      ))}
      <div>
        <Button ref={addButton} size="sm" onClick={add}>
          Add function
        </Button>
      </div>
    </div>
  );
}
