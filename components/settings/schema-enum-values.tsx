"use client";

import { useEffect, useId, useRef, useState } from "react";
import { inputClassName } from "@/components/ui/field";
import type { FieldViolation } from "@/lib/gemini/api-error";
import type { Schema } from "@/lib/gemini/types";
import { withField } from "@/lib/studio/schema-form";
import { LabelledControl } from "./labelled-control";
import { ViolationList } from "./violation-list";

/** Enum values one a line; the schema gets the non-empty lines as they are typed. */
export function SchemaEnumValues({
  schema,
  onChange,
  label,
  errors,
}: {
  schema: Schema;
  onChange(schema: Schema): void;
  label: string;
  errors: readonly FieldViolation[];
}) {
  const joined = (schema.enum ?? []).join("\n");
  const [text, setText] = useState(joined);
  const committed = useRef(joined);
  const errorId = useId();
  useEffect(() => {
    // Take a change from the JSON, not the echo of this box's own edit.
    if (joined !== committed.current) {
      committed.current = joined;
      setText(joined);
    }
  }, [joined]);
  return (
    <LabelledControl label="Allowed values (one a line, none for any)" of={label}>
      {(controlId) => (
        <>
          <textarea
            id={controlId}
            rows={2}
            value={text}
            aria-invalid={errors.length ? true : undefined}
            aria-describedby={errors.length ? errorId : undefined}
            onChange={(event) => {
              setText(event.target.value);
              const next = event.target.value.split("\n").filter((line) => line !== "");
              committed.current = next.join("\n");
              onChange(withField(schema, "enum", next));
            }}
            className={`${inputClassName} font-mono`}
          />
          <ViolationList id={errorId} violations={errors} />
        </>
      )}
    </LabelledControl>
  );
}
