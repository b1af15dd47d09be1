/**
 * The JSON Schema subset that generationConfig.responseJsonSchema accepts: the keyword list
 * of the spec (keywords beside a $ref included, as the service accepts them), $ref
 * resolution (`#`, JSON pointers, `$anchor`s, `$id`s), and the rule that a cycle of $ref may
 * only pass through properties that are not required (the service unrolls cycles to a
 * limited depth, so a forced cycle has no finite answer). Browser-safe.
 * Lenient as the service is: other `$` keys (`$schema`, `$comment`) and the other keywords
 * of JSON Schema (draft-07 and 2020-12: `minLength`, `pattern`, `const`, ...) pass, because the
 * service accepts documents using them (recorded: `minLength`/`maxLength` in a
 * responseJsonSchema, `pattern` in a parametersJsonSchema); the engine's output honours the
 * ones its JSON grammar knows and ignores the rest. A key that is no JSON Schema keyword at
 * all is refused.
 */
import type { FieldViolation } from "./api-error";
import {
  indexSchemaSteps,
  isObject,
  resolveWithIndex,
  type Located,
  type SchemaIndex,
  type SchemaObject,
} from "./json-schema-index";
import { ownKeys } from "./own-keys";
import { runSteps, type Steps } from "./steps";

// The engine's generation reads $ref through this module.
export { resolveJsonSchemaRef } from "./json-schema-index";

/** Keywords responseJsonSchema supports, in the spec's order. */
export const JSON_SCHEMA_KEYWORDS = [
  "$id",
  "$defs",
  "$ref",
  "$anchor",
  "type",
  "format",
  "title",
  "description",
  "enum",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "anyOf",
  "oneOf",
  "properties",
  "additionalProperties",
  "required",
  "propertyOrdering",
] as const;

/** The rest of JSON Schema's vocabulary (draft-07, 2020-12, and OpenAPI's `nullable`): accepted as the service accepts them. */
const OTHER_JSON_SCHEMA_KEYWORDS = [
  "minLength",
  "maxLength",
  "pattern",
  "const",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "multipleOf",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
  "definitions",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "nullable",
];

export const JSON_SCHEMA_TYPES = [
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "null",
] as const;

const KEYWORDS = new Set<string>([...JSON_SCHEMA_KEYWORDS, ...OTHER_JSON_SCHEMA_KEYWORDS]);
const TYPES = new Set<string>(JSON_SCHEMA_TYPES);
const ANCHOR_PATTERN = /^[A-Za-z_][-A-Za-z0-9._]*$/;

function isNonNegativeInteger(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return JSON.stringify(value);
}

/** Reports a violation at `path`, relative to the schema's own field. */
type Report = (path: string, description: string) => void;

/** A subschema where one must be: an object (or, where allowed, a boolean). */
function isSchema(child: unknown, allowBoolean: boolean): boolean {
  return isObject(child) || (allowBoolean && typeof child === "boolean");
}

/** Reports `child` where a subschema must be, unless it is one. */
function schemaAt(report: Report, child: unknown, path: string, allowBoolean: boolean): void {
  if (isSchema(child, allowBoolean)) return;
  report(
    path,
    `must be a JSON Schema object${allowBoolean ? " or a boolean" : ""}; got ${describeValue(child)}.`,
  );
}

/** Keys that are no JSON Schema keyword; a $ref that resolves. */
function checkKeysAndRef(
  node: SchemaObject,
  path: string,
  index: SchemaIndex,
  report: Report,
): void {
  const keys = Object.keys(node);
  for (const key of keys) {
    if (!KEYWORDS.has(key) && !key.startsWith("$")) {
      report(
        `${path}.${key}`,
        `"${key}" is not a JSON Schema keyword; response_json_schema supports ${JSON_SCHEMA_KEYWORDS.join(", ")}.`,
      );
    }
  }
  // Keywords beside a $ref are accepted (the documentation forbids them; the service answered
  // a recursive schema with a title beside its $ref, recorded on 2.5 and 3 in 2025-2026).
  if ("$ref" in node) {
    if (typeof node.$ref !== "string")
      report(`${path}.$ref`, `$ref must be a string; got ${describeValue(node.$ref)}.`);
    else if (resolveWithIndex(index, node.$ref) === undefined)
      report(`${path}.$ref`, `$ref "${node.$ref}" cannot be resolved.`);
  }
}

/** The string keywords, $anchor's form, type and enum. */
function checkScalarKeywords(node: SchemaObject, path: string, report: Report): void {
  for (const keyword of ["$id", "format", "title", "description"] as const) {
    if (keyword in node && typeof node[keyword] !== "string")
      report(
        `${path}.${keyword}`,
        `${keyword} must be a string; got ${describeValue(node[keyword])}.`,
      );
  }
  if (
    "$anchor" in node &&
    (typeof node.$anchor !== "string" || !ANCHOR_PATTERN.test(node.$anchor))
  ) {
    report(
      `${path}.$anchor`,
      `$anchor must be a name of letters, digits, "-", "_" and "." starting with a letter or "_"; got ${describeValue(node.$anchor)}.`,
    );
  }
  if ("type" in node) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.length === 0 || types.some((type) => typeof type !== "string" || !TYPES.has(type))) {
      report(
        `${path}.type`,
        `type must be one of ${JSON_SCHEMA_TYPES.join(", ")} (or a list of them); got ${describeValue(node.type)}.`,
      );
    }
  }
  if ("enum" in node) {
    if (!Array.isArray(node.enum) || node.enum.length === 0)
      report(
        `${path}.enum`,
        `enum must be a non-empty list of strings and numbers; got ${describeValue(node.enum)}.`,
      );
    else
      node.enum.forEach((item, position) => {
        if (typeof item !== "string" && typeof item !== "number")
          report(
            `${path}.enum[${position}]`,
            `enum values must be strings or numbers; got ${describeValue(item)}.`,
          );
      });
  }
}

/** minItems/maxItems and minimum/maximum: each well formed, and the lower not above the upper. */
function checkBounds(node: SchemaObject, path: string, report: Report): void {
  for (const keyword of ["minItems", "maxItems"] as const) {
    if (keyword in node && !isNonNegativeInteger(node[keyword]))
      report(
        `${path}.${keyword}`,
        `${keyword} must be a non-negative integer; got ${describeValue(node[keyword])}.`,
      );
  }
  if (
    isNonNegativeInteger(node.minItems) &&
    isNonNegativeInteger(node.maxItems) &&
    (node.minItems as number) > (node.maxItems as number)
  ) {
    report(
      `${path}.minItems`,
      `minItems (${String(node.minItems)}) must not be greater than maxItems (${String(node.maxItems)}).`,
    );
  }
  for (const keyword of ["minimum", "maximum"] as const) {
    if (keyword in node && (typeof node[keyword] !== "number" || !Number.isFinite(node[keyword])))
      report(
        `${path}.${keyword}`,
        `${keyword} must be a number; got ${describeValue(node[keyword])}.`,
      );
  }
  if (
    typeof node.minimum === "number" &&
    typeof node.maximum === "number" &&
    node.minimum > node.maximum
  ) {
    report(
      `${path}.minimum`,
      `minimum (${node.minimum}) must not be greater than maximum (${node.maximum}).`,
    );
  }
}

/**
 * Where subschemas sit (anyOf, oneOf, prefixItems, properties, $defs, items,
 * additionalProperties): each a schema. A step per subschema, and a subschema's field is
 * written only when it is wrong, so a list of a hundred thousand is never checked in one go.
 */
function* checkSubschemas(node: SchemaObject, path: string, report: Report): Steps {
  for (const keyword of ["anyOf", "oneOf", "prefixItems"] as const) {
    if (!(keyword in node)) continue;
    const list = node[keyword];
    if (!Array.isArray(list) || (keyword !== "prefixItems" && list.length === 0)) {
      report(
        `${path}.${keyword}`,
        `${keyword} must be a ${keyword === "prefixItems" ? "" : "non-empty "}list of schemas; got ${describeValue(list)}.`,
      );
      continue;
    }
    for (let position = 0; position < list.length; position++) {
      yield;
      if (!isSchema(list[position], false))
        schemaAt(report, list[position], `${path}.${keyword}[${position}]`, false);
    }
  }
  for (const keyword of ["properties", "$defs"] as const) {
    if (!(keyword in node)) continue;
    const map = node[keyword];
    if (!isObject(map)) {
      report(
        `${path}.${keyword}`,
        `${keyword} must be an object mapping names to schemas; got ${describeValue(map)}.`,
      );
      continue;
    }
    for (const name of ownKeys(map)) {
      yield;
      if (!isSchema(map[name], false))
        schemaAt(report, map[name], `${path}.${keyword}[${name}]`, false);
    }
  }
  if ("items" in node) schemaAt(report, node.items, `${path}.items`, true);
  if ("additionalProperties" in node)
    schemaAt(report, node.additionalProperties, `${path}.additionalProperties`, true);
}

/** required and propertyOrdering: lists of distinct property names. */
function checkNameLists(node: SchemaObject, path: string, report: Report): void {
  for (const keyword of ["required", "propertyOrdering"] as const) {
    if (!(keyword in node)) continue;
    const list = node[keyword];
    if (!Array.isArray(list) || list.some((item) => typeof item !== "string"))
      report(
        `${path}.${keyword}`,
        `${keyword} must be a list of property names; got ${describeValue(list)}.`,
      );
    else if (new Set(list).size !== list.length)
      report(`${path}.${keyword}`, `${keyword} lists a property more than once.`);
  }
}

/**
 * Checks `value` (a responseJsonSchema) against the supported subset. `field` is where it
 * sits in the request (`generation_config.response_json_schema`); violation fields extend it
 * with keywords, `[index]` and `properties[name]`. Never throws.
 */
export function checkJsonSchemaSubset(value: unknown, field: string): FieldViolation[] {
  return runSteps(checkJsonSchemaSubsetSteps(value, field));
}

/**
 * checkJsonSchemaSubset one subschema at a time: a document of a hundred thousand subschemas
 * is indexed and checked in slices by callers that run steps so (lib/engine's runInSlices).
 */
export function* checkJsonSchemaSubsetSteps(
  value: unknown,
  field: string,
): Steps<FieldViolation[]> {
  const violations: FieldViolation[] = [];
  const add = (path: string, description: string) => violations.push({ field: path, description });
  if (!isObject(value)) {
    add(field, `response_json_schema must be a JSON Schema object; got ${describeValue(value)}.`);
    return violations;
  }
  const index = yield* indexSchemaSteps(value);
  const full = (path: string) => field + path;

  const report: Report = (path, description) => add(full(path), description);
  for (const { node, field: path } of index.schemas) {
    yield;
    if (typeof node === "boolean") continue;
    checkKeysAndRef(node, path, index, report);
    checkScalarKeywords(node, path, report);
    checkBounds(node, path, report);
    yield* checkSubschemas(node, path, report);
    checkNameLists(node, path, report);
  }

  if (violations.length === 0) {
    const forced = yield* findForcedCycle(index);
    if (forced) {
      add(
        full(`${forced.field}.$ref`),
        `$ref "${String((forced.node as SchemaObject).$ref)}" closes a cycle through required properties; cycles are unrolled to a limited depth, so a recursive reference may only go through properties that are not required.`,
      );
    }
  }
  return violations;
}

/** A condition a schema waits on: met once any one of its schemas is finite. */
interface Condition {
  waiter: SchemaObject;
  met: boolean;
}

/**
 * A schema has a finite instance when its required parts do: required properties, the first
 * minItems items, a $ref's target, and at least one anyOf/oneOf branch. Computed as a least
 * fixpoint by counting: each schema waits on a number of conditions (each met by any one of
 * its schemas becoming finite), and a schema found finite meets the conditions that wait on
 * it, so every schema and every list item is looked at a bounded number of times whatever the
 * order of the document (going over the document until nothing changed took a pass per link
 * of a chain of $refs: a chain of thousands cost millions of steps). A $ref node left without
 * a finite instance sits on a forced cycle.
 */
function* findForcedCycle(index: SchemaIndex): Steps<Located | undefined> {
  const finite = new Set<unknown>();
  /** Conditions not yet met, per schema object. */
  const unmet = new Map<SchemaObject, number>();
  /** The conditions each schema meets once finite (one, or a list when several wait on it). */
  const waiting = new Map<unknown, Condition | Condition[]>();
  const ready: SchemaObject[] = [];
  const isFiniteAtOnce = (schema: unknown) => typeof schema === "boolean" || !isObject(schema);

  for (const { node } of index.schemas) {
    yield;
    if (!isObject(node)) continue;
    let count = 0;
    /** One condition on `node`: met once any of `schemas` is finite (a step per schema). */
    function* waitOn(waiter: SchemaObject, schemas: readonly unknown[]): Steps {
      if (schemas.length === 0) return;
      for (const schema of schemas) {
        yield;
        if (isFiniteAtOnce(schema)) return;
      }
      const condition: Condition = { waiter, met: false };
      count++;
      for (const schema of schemas) {
        yield;
        const known = waiting.get(schema);
        if (!known) waiting.set(schema, condition);
        else if (Array.isArray(known)) known.push(condition);
        else waiting.set(schema, [known, condition]);
      }
    }
    if (typeof node.$ref === "string") {
      const target = resolveWithIndex(index, node.$ref);
      if (target !== undefined) yield* waitOn(node, [target]);
    } else {
      for (const keyword of ["anyOf", "oneOf"] as const) {
        const branches = node[keyword];
        if (Array.isArray(branches)) yield* waitOn(node, branches);
      }
      const properties = isObject(node.properties) ? node.properties : {};
      if (Array.isArray(node.required))
        for (const name of node.required)
          if (typeof name === "string" && Object.prototype.hasOwnProperty.call(properties, name))
            yield* waitOn(node, [properties[name]]);
      const minItems = typeof node.minItems === "number" ? node.minItems : 0;
      const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
      for (let position = 0; position < Math.min(minItems, prefix.length); position++)
        yield* waitOn(node, [prefix[position]]);
      if (minItems > prefix.length && node.items !== undefined) yield* waitOn(node, [node.items]);
    }
    unmet.set(node, count);
    if (count === 0) ready.push(node);
  }

  while (ready.length) {
    const schema = ready.pop()!;
    if (finite.has(schema)) continue;
    finite.add(schema);
    const conditions = waiting.get(schema) ?? [];
    for (const condition of Array.isArray(conditions) ? conditions : [conditions]) {
      yield;
      if (condition.met) continue;
      condition.met = true;
      const left = unmet.get(condition.waiter)! - 1;
      unmet.set(condition.waiter, left);
      if (left === 0) ready.push(condition.waiter);
    }
  }
  // The last one in document order is the deepest: usually the reference that closes the cycle.
  return index.schemas.findLast(
    ({ node }) => isObject(node) && typeof node.$ref === "string" && !finite.has(node),
  );
}
