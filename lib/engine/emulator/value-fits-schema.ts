/**
 * Whether a scripted JSON answer fits the request's response schema (or a scripted function
 * call's arguments its declaration): the same normalised schema tree the engine's JSON grammar
 * walks (generate/json-schema-nodes.ts), so a scenario is held to what the engine itself would
 * produce. Answers the first misfit as `$.path: problem`, or null.
 */
import {
  fromOpenApiSchema,
  JsonSchemaDocument,
  type SchemaNode,
} from "@/lib/engine/generate/json-schema-nodes";
import type { Schema } from "@/lib/gemini/types";

/** The tree of an OpenAPI-subset schema or a JSON Schema document. */
export function schemaTree(schema: {
  openApi?: Schema;
  jsonSchema?: unknown;
}): { node: SchemaNode; resolve: (ref: string) => SchemaNode } | null {
  if (schema.jsonSchema !== undefined) {
    const document = new JsonSchemaDocument(schema.jsonSchema);
    return { node: document.rootNode(), resolve: (ref) => document.resolve(ref) };
  }
  if (schema.openApi !== undefined)
    return { node: fromOpenApiSchema(schema.openApi), resolve: () => ({ kind: "any" }) };
  return null;
}

/** The first place `value` does not fit `node`, or null. Depth-bounded against cyclic $refs. */
export function misfit(
  value: unknown,
  tree: { node: SchemaNode; resolve: (ref: string) => SchemaNode },
  path = "$",
  depth = 0,
): string | null {
  const { node } = tree;
  if (depth > 64) return null;
  const child = (next: SchemaNode, at: string, item: unknown) =>
    misfit(item, { node: next, resolve: tree.resolve }, at, depth + 1);
  switch (node.kind) {
    case "any":
      return null;
    case "never":
      return `${path}: no value is allowed here`;
    case "ref":
      return child(tree.resolve(node.ref), path, value);
    case "null":
      return value === null ? null : `${path}: expected null`;
    case "boolean":
      return typeof value === "boolean" ? null : `${path}: expected a boolean`;
    case "string":
      if (typeof value !== "string") return `${path}: expected a string`;
      if (value.length < node.minLength) return `${path}: shorter than ${node.minLength}`;
      if (node.maxLength !== undefined && value.length > node.maxLength)
        return `${path}: longer than ${node.maxLength}`;
      return null;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return `${path}: expected a number`;
      if (node.integer && !Number.isInteger(value)) return `${path}: expected an integer`;
      if (node.minimum !== undefined && value < node.minimum)
        return `${path}: below the minimum ${node.minimum}`;
      if (node.maximum !== undefined && value > node.maximum)
        return `${path}: above the maximum ${node.maximum}`;
      return null;
    case "literal":
      return node.values.some((literal) => literal === value)
        ? null
        : `${path}: expected one of ${node.values.map((literal) => JSON.stringify(literal)).join(", ")}`;
    case "union":
      return node.options.some((option) => child(option, path, value) === null)
        ? null
        : `${path}: fits none of the allowed shapes`;
    case "array": {
      if (!Array.isArray(value)) return `${path}: expected an array`;
      if (value.length < node.minItems) return `${path}: fewer than ${node.minItems} items`;
      if (node.maxItems !== undefined && value.length > node.maxItems)
        return `${path}: more than ${node.maxItems} items`;
      for (const [index, item] of value.entries()) {
        const itemNode = node.prefixItems[index] ?? node.items;
        if (!itemNode) continue;
        const problem = child(itemNode, `${path}[${index}]`, item);
        if (problem) return problem;
      }
      return null;
    }
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value))
        return `${path}: expected an object`;
      const record = value as Record<string, unknown>;
      for (const property of node.properties) {
        if (!(property.name in record)) {
          if (property.required) return `${path}: lacks the required property "${property.name}"`;
          continue;
        }
        const problem = child(property.schema, `${path}.${property.name}`, record[property.name]);
        if (problem) return problem;
      }
      if (!node.free) {
        const known = new Set(node.properties.map((property) => property.name));
        const extra = Object.keys(record).find((name) => !known.has(name));
        if (extra !== undefined)
          return `${path}: has the property "${extra}", which the schema does not name`;
      }
      return null;
    }
  }
}
