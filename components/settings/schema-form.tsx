"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { inputClassName } from "@/components/ui/field";
import type { FieldViolation } from "@/lib/gemini/api-error";
import type { Schema } from "@/lib/gemini/types";
import {
  FORM_SCHEMA_TYPES,
  addProperty,
  isRequired,
  moveProperty,
  orderedPropertyNames,
  otherFields,
  propertyPath,
  removeProperty,
  renameProblem,
  renameProperty,
  violationsAt,
  withField,
  withProperty,
  withRequired,
  withType,
  type FormSchemaType,
} from "@/lib/studio/schema-form";

/** Deeper than this the form stops and points at the JSON (the value stays whole). */
const MAX_FORM_DEPTH = 8;

export interface SchemaFormProps {
  schema: Schema;
  onChange(schema: Schema): void;
  /** Names the node for people: its legend and the end of each control's name. */
  label: string;
  /** The server's path of this schema, as its violations name it. */
  path: string;
  /** Every violation of the settings (each node shows its own). */
  violations: readonly FieldViolation[];
}

/**
 * A form over an OpenAPI-subset schema (responseSchema, function parameters): type,
 * description, nullable, enum values, an array's items, an object's properties with required
 * and their order. It edits the same value as the raw JSON beside it, and shows the server's
 * violations at the node they concern as the value changes.
 */
export function SchemaForm(props: SchemaFormProps) {
  return <SchemaNode {...props} depth={0} />;
}

interface PropertyControls {
  name: string;
  siblings: Schema;
  required: boolean;
  first: boolean;
  last: boolean;
  onRename(to: string): void;
  onRequired(required: boolean): void;
  onMove(offset: -1 | 1): void;
  onRemove(): void;
}

function SchemaNode({
  schema,
  onChange,
  label,
  path,
  violations,
  depth,
  property,
}: SchemaFormProps & { depth: number; property?: PropertyControls }) {
  const id = useId();
  const own = violationsAt(violations, path);
  const enumErrors = own.filter((violation) => /\.enum(\[|$)/.test(violation.field));
  const otherErrors = own.filter((violation) => !enumErrors.includes(violation));
  const type = (schema.type ?? "") as FormSchemaType | "";
  const kept = otherFields(schema);
  const errorId = `${id}-errors`;
  if (depth > MAX_FORM_DEPTH)
    return (
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {label} is nested deeper than the form goes: edit it in the JSON.
      </p>
    );
  return (
    <fieldset
      className="flex flex-col gap-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-800"
      data-schema-node={path}
    >
      <legend className="px-1 text-xs font-semibold text-zinc-700 dark:text-zinc-300">
        {label}
      </legend>
      {property && <PropertyHeader controls={property} label={label} />}
      <div className="grid grid-cols-2 gap-2">
        <LabelledControl label="Type" of={label}>
          {(controlId) => (
            <select
              id={controlId}
              value={type}
              aria-invalid={otherErrors.length ? true : undefined}
              aria-describedby={otherErrors.length ? errorId : undefined}
              onChange={(event) => onChange(withType(schema, event.target.value as FormSchemaType))}
              className={inputClassName}
            >
              {!FORM_SCHEMA_TYPES.includes(type as FormSchemaType) && (
                <option value={type}>{type || "Not set"}</option>
              )}
              {FORM_SCHEMA_TYPES.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          )}
        </LabelledControl>
        <label className="flex items-end gap-2 pb-1 text-sm">
          <input
            type="checkbox"
            checked={schema.nullable ?? false}
            onChange={(event) =>
              onChange(withField(schema, "nullable", event.target.checked || undefined))
            }
          />
          Nullable<span className="sr-only"> ({label})</span>
        </label>
      </div>
      <LabelledControl label="Description" of={label}>
        {(controlId) => (
          <input
            id={controlId}
            type="text"
            value={schema.description ?? ""}
            onChange={(event) => onChange(withField(schema, "description", event.target.value))}
            className={inputClassName}
          />
        )}
      </LabelledControl>
      {(type === "STRING" || schema.enum) && (
        <EnumValues schema={schema} onChange={onChange} label={label} errors={enumErrors} />
      )}
      {otherErrors.length > 0 && (
        <ul id={errorId} className="text-xs text-red-700 dark:text-red-400" data-field-error="">
          {otherErrors.map((violation) => (
            <li key={`${violation.field} ${violation.description}`}>{violation.description}</li>
          ))}
        </ul>
      )}
      {kept.length > 0 && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Also set in the JSON, kept as it is: {kept.join(", ")}.
        </p>
      )}
      {type === "ARRAY" && schema.items && (
        <SchemaNode
          schema={schema.items}
          onChange={(items) => onChange({ ...schema, items })}
          label={`Items of ${label}`}
          path={`${path}.items`}
          violations={violations}
          depth={depth + 1}
        />
      )}
      {type === "OBJECT" && (
        <Properties
          schema={schema}
          onChange={onChange}
          label={label}
          path={path}
          violations={violations}
          depth={depth}
        />
      )}
    </fieldset>
  );
}

function Properties({
  schema,
  onChange,
  label,
  path,
  violations,
  depth,
}: SchemaFormProps & { depth: number }) {
  const names = orderedPropertyNames(schema);
  const added = useRef<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Focus the new property's name, so typing names it.
    if (!added.current) return;
    const input = list.current?.querySelector<HTMLInputElement>(
      `[data-property-name="${CSS.escape(added.current)}"]`,
    );
    added.current = null;
    input?.focus();
    input?.select();
  });
  return (
    <div ref={list} className="flex flex-col gap-2">
      {names.length === 0 && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">No properties yet.</p>
      )}
      {names.map((name, index) => (
        <SchemaNode
          key={name}
          schema={schema.properties![name]!}
          onChange={(child) => onChange(withProperty(schema, name, child))}
          label={`Property ${name}`}
          path={propertyPath(path, name)}
          violations={violations}
          depth={depth + 1}
          property={{
            name,
            siblings: schema,
            required: isRequired(schema, name),
            first: index === 0,
            last: index === names.length - 1,
            onRename: (to) => onChange(renameProperty(schema, name, to)),
            onRequired: (required) => onChange(withRequired(schema, name, required)),
            onMove: (offset) => onChange(moveProperty(schema, name, offset)),
            onRemove: () => {
              onChange(removeProperty(schema, name));
              requestAnimationFrame(() => addButton.current?.focus());
            },
          }}
        />
      ))}
      <div>
        <Button
          ref={addButton}
          size="sm"
          onClick={() => {
            const next = addProperty(schema);
            added.current = next.name;
            onChange(next.schema);
          }}
        >
          Add property<span className="sr-only"> to {label}</span>
        </Button>
      </div>
    </div>
  );
}

/**
 * A property's name (renamed when it is left or Enter is pressed), required, order, remove.
 * Properties are keyed by name, so a rename mounts a new header with the new name.
 */
function PropertyHeader({ controls, label }: { controls: PropertyControls; label: string }) {
  const [draft, setDraft] = useState(controls.name);
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const problemId = useId();
  const problem = renameProblem(controls.siblings, controls.name, draft);
  const commit = () => {
    if (!problem && draft !== controls.name) controls.onRename(draft);
  };
  const move = (offset: -1 | 1) => {
    controls.onMove(offset);
    // The row moved: keep the focus on its button (or the other one at the end of the list).
    requestAnimationFrame(() => {
      const button = offset < 0 ? up.current : down.current;
      (button?.disabled ? (offset < 0 ? down : up).current : button)?.focus();
    });
  };
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-end gap-2">
        <LabelledControl label="Name" of={label} className="min-w-32 flex-1">
          {(controlId) => (
            <input
              id={controlId}
              type="text"
              value={draft}
              data-property-name={controls.name}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              onChange={(event) => setDraft(event.target.value)}
              onBlur={commit}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  commit();
                }
              }}
              className={`${inputClassName} font-mono`}
            />
          )}
        </LabelledControl>
        <label className="flex items-center gap-1 pb-1 text-sm">
          <input
            type="checkbox"
            checked={controls.required}
            onChange={(event) => controls.onRequired(event.target.checked)}
          />
          Required<span className="sr-only"> ({controls.name})</span>
        </label>
      </div>
      {problem && (
        <p id={problemId} className="text-xs text-red-700 dark:text-red-400" data-field-error="">
          {problem}
        </p>
      )}
      <div className="flex gap-1">
        <Button
          ref={up}
          size="sm"
          variant="ghost"
          disabled={controls.first}
          aria-label={`Move ${controls.name} up`}
          onClick={() => move(-1)}
        >
          ↑ Up
        </Button>
        <Button
          ref={down}
          size="sm"
          variant="ghost"
          disabled={controls.last}
          aria-label={`Move ${controls.name} down`}
          onClick={() => move(1)}
        >
          ↓ Down
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Remove property ${controls.name}`}
          onClick={controls.onRemove}
        >
          Remove
        </Button>
      </div>
    </div>
  );
}

/** Enum values one a line; the schema gets the non-empty lines as they are typed. */
function EnumValues({
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
          {errors.length > 0 && (
            <ul id={errorId} className="text-xs text-red-700 dark:text-red-400" data-field-error="">
              {errors.map((violation) => (
                <li key={`${violation.field} ${violation.description}`}>{violation.description}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </LabelledControl>
  );
}

/** A visible short label whose accessible name also says which node it belongs to. */
function LabelledControl({
  label,
  of,
  className = "",
  children,
}: {
  label: string;
  of: string;
  className?: string;
  children(id: string): ReactNode;
}) {
  const id = useId();
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        {label}
        <span className="sr-only"> ({of})</span>
      </label>
      {children(id)}
    </div>
  );
}
