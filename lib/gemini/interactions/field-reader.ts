/**
 * Small readers for the Interactions API's snake_case JSON: each takes a value and the path
 * it stands at (`generation_config.temperature`, `input[2].content[0]`) and answers it typed,
 * or throws the 400 naming that path. Unknown fields are refused by `knownFields`.
 */
import { isPlainObject } from "../schemas/wire";
import { invalidInteractionField } from "./errors";

export type JsonObject = Record<string, unknown>;

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string")
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === "object") return "an object";
  return String(value);
}

export function objectAt(value: unknown, path: string): JsonObject {
  if (!isPlainObject(value))
    throw invalidInteractionField(path, `expected an object, got ${describe(value)}.`);
  return value;
}

/** Refuses any field of `object` not in `known`. */
export function knownFields(object: JsonObject, known: ReadonlySet<string>, path: string): void {
  for (const key of Object.keys(object)) {
    if (!known.has(key)) throw invalidInteractionField(join(path, key), "unknown field.");
  }
}

/** `path.key`, or `key` at the top. */
export function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** A field's value, with `null` read as absent. */
export function field(object: JsonObject, key: string): unknown {
  const value = object[key];
  return value === null ? undefined : value;
}

export function stringAt(value: unknown, path: string): string {
  if (typeof value !== "string")
    throw invalidInteractionField(path, `expected a string, got ${describe(value)}.`);
  return value;
}

export function optionalString(object: JsonObject, key: string, path: string): string | undefined {
  const value = field(object, key);
  return value === undefined ? undefined : stringAt(value, join(path, key));
}

export function optionalBoolean(
  object: JsonObject,
  key: string,
  path: string,
): boolean | undefined {
  const value = field(object, key);
  if (value === undefined) return undefined;
  if (typeof value !== "boolean")
    throw invalidInteractionField(
      join(path, key),
      `expected true or false, got ${describe(value)}.`,
    );
  return value;
}

export function optionalNumber(
  object: JsonObject,
  key: string,
  path: string,
  range: { min?: number; max?: number; integer?: boolean } = {},
): number | undefined {
  const value = field(object, key);
  if (value === undefined) return undefined;
  const where = join(path, key);
  if (typeof value !== "number" || !Number.isFinite(value))
    throw invalidInteractionField(where, `expected a number, got ${describe(value)}.`);
  if (range.integer && !Number.isInteger(value))
    throw invalidInteractionField(where, `expected an integer, got ${value}.`);
  if (range.min !== undefined && value < range.min)
    throw invalidInteractionField(where, `must be at least ${range.min}, got ${value}.`);
  if (range.max !== undefined && value > range.max)
    throw invalidInteractionField(where, `must be at most ${range.max}, got ${value}.`);
  return value;
}

export function optionalEnum<T extends string>(
  object: JsonObject,
  key: string,
  path: string,
  values: readonly T[],
): T | undefined {
  const value = optionalString(object, key, path);
  if (value === undefined) return undefined;
  if (!values.includes(value as T))
    throw invalidInteractionField(
      join(path, key),
      `expected one of ${values.map((item) => `'${item}'`).join(", ")}, got ${describe(value)}.`,
    );
  return value as T;
}

export function listAt(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value))
    throw invalidInteractionField(path, `expected a list, got ${describe(value)}.`);
  return value;
}

export function optionalStringList(
  object: JsonObject,
  key: string,
  path: string,
): string[] | undefined {
  const value = field(object, key);
  if (value === undefined) return undefined;
  const where = join(path, key);
  return listAt(value, where).map((item, index) => stringAt(item, `${where}[${index}]`));
}
