/**
 * A JSON Schema document indexed for $ref: its subschemas in document order with their field
 * paths, its `$id`s and `$anchor`s, and $ref resolution (`#`, JSON pointers, anchors, ids).
 * Browser-safe.
 */
import { ownKeys } from "./own-keys";
import { runSteps, type Steps } from "./steps";

export type SchemaObject = Record<string, unknown>;

export function isObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where a schema sits in the request, for messages, and where it sits in the document, for $ref. */
export interface Located {
  node: SchemaObject | boolean;
  field: string;
}

/** Index of a schema document: its subschemas, `$id`s and `$anchor`s. */
export interface SchemaIndex {
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

export function resolveWithIndex(
  index: SchemaIndex,
  ref: string,
): SchemaObject | boolean | undefined {
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

export function indexSchema(root: unknown): SchemaIndex {
  return runSteps(indexSchemaSteps(root));
}

/** indexSchema one subschema at a time (a document may hold a hundred thousand: see Steps). */
export function* indexSchemaSteps(root: unknown): Steps<SchemaIndex> {
  const index: SchemaIndex = { root, ids: new Map(), anchors: new Map(), schemas: [] };
  const seen = new Set<unknown>();
  function* visit(node: unknown, field: string): Steps {
    yield;
    if (typeof node === "boolean") {
      index.schemas.push({ node, field });
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    index.schemas.push({ node, field });
    if (typeof node.$id === "string") index.ids.set(node.$id, node);
    if (typeof node.$anchor === "string") index.anchors.set(node.$anchor, node);
    for (const [name, child] of subschemas(node, field)) yield* visit(child, name);
  }
  yield* visit(root, "");
  return index;
}

/**
 * The direct subschemas of a schema object, with their field paths, one at a time: a list of
 * a hundred thousand branches is gone through a step per branch, never built whole.
 */
function* subschemas(node: SchemaObject, field: string): Generator<[string, unknown]> {
  for (const keyword of ["$defs", "properties"] as const) {
    const map = node[keyword];
    if (isObject(map))
      for (const name of ownKeys(map)) yield [`${field}.${keyword}[${name}]`, map[name]];
  }
  for (const keyword of ["prefixItems", "anyOf", "oneOf"] as const) {
    const list = node[keyword];
    if (Array.isArray(list))
      for (let position = 0; position < list.length; position++)
        yield [`${field}.${keyword}[${position}]`, list[position]];
  }
  if (node.items !== undefined) yield [`${field}.items`, node.items];
  if (node.additionalProperties !== undefined)
    yield [`${field}.additionalProperties`, node.additionalProperties];
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
