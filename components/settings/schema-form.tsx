"use client";

import { useEffect, useId, useRef } from "react";
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
  renameProperty,
  violationsAt,
  withField,
  withProperty,
  withRequired,
  withType,
  type FormSchemaType,
} from "@/lib/studio/schema-form";
import { LabelledControl } from "./labelled-control";
import { SchemaEnumValues } from "./schema-enum-values";
import { PropertyHeader, type PropertyControls } from "./schema-property-header";
import { ViolationList } from "./violation-list";

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

type SchemaNodeProps = SchemaFormProps & { depth: number; property?: PropertyControls };

/** One node: its own fields, then its items or properties as nodes of their own. */
function SchemaNode(props: SchemaNodeProps) {
  const { schema, onChange, label, path, violations, depth, property } = props;
  const errorId = useId();
  const own = violationsAt(violations, path);
  const enumErrors = own.filter((violation) => /\.enum(\[|$)/.test(violation.field));
  const otherErrors = own.filter((violation) => !enumErrors.includes(violation));
  const type = (schema.type ?? "") as FormSchemaType | "";
  const kept = otherFields(schema);
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
      <SchemaOwnFields
        schema={schema}
        onChange={onChange}
        label={label}
        invalid={otherErrors.length > 0}
        errorId={errorId}
      />
      {(type === "STRING" || schema.enum) && (
        <SchemaEnumValues schema={schema} onChange={onChange} label={label} errors={enumErrors} />
      )}
      <ViolationList id={errorId} violations={otherErrors} />
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

/**
 * An object's properties in their order, each a node of its own, and "Add property", which
 * focuses the new property's name so typing names it.
 */
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

/** Type, nullable and description; the type names the node's violations (listed as `errorId`). */
function SchemaOwnFields({
  schema,
  onChange,
  label,
  invalid,
  errorId,
}: {
  schema: Schema;
  onChange(schema: Schema): void;
  label: string;
  invalid: boolean;
  errorId: string;
}) {
  const type = (schema.type ?? "") as FormSchemaType | "";
  return (
    <>
      <div className="grid grid-cols-2 gap-2">
        <LabelledControl label="Type" of={label}>
          {(controlId) => (
            <select
              id={controlId}
              value={type}
              aria-invalid={invalid ? true : undefined}
              aria-describedby={invalid ? errorId : undefined}
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
    </>
  );
}
