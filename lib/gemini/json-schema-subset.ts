/**
 * The JSON Schema subset that generationConfig.responseJsonSchema accepts: the keyword list
 * of the spec, the rule that a subschema with $ref sets nothing else but `$` keys, $ref
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

type SchemaObject = Record<string, unknown>;

function isObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNonNegativeInteger(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** Where a schema sits in the request, for messages, and where it sits in the document, for $ref. */
interface Located {
  node: SchemaObject | boolean;
  field: string;
}

/** Index of a schema document: its subschemas, `$id`s and `$anchor`s. */
interface SchemaIndex {
  root: unknown;
  ids: Map<string, SchemaObject>;
  anchors: Map<string, SchemaObject>;
  schemas: Located[];
}

function decodePointerSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A stray % is taken literally, as JSON pointers in URI fragments are percent-encoded only when needed.
  }
  return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
}

function resolvePointer(base: unknown, pointer: string): unknown {
  if (pointer === "") return base;
  if (!pointer.startsWith("/")) return undefined;
  let current: unknown = base;
  for (const rawSegment of pointer.slice(1).split("/")) {
    const segment = decodePointerSegment(rawSegment);
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (isObject(current)) {
      current = Object.prototype.hasOwnProperty.call(current, segment)
        ? current[segment]
        : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

function resolveWithIndex(index: SchemaIndex, ref: string): SchemaObject | boolean | undefined {
  const hash = ref.indexOf("#");
  const base = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? "" : ref.slice(hash + 1);
  let document: unknown = index.root;
  if (base !== "") {
    document = index.ids.get(base);
    if (document === undefined) return undefined;
  }
  let target: unknown;
  if (fragment === "" || fragment.startsWith("/")) target = resolvePointer(document, fragment);
  else target = index.anchors.get(fragment);
  return isObject(target) || typeof target === "boolean" ? target : undefined;
}

function indexSchema(root: unknown): SchemaIndex {
  const index: SchemaIndex = { root, ids: new Map(), anchors: new Map(), schemas: [] };
  const seen = new Set<unknown>();
  const visit = (node: unknown, field: string): void => {
    if (typeof node === "boolean") {
      index.schemas.push({ node, field });
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    index.schemas.push({ node, field });
    if (typeof node.$id === "string") index.ids.set(node.$id, node);
    if (typeof node.$anchor === "string") index.anchors.set(node.$anchor, node);
    for (const [name, child] of subschemas(node, field)) visit(child, name);
  };
  visit(root, "");
  return index;
}

/** The direct subschemas of a schema object, with their field paths. */
function subschemas(node: SchemaObject, field: string): [string, unknown][] {
  const children: [string, unknown][] = [];
  const mapKeyword = (keyword: "properties" | "$defs") => {
    const map = node[keyword];
    if (isObject(map))
      for (const [name, child] of Object.entries(map))
        children.push([`${field}.${keyword}[${name}]`, child]);
  };
  const listKeyword = (keyword: "prefixItems" | "anyOf" | "oneOf") => {
    const list = node[keyword];
    if (Array.isArray(list))
      list.forEach((child, position) => children.push([`${field}.${keyword}[${position}]`, child]));
  };
  mapKeyword("$defs");
  mapKeyword("properties");
  listKeyword("prefixItems");
  listKeyword("anyOf");
  listKeyword("oneOf");
  if (node.items !== undefined) children.push([`${field}.items`, node.items]);
  if (node.additionalProperties !== undefined)
    children.push([`${field}.additionalProperties`, node.additionalProperties]);
  return children;
}

/**
 * Resolves `ref` against the schema document `root`: `#`, `#/json/pointer`, `#anchor`, or a
 * `$id` declared in the document (optionally followed by a fragment). Undefined when it
 * does not resolve to a schema. The engine uses this to follow references while it
 * constrains JSON output.
 */
export function resolveJsonSchemaRef(
  root: unknown,
  ref: string,
): SchemaObject | boolean | undefined {
  return resolveWithIndex(indexSchema(root), ref);
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return JSON.stringify(value);
}

/**
 * Checks `value` (a responseJsonSchema) against the supported subset. `field` is where it
 * sits in the request (`generation_config.response_json_schema`); violation fields extend it
 * with keywords, `[index]` and `properties[name]`. Never throws.
 */
export function checkJsonSchemaSubset(value: unknown, field: string): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const add = (path: string, description: string) => violations.push({ field: path, description });
  if (!isObject(value)) {
    add(field, `response_json_schema must be a JSON Schema object; got ${describeValue(value)}.`);
    return violations;
  }
  const index = indexSchema(value);
  const full = (path: string) => field + path;

  const schemaAt = (child: unknown, path: string, allowBoolean: boolean) => {
    if (isObject(child)) return;
    if (allowBoolean && typeof child === "boolean") return;
    add(
      full(path),
      `must be a JSON Schema object${allowBoolean ? " or a boolean" : ""}; got ${describeValue(child)}.`,
    );
  };

  for (const { node, field: path } of index.schemas) {
    if (typeof node === "boolean") continue;
    const keys = Object.keys(node);
    for (const key of keys) {
      if (!KEYWORDS.has(key) && !key.startsWith("$")) {
        add(
          full(`${path}.${key}`),
          `"${key}" is not a JSON Schema keyword; response_json_schema supports ${JSON_SCHEMA_KEYWORDS.join(", ")}.`,
        );
      }
    }
    if ("$ref" in node) {
      const others = keys.filter((key) => !key.startsWith("$"));
      if (others.length) {
        add(
          full(path || ""),
          `a subschema with $ref may set no other keyword except ones starting with "$"; found ${others.join(", ")}.`,
        );
      }
      if (typeof node.$ref !== "string")
        add(full(`${path}.$ref`), `$ref must be a string; got ${describeValue(node.$ref)}.`);
      else if (resolveWithIndex(index, node.$ref) === undefined)
        add(full(`${path}.$ref`), `$ref "${node.$ref}" cannot be resolved.`);
    }
    for (const keyword of ["$id", "format", "title", "description"] as const) {
      if (keyword in node && typeof node[keyword] !== "string")
        add(
          full(`${path}.${keyword}`),
          `${keyword} must be a string; got ${describeValue(node[keyword])}.`,
        );
    }
    if (
      "$anchor" in node &&
      (typeof node.$anchor !== "string" || !ANCHOR_PATTERN.test(node.$anchor))
    ) {
      add(
        full(`${path}.$anchor`),
        `$anchor must be a name of letters, digits, "-", "_" and "." starting with a letter or "_"; got ${describeValue(node.$anchor)}.`,
      );
    }
    if ("type" in node) {
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (
        types.length === 0 ||
        types.some((type) => typeof type !== "string" || !TYPES.has(type))
      ) {
        add(
          full(`${path}.type`),
          `type must be one of ${JSON_SCHEMA_TYPES.join(", ")} (or a list of them); got ${describeValue(node.type)}.`,
        );
      }
    }
    if ("enum" in node) {
      if (!Array.isArray(node.enum) || node.enum.length === 0)
        add(
          full(`${path}.enum`),
          `enum must be a non-empty list of strings and numbers; got ${describeValue(node.enum)}.`,
        );
      else
        node.enum.forEach((item, position) => {
          if (typeof item !== "string" && typeof item !== "number")
            add(
              full(`${path}.enum[${position}]`),
              `enum values must be strings or numbers; got ${describeValue(item)}.`,
            );
        });
    }
    for (const keyword of ["minItems", "maxItems"] as const) {
      if (keyword in node && !isNonNegativeInteger(node[keyword]))
        add(
          full(`${path}.${keyword}`),
          `${keyword} must be a non-negative integer; got ${describeValue(node[keyword])}.`,
        );
    }
    if (
      isNonNegativeInteger(node.minItems) &&
      isNonNegativeInteger(node.maxItems) &&
      (node.minItems as number) > (node.maxItems as number)
    ) {
      add(
        full(`${path}.minItems`),
        `minItems (${String(node.minItems)}) must not be greater than maxItems (${String(node.maxItems)}).`,
      );
    }
    for (const keyword of ["minimum", "maximum"] as const) {
      if (keyword in node && (typeof node[keyword] !== "number" || !Number.isFinite(node[keyword])))
        add(
          full(`${path}.${keyword}`),
          `${keyword} must be a number; got ${describeValue(node[keyword])}.`,
        );
    }
    if (
      typeof node.minimum === "number" &&
      typeof node.maximum === "number" &&
      node.minimum > node.maximum
    ) {
      add(
        full(`${path}.minimum`),
        `minimum (${node.minimum}) must not be greater than maximum (${node.maximum}).`,
      );
    }
    for (const keyword of ["anyOf", "oneOf", "prefixItems"] as const) {
      if (!(keyword in node)) continue;
      const list = node[keyword];
      if (!Array.isArray(list) || (keyword !== "prefixItems" && list.length === 0)) {
        add(
          full(`${path}.${keyword}`),
          `${keyword} must be a ${keyword === "prefixItems" ? "" : "non-empty "}list of schemas; got ${describeValue(list)}.`,
        );
      } else
        list.forEach((child, position) =>
          schemaAt(child, `${path}.${keyword}[${position}]`, false),
        );
    }
    for (const keyword of ["properties", "$defs"] as const) {
      if (!(keyword in node)) continue;
      const map = node[keyword];
      if (!isObject(map))
        add(
          full(`${path}.${keyword}`),
          `${keyword} must be an object mapping names to schemas; got ${describeValue(map)}.`,
        );
      else
        for (const [name, child] of Object.entries(map))
          schemaAt(child, `${path}.${keyword}[${name}]`, false);
    }
    if ("items" in node) schemaAt(node.items, `${path}.items`, true);
    if ("additionalProperties" in node)
      schemaAt(node.additionalProperties, `${path}.additionalProperties`, true);
    for (const keyword of ["required", "propertyOrdering"] as const) {
      if (!(keyword in node)) continue;
      const list = node[keyword];
      if (!Array.isArray(list) || list.some((item) => typeof item !== "string"))
        add(
          full(`${path}.${keyword}`),
          `${keyword} must be a list of property names; got ${describeValue(list)}.`,
        );
      else if (new Set(list).size !== list.length)
        add(full(`${path}.${keyword}`), `${keyword} lists a property more than once.`);
    }
  }

  if (violations.length === 0) {
    const forced = findForcedCycle(index);
    if (forced) {
      add(
        full(`${forced.field}.$ref`),
        `$ref "${String((forced.node as SchemaObject).$ref)}" closes a cycle through required properties; cycles are unrolled to a limited depth, so a recursive reference may only go through properties that are not required.`,
      );
    }
  }
  return violations;
}

/**
 * A schema has a finite instance when its required parts do: required properties, the first
 * minItems items, a $ref's target, and at least one anyOf/oneOf branch. Computed as a least
 * fixpoint; a $ref node left without a finite instance sits on a forced cycle.
 */
function findForcedCycle(index: SchemaIndex): Located | undefined {
  const finite = new Map<unknown, boolean>();
  const isFinite = (schema: unknown): boolean =>
    typeof schema === "boolean" || !isObject(schema) || finite.get(schema) === true;
  const evaluate = (node: SchemaObject): boolean => {
    if (typeof node.$ref === "string") {
      const target = resolveWithIndex(index, node.$ref);
      return target === undefined || isFinite(target);
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const branches = node[keyword];
      if (Array.isArray(branches) && branches.length > 0 && !branches.some(isFinite)) return false;
    }
    const properties = isObject(node.properties) ? node.properties : {};
    if (Array.isArray(node.required)) {
      for (const name of node.required) {
        if (
          typeof name === "string" &&
          Object.prototype.hasOwnProperty.call(properties, name) &&
          !isFinite(properties[name])
        )
          return false;
      }
    }
    const minItems = typeof node.minItems === "number" ? node.minItems : 0;
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    for (let position = 0; position < Math.min(minItems, prefix.length); position++)
      if (!isFinite(prefix[position])) return false;
    if (minItems > prefix.length && node.items !== undefined && !isFinite(node.items)) return false;
    return true;
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (const { node } of index.schemas) {
      if (typeof node === "boolean" || finite.get(node)) continue;
      if (evaluate(node)) {
        finite.set(node, true);
        changed = true;
      }
    }
  }
  // The last one in document order is the deepest: usually the reference that closes the cycle.
  return index.schemas.findLast(
    ({ node }) => isObject(node) && typeof node.$ref === "string" && !finite.get(node),
  );
}
