/**
 * A function declaration's top-level parameters in one flat shape, read from either
 * `parameters` (the OpenAPI subset: upper-case types, `nullable`) or `parametersJsonSchema`
 * (JSON Schema: type lists, `const`, `$ref` into `$defs`), so matching and argument
 * extraction read one form. Nested objects are described only as "object".
 */
import { resolveJsonSchemaRef } from "@/lib/gemini/json-schema-subset";
import { ownKeys } from "@/lib/gemini/own-keys";
import type { Steps } from "@/lib/gemini/steps";
import type { FunctionDeclaration } from "@/lib/gemini/types";

export type ParameterType = "string" | "number" | "integer" | "boolean" | "array" | "object";

export interface ParameterInfo {
  name: string;
  type: ParameterType | undefined;
  description: string;
  required: boolean;
  /** Allowed values (enum, const), when the parameter is a closed choice. */
  values?: (string | number | boolean)[];
  minimum?: number;
  maximum?: number;
  format?: string;
  /** For arrays: the items' type and allowed values. */
  items?: { type: ParameterType | undefined; values?: (string | number | boolean)[] };
}

const TYPES = new Set<string>(["string", "number", "integer", "boolean", "array", "object"]);

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function finite(value: unknown): number | undefined {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : undefined;
}

function closedValues(schema: Record<string, unknown>): (string | number | boolean)[] | undefined {
  const raw = Array.isArray(schema.enum)
    ? schema.enum
    : schema.const !== undefined
      ? [schema.const]
      : undefined;
  const values = raw?.filter(
    (value): value is string | number | boolean =>
      typeof value === "string" || typeof value === "number" || typeof value === "boolean",
  );
  return values?.length ? values : undefined;
}

/** The schema with `$ref`, `anyOf`/`oneOf` (first non-null branch) and type lists resolved. */
function settle(
  schema: Record<string, unknown>,
  root: unknown,
  depth = 0,
): Record<string, unknown> {
  if (depth > 8) return schema;
  if (typeof schema.$ref === "string" && root !== undefined) {
    const target = record(resolveJsonSchemaRef(root, schema.$ref));
    if (target) return settle({ ...target, ...withoutRef(schema) }, root, depth + 1);
  }
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (schema.type === undefined && Array.isArray(branches)) {
      const branch = branches
        .map((option) => record(option))
        .find((option) => option && typeOf(settle(option, root, depth + 1)) !== "null");
      if (branch) return settle({ ...branch, description: schema.description }, root, depth + 1);
    }
  }
  return schema;
}

function withoutRef(schema: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...schema };
  delete rest.$ref;
  return rest;
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  const raw = Array.isArray(schema.type)
    ? schema.type.find((type) => type !== "null")
    : schema.type;
  return typeof raw === "string" ? raw.toLowerCase() : undefined;
}

function parameterType(schema: Record<string, unknown>): ParameterType | undefined {
  const type = typeOf(schema);
  if (type && TYPES.has(type)) return type as ParameterType;
  if (schema.properties !== undefined) return "object";
  if (schema.items !== undefined) return "array";
  const values = closedValues(schema);
  if (values?.every((value) => typeof value === "string")) return "string";
  return undefined;
}

/**
 * The declaration's top-level parameters, required ones first, each in declared order; one
 * parameter at a time (a declaration may have a hundred thousand).
 */
export function* declarationParametersSteps(
  declaration: FunctionDeclaration,
): Steps<ParameterInfo[]> {
  const jsonSchema = declaration.parametersJsonSchema;
  const root = jsonSchema !== undefined ? jsonSchema : undefined;
  const top = record(jsonSchema ?? declaration.parameters);
  if (!top) return [];
  const settled = settle(top, root);
  // The Python SDK sends a bare map of properties as parametersJsonSchema when it cannot build an object schema.
  const properties =
    record(settled.properties) ??
    (typeOf(settled) === undefined && jsonSchema !== undefined ? settled : undefined);
  if (!properties) return [];
  const required = new Set(
    Array.isArray(settled.required)
      ? settled.required.filter((name): name is string => typeof name === "string")
      : [],
  );
  const result: ParameterInfo[] = [];
  for (const name of ownKeys(properties)) {
    yield;
    const property = record(properties[name]);
    if (!property) continue;
    const schema = settle(property, root);
    const info: ParameterInfo = {
      name,
      type: parameterType(schema),
      description: typeof schema.description === "string" ? schema.description : "",
      required: required.has(name),
    };
    const values = closedValues(schema);
    if (values) info.values = values;
    const minimum = finite(schema.minimum);
    const maximum = finite(schema.maximum);
    if (minimum !== undefined) info.minimum = minimum;
    if (maximum !== undefined) info.maximum = maximum;
    if (typeof schema.format === "string") info.format = schema.format.toLowerCase();
    const items = record(schema.items);
    if (info.type === "array" && items) {
      const settledItems = settle(items, root);
      info.items = { type: parameterType(settledItems) };
      const itemValues = closedValues(settledItems);
      if (itemValues) info.items.values = itemValues;
    }
    result.push(info);
  }
  return [
    ...result.filter((parameter) => parameter.required),
    ...result.filter((parameter) => !parameter.required),
  ];
}
