/**
 * The schemas of constrained JSON output, normalised into one tree of nodes the grammar walks
 * (json-grammar.ts): the OpenAPI subset (responseSchema, function `parameters`) and JSON
 * Schema documents (responseJsonSchema, parametersJsonSchema, their $refs resolved lazily).
 * Knowingly unsupported: `pattern`; `format`s beyond those json-strings.ts writes.
 */
import { resolveJsonSchemaRef } from "@/lib/gemini/json-schema-subset";
import { runSteps, type Steps } from "@/lib/gemini/steps";
import type { Schema } from "@/lib/gemini/types";

export type Literal = string | number | boolean | null;

export type SchemaNode =
  | { kind: "string"; format?: string; minLength: number; maxLength?: number }
  | { kind: "number"; integer: boolean; minimum?: number; maximum?: number }
  | { kind: "boolean" }
  | { kind: "null" }
  | { kind: "literal"; values: Literal[] }
  | {
      kind: "array";
      items?: SchemaNode;
      prefixItems: SchemaNode[];
      minItems: number;
      maxItems?: number;
    }
  | { kind: "object"; properties: PropertyNode[]; free: boolean }
  | { kind: "union"; options: SchemaNode[]; weights: number[] }
  | { kind: "ref"; ref: string }
  | { kind: "any" }
  | { kind: "never" };

export interface PropertyNode {
  name: string;
  schema: SchemaNode;
  required: boolean;
}

/** How likely a nullable value is null. */
export const NULL_WEIGHT = 0.15;

function toNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/**
 * A union of `options`, of equal weights: its `never` branches dropped, unless no
 * other is left (the grammar then writes null).
 */
function union(options: SchemaNode[]): SchemaNode {
  const kept = options.some((option) => option.kind === "never")
    ? options.filter((option) => option.kind !== "never")
    : options;
  const chosen = kept.length ? kept : options;
  return { kind: "union", options: chosen, weights: new Array<number>(chosen.length).fill(1) };
}

function withNull(node: SchemaNode, nullable: unknown): SchemaNode {
  return nullable === true
    ? { kind: "union", options: [node, { kind: "null" }], weights: [1 - NULL_WEIGHT, NULL_WEIGHT] }
    : node;
}

/** Normalises an OpenAPI-subset Schema (responseSchema, function `parameters`). */
export function fromOpenApiSchema(schema: Schema | undefined): SchemaNode {
  return runSteps(openApiSchemaSteps(schema));
}

/**
 * fromOpenApiSchema in steps, one a node: a schema of a hundred thousand alternatives or
 * properties is normalised in slices (runInSlices), not in one go.
 */
export function* openApiSchemaSteps(schema: Schema | undefined): Steps<SchemaNode> {
  yield;
  if (!schema) return { kind: "any" };
  const type = schema.type?.toUpperCase();
  let node: SchemaNode;
  if (schema.enum?.length && (type === undefined || type === "STRING")) {
    node = { kind: "literal", values: [...schema.enum] };
  } else if (schema.anyOf?.length && (type === undefined || type === "TYPE_UNSPECIFIED")) {
    const options: SchemaNode[] = [];
    for (const option of schema.anyOf) options.push(yield* openApiSchemaSteps(option));
    node = union(options);
  } else {
    switch (type) {
      case "STRING":
        node = {
          kind: "string",
          format: schema.format,
          minLength: toNumber(schema.minLength) ?? 0,
          maxLength: toNumber(schema.maxLength),
        };
        break;
      case "NUMBER":
      case "INTEGER":
        node = {
          kind: "number",
          integer: type === "INTEGER",
          minimum: schema.minimum,
          maximum: schema.maximum,
        };
        break;
      case "BOOLEAN":
        node = { kind: "boolean" };
        break;
      case "NULL":
        node = { kind: "null" };
        break;
      case "ARRAY":
        node = {
          kind: "array",
          items: schema.items ? yield* openApiSchemaSteps(schema.items) : undefined,
          prefixItems: [],
          minItems: toNumber(schema.minItems) ?? 0,
          maxItems: toNumber(schema.maxItems),
        };
        break;
      case "OBJECT": {
        const properties = schema.properties ?? {};
        // The service orders properties alphabetically unless propertyOrdering says otherwise.
        const names = orderedNames(Object.keys(properties), schema.propertyOrdering, true);
        const required = new Set(schema.required ?? []);
        const nodes: PropertyNode[] = [];
        for (const name of names)
          nodes.push({
            name,
            schema: yield* openApiSchemaSteps(properties[name]),
            required: required.has(name),
          });
        node = { kind: "object", free: false, properties: nodes };
        break;
      }
      default:
        node = { kind: "any" };
    }
  }
  return withNull(node, schema.nullable);
}

function orderedNames(names: string[], ordering: unknown, alphabetical: boolean): string[] {
  const known = new Set(names);
  const listed = Array.isArray(ordering)
    ? [
        ...new Set(
          ordering.filter((name): name is string => typeof name === "string" && known.has(name)),
        ),
      ]
    : [];
  const taken = new Set(listed);
  const rest = names.filter((name) => !taken.has(name));
  if (alphabetical) rest.sort();
  return [...listed, ...rest];
}

/** Normaliser of one JSON Schema document (responseJsonSchema, parametersJsonSchema); $refs resolve lazily. */
export class JsonSchemaDocument {
  private readonly cache = new Map<unknown, SchemaNode>();
  private readonly refs = new Map<string, SchemaNode>();

  constructor(readonly root: unknown) {}

  rootNode(): SchemaNode {
    return runSteps(this.rootNodeSteps());
  }

  /** The root's node in steps, one a node (a document may be megabytes: see runInSlices). */
  rootNodeSteps(): Steps<SchemaNode> {
    return this.normalise(this.root);
  }

  resolve(ref: string): SchemaNode {
    let node = this.refs.get(ref);
    if (!node) {
      const target = resolveJsonSchemaRef(this.root, ref);
      node = target === undefined ? { kind: "any" } : runSteps(this.normalise(target));
      this.refs.set(ref, node);
    }
    return node;
  }

  private *normalise(value: unknown): Steps<SchemaNode> {
    yield;
    if (value === true || value === undefined) return { kind: "any" };
    if (value === false) return { kind: "never" };
    if (typeof value !== "object" || value === null) return { kind: "any" };
    const cached = this.cache.get(value);
    if (cached) return cached;
    const node = yield* this.build(value as Record<string, unknown>);
    this.cache.set(value, node);
    return node;
  }

  private *build(schema: Record<string, unknown>): Steps<SchemaNode> {
    if (typeof schema.$ref === "string") return { kind: "ref", ref: schema.$ref };
    if (Array.isArray(schema.enum) && schema.enum.length) {
      return {
        kind: "literal",
        values: schema.enum.filter(
          (value): value is Literal =>
            value === null || ["string", "number", "boolean"].includes(typeof value),
        ),
      };
    }
    const alternatives = (
      Array.isArray(schema.anyOf)
        ? schema.anyOf
        : Array.isArray(schema.oneOf)
          ? schema.oneOf
          : undefined
    ) as unknown[] | undefined;
    const types = Array.isArray(schema.type)
      ? (schema.type as string[])
      : typeof schema.type === "string"
        ? [schema.type]
        : [];
    const typed: SchemaNode[] = [];
    for (const type of types) typed.push(yield* this.typed(type, schema));
    if (alternatives?.length) {
      const options: SchemaNode[] = [];
      for (const option of alternatives) options.push(yield* this.normalise(option));
      // anyOf beside type: each branch must also satisfy the type; the branches carry their own types in practice.
      return union(options);
    }
    if (typed.length === 1) return typed[0]!;
    if (typed.length > 1) {
      return {
        kind: "union",
        options: typed,
        weights: typed.map((node) => (node.kind === "null" ? NULL_WEIGHT : 1)),
      };
    }
    if (schema.properties || schema.required) return yield* this.typed("object", schema);
    if (schema.items || schema.prefixItems) return yield* this.typed("array", schema);
    return { kind: "any" };
  }

  private *typed(type: string, schema: Record<string, unknown>): Steps<SchemaNode> {
    switch (type) {
      case "string":
        return {
          kind: "string",
          format: typeof schema.format === "string" ? schema.format : undefined,
          minLength: toNumber(schema.minLength) ?? 0,
          maxLength: toNumber(schema.maxLength),
        };
      case "number":
      case "integer":
        return {
          kind: "number",
          integer: type === "integer",
          minimum: toNumber(schema.minimum),
          maximum: toNumber(schema.maximum),
        };
      case "boolean":
        return { kind: "boolean" };
      case "null":
        return { kind: "null" };
      case "array": {
        const prefixItems: SchemaNode[] = [];
        if (Array.isArray(schema.prefixItems))
          for (const item of schema.prefixItems) prefixItems.push(yield* this.normalise(item));
        return {
          kind: "array",
          items: schema.items === undefined ? undefined : yield* this.normalise(schema.items),
          prefixItems,
          minItems: toNumber(schema.minItems) ?? 0,
          maxItems: toNumber(schema.maxItems),
        };
      }
      case "object": {
        const properties = (
          typeof schema.properties === "object" && schema.properties !== null
            ? schema.properties
            : {}
        ) as Record<string, unknown>;
        const required = new Set(
          Array.isArray(schema.required) ? (schema.required as string[]) : [],
        );
        const names = orderedNames(Object.keys(properties), schema.propertyOrdering, false);
        const named = new Set(names);
        for (const name of required) if (!named.has(name)) names.push(name);
        const nodes: PropertyNode[] = [];
        for (const name of names)
          nodes.push({
            name,
            schema: yield* this.normalise(properties[name]),
            required: required.has(name),
          });
        return { kind: "object", free: false, properties: nodes };
      }
      default:
        return { kind: "any" };
    }
  }
}
