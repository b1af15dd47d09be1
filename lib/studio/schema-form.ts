/**
 * The schema form's edits of an OpenAPI-subset Schema (responseSchema, function parameters):
 * pure functions from a schema to the next one, so the form and the raw JSON beside it are
 * two views of one value. Fields the form has no control for (anyOf, format, bounds, ...) are
 * kept as they are.
 */
import type { FieldViolation } from "@/lib/gemini/api-error";
import type { Schema } from "@/lib/gemini/types";

/** The types the form offers, in the order it lists them. */
export const FORM_SCHEMA_TYPES = [
  "STRING",
  "NUMBER",
  "INTEGER",
  "BOOLEAN",
  "ARRAY",
  "OBJECT",
] as const;
export type FormSchemaType = (typeof FORM_SCHEMA_TYPES)[number];

/** Fields the form edits; any other field of a schema is shown as "kept from the JSON". */
const FORM_FIELDS = new Set([
  "type",
  "description",
  "nullable",
  "enum",
  "properties",
  "required",
  "propertyOrdering",
  "items",
]);

/** Fields of `schema` the form cannot edit (they stay as the JSON has them). */
export function otherFields(schema: Schema): string[] {
  return Object.keys(schema).filter((key) => !FORM_FIELDS.has(key));
}

/** A property schema of a new field. */
export function newSchema(type: FormSchemaType = "STRING"): Schema {
  if (type === "OBJECT") return { type, properties: {} };
  if (type === "ARRAY") return { type, items: { type: "STRING" } };
  return { type };
}

/** The schema with another type: fields of the old type that the new one cannot have go. */
export function withType(schema: Schema, type: FormSchemaType): Schema {
  const { enum: values, properties, required, propertyOrdering, items, ...rest } = schema;
  const next: Schema = { ...rest, type };
  if (type === "STRING" && values) next.enum = values;
  if (type === "OBJECT") {
    next.properties = properties ?? {};
    if (required) next.required = required;
    if (propertyOrdering) next.propertyOrdering = propertyOrdering;
  }
  if (type === "ARRAY") next.items = items ?? { type: "STRING" };
  return next;
}

/** The schema with `field` set, or removed when `value` is undefined or empty. */
export function withField<Key extends keyof Schema>(
  schema: Schema,
  field: Key,
  value: Schema[Key] | undefined,
): Schema {
  const next = { ...schema };
  const empty = value === undefined || value === "" || (Array.isArray(value) && !value.length);
  if (empty) delete next[field];
  else next[field] = value;
  return next;
}

/** Property names in the order the answer gives them: propertyOrdering first, then the rest. */
export function orderedPropertyNames(schema: Schema): string[] {
  const names = Object.keys(schema.properties ?? {});
  const ordered = (schema.propertyOrdering ?? []).filter((name) => names.includes(name));
  return [...ordered, ...names.filter((name) => !ordered.includes(name))];
}

function withProperties(schema: Schema, names: string[], properties: Record<string, Schema>) {
  const next: Schema = { ...schema, properties: {} };
  for (const name of names) next.properties![name] = properties[name]!;
  return next;
}

/** Adds a property named `field1`, `field2`, ... (the first free one), a string. */
export function addProperty(schema: Schema): { schema: Schema; name: string } {
  const properties = schema.properties ?? {};
  let count = Object.keys(properties).length + 1;
  while (Object.prototype.hasOwnProperty.call(properties, `field${count}`)) count += 1;
  const name = `field${count}`;
  const names = [...orderedPropertyNames(schema), name];
  const next = withProperties(schema, names, { ...properties, [name]: newSchema() });
  if (schema.propertyOrdering) next.propertyOrdering = names;
  return { schema: next, name };
}

/** The schema with property `name`'s schema replaced. */
export function withProperty(schema: Schema, name: string, child: Schema): Schema {
  return { ...schema, properties: { ...schema.properties, [name]: child } };
}

/** Why `to` cannot be the new name of `from`, or null when it can. */
export function renameProblem(schema: Schema, from: string, to: string): string | null {
  if (to === "") return "A property needs a name.";
  if (to !== from && Object.prototype.hasOwnProperty.call(schema.properties ?? {}, to))
    return `There is already a property named “${to}”.`;
  return null;
}

/** Renames a property where it stands, in `required` and `propertyOrdering` too. */
export function renameProperty(schema: Schema, from: string, to: string): Schema {
  if (from === to || renameProblem(schema, from, to)) return schema;
  const rename = (name: string) => (name === from ? to : name);
  const properties = schema.properties ?? {};
  const next = withProperties(
    schema,
    Object.keys(properties).map(rename),
    Object.fromEntries(Object.entries(properties).map(([name, child]) => [rename(name), child])),
  );
  if (schema.required) next.required = schema.required.map(rename);
  if (schema.propertyOrdering) next.propertyOrdering = schema.propertyOrdering.map(rename);
  return next;
}

/** Removes a property, and its name from `required` and `propertyOrdering`. */
export function removeProperty(schema: Schema, name: string): Schema {
  const { [name]: _removed, ...properties } = schema.properties ?? {};
  let next: Schema = { ...schema, properties };
  next = withField(
    next,
    "required",
    schema.required?.filter((item) => item !== name),
  );
  if (schema.propertyOrdering)
    next = withField(
      next,
      "propertyOrdering",
      schema.propertyOrdering.filter((item) => item !== name),
    );
  return next;
}

/** Whether property `name` is required. */
export function isRequired(schema: Schema, name: string): boolean {
  return schema.required?.includes(name) ?? false;
}

/** Marks a property required or not, keeping `required` in the properties' order. */
export function withRequired(schema: Schema, name: string, required: boolean): Schema {
  const names = orderedPropertyNames(schema);
  const set = new Set(schema.required ?? []);
  if (required) set.add(name);
  else set.delete(name);
  // Names the schema lists but does not define stay (the server names them; the JSON shows them).
  const listed = [
    ...names.filter((item) => set.has(item)),
    ...[...set].filter((item) => !names.includes(item)),
  ];
  return withField(schema, "required", listed);
}

/**
 * Moves a property one place up (-1) or down (+1). The order becomes the schema's
 * `propertyOrdering` (the order the model writes the fields in) and the order of `properties`.
 */
export function moveProperty(schema: Schema, name: string, offset: -1 | 1): Schema {
  const names = orderedPropertyNames(schema);
  const from = names.indexOf(name);
  const to = from + offset;
  if (from < 0 || to < 0 || to >= names.length) return schema;
  [names[from], names[to]] = [names[to]!, names[from]!];
  const next = withProperties(schema, names, schema.properties ?? {});
  next.propertyOrdering = names;
  return next;
}

/** The server's path of a property's schema under `path` (as its violations name it). */
export function propertyPath(path: string, name: string): string {
  return `${path}.properties[${name}]`;
}

/**
 * The violations that belong to the schema node at `path` itself (its type, enum, required,
 * ordering, a missing items), not to the schemas under it.
 */
export function violationsAt(
  violations: readonly FieldViolation[],
  path: string,
): FieldViolation[] {
  return violations.filter((violation) => {
    if (violation.field === path) return true;
    if (!violation.field.startsWith(`${path}.`)) return false;
    const rest = violation.field.slice(path.length + 1);
    return !/^(properties\[|items\.|any_of\[)/.test(rest);
  });
}
