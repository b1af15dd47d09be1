/**
 * Every place a request names a stored resource (a file, a cached content or a file search
 * store) in a field it knows, found from the request schemas themselves: the walk below looks
 * through each operation's schema for the fields registered in `schemas/reference-fields`,
 * once, and then visits exactly those places of a canonical request. Ownership checks in both
 * backends read this one list, so a reference cannot hide in a place someone forgot; what the
 * schemas do not know (fields the gateway forwards unread, URLs a fetching tool may read) is
 * looked through by lib/gemini/resource-names.
 */
import type { z } from "zod";
import { batchCreateSchema } from "./schemas/batch";
import {
  cachedContentCreateSchema,
  countTokensRequestSchema,
  generateContentRequestSchema,
} from "./schemas/requests";
import {
  cachedContentNameOfUrl,
  fileNameOfUri,
  referenceFields,
  type ReferenceKind,
  type ReferenceSpelling,
} from "./schemas/reference-fields";
import { camelToSnake } from "./schemas/wire";
import { runSteps, type Steps } from "./steps";
import type {
  BatchGenerateContentRequest,
  CachedContentCreate,
  CountTokensRequest,
  GenerateContentRequest,
} from "./types";

export { cachedContentNameOfUrl, fileNameOfUri, type ReferenceKind, type ReferenceSpelling };

/** A canonical request of an operation whose body may name stored resources. */
export type ReferencingRequest =
  | { operation: "generateContent"; request: GenerateContentRequest }
  | { operation: "countTokens"; request: CountTokensRequest }
  | { operation: "createCachedContent"; request: CachedContentCreate }
  | { operation: "batchGenerateContent"; request: BatchGenerateContentRequest };

export type ReferencingOperation = ReferencingRequest["operation"];

const SCHEMAS: Record<ReferencingOperation, z.ZodType> = {
  generateContent: generateContentRequestSchema,
  countTokens: countTokensRequestSchema,
  createCachedContent: cachedContentCreateSchema,
  batchGenerateContent: batchCreateSchema,
};

export interface ResourceReference {
  kind: ReferenceKind;
  /** How the place spells a checked reference for the upstream. */
  spelling: ReferenceSpelling;
  /** The value as it stands in the request. */
  value: string;
  /**
   * The resource it names: `files/{id}` or the cached content's name; null for a fileUri
   * that names no file of the API (a video page, a bucket object).
   */
  name: string | null;
  /** Where it is, in canonical (camelCase) segments. */
  path: (string | number)[];
  /** Replaces the value in the request (the gateway's own spelling of a file it checked). */
  replace(value: string): void;
}

/**
 * What one schema node says about the value it checks: the value is a reference of a kind,
 * and/or some of its fields lead to references, and/or it is checked by inner schemas too
 * (optional, pipes, lists, lazy) that may say more.
 */
interface Places {
  kind?: ReferenceKind;
  spelling?: ReferenceSpelling;
  /** The value is a list; each item is what the inner schemas check. */
  list: boolean;
  fields: Map<string, Places>;
  through: Places[];
}

interface SchemaDefinition {
  type: string;
  in?: z.ZodType;
  out?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

function definition(schema: z.ZodType): SchemaDefinition {
  return (schema as unknown as { _zod: { def: SchemaDefinition } })._zod.def;
}

/** The schemas that check the same value as `schema` (or, for a list, each of its items). */
function innerSchemas(def: SchemaDefinition): z.ZodType[] {
  switch (def.type) {
    case "pipe":
      return [def.in!, def.out!];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      return [def.innerType!];
    case "array":
      return [def.element!];
    case "union":
      return def.options ?? [];
    case "lazy":
      return [def.getter!()];
    default:
      return [];
  }
}

/**
 * The places of `root`: one node per schema (memoised, so recursive schemas such as Schema
 * end), with every branch that leads to no reference dropped.
 */
function placesOf(root: z.ZodType): Places | null {
  const memo = new Map<z.ZodType, Places>();
  const build = (schema: z.ZodType): Places => {
    const known = memo.get(schema);
    if (known) return known;
    const def = definition(schema);
    const registered = referenceFields.get(schema);
    const node: Places = {
      kind: registered?.kind,
      spelling: registered?.spelling,
      list: def.type === "array",
      fields: new Map(),
      through: [],
    };
    memo.set(schema, node);
    for (const [key, child] of Object.entries(def.type === "object" ? (def.shape ?? {}) : {}))
      node.fields.set(key, build(child));
    node.through = innerSchemas(def).map(build);
    return node;
  };
  const top = build(root);
  const live = new Set<Places>();
  const leadsOn = (child: Places) => live.has(child);
  for (let changed = true; changed;) {
    changed = false;
    for (const node of memo.values()) {
      if (live.has(node)) continue;
      if (node.kind || [...node.fields.values()].some(leadsOn) || node.through.some(leadsOn)) {
        live.add(node);
        changed = true;
      }
    }
  }
  for (const node of memo.values()) {
    for (const [key, child] of node.fields) if (!live.has(child)) node.fields.delete(key);
    node.through = node.through.filter(leadsOn);
  }
  return live.has(top) ? top : null;
}

const placesByOperation = new Map<ReferencingOperation, Places | null>();

function places(operation: ReferencingOperation): Places | null {
  if (!placesByOperation.has(operation))
    placesByOperation.set(operation, placesOf(SCHEMAS[operation]));
  return placesByOperation.get(operation)!;
}

type Holder = Record<string | number, unknown>;

function* visit(
  node: Places,
  holder: Holder,
  key: string | number,
  path: (string | number)[],
  found: ResourceReference[],
): Steps {
  const value = holder[key];
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      yield* visit(node, value as unknown as Holder, index, [...path, index], found);
      yield;
    }
    return;
  }
  if (node.kind && typeof value === "string") {
    const kind = node.kind;
    found.push({
      kind,
      spelling: node.spelling ?? "uri",
      value,
      name: kind === "file" ? fileNameOfUri(value) : value,
      path,
      replace: (replacement) => {
        holder[key] = replacement;
      },
    });
    return;
  }
  if (typeof value === "object" && value !== null) {
    for (const [field, child] of node.fields) {
      if ((value as Holder)[field] !== undefined)
        yield* visit(child, value as Holder, field, [...path, field], found);
    }
  }
  for (const inner of node.through) yield* visit(inner, holder, key, path, found);
}

/** Every file and cached-content reference of a canonical request, in document order. */
export function requestReferences(input: ReferencingRequest): ResourceReference[] {
  return runSteps(requestReferencesSteps(input));
}

/** requestReferences, one list item at a time (see Steps). */
export function* requestReferencesSteps(input: ReferencingRequest): Steps<ResourceReference[]> {
  const node = places(input.operation);
  const found: ResourceReference[] = [];
  if (node) yield* visit(node, { request: input.request }, "request", [], found);
  return found;
}

/** One step of a reference's place: a field, and whether it holds a list (which also takes a single item). */
export interface PlaceSegment {
  field: string;
  list: boolean;
}

export interface ReferencePlace {
  kind: ReferenceKind;
  /** How the place spells a checked reference for the upstream. */
  spelling: ReferenceSpelling;
  segments: PlaceSegment[];
}

/** Every place `operation`'s requests can hold a reference, from its schema (tests enumerate them). */
export function referencePlaces(operation: ReferencingOperation): ReferencePlace[] {
  const found = new Map<string, ReferencePlace>();
  const walk = (node: Places, segments: PlaceSegment[], depth: number) => {
    if (depth > 64) return;
    const last = segments.at(-1);
    const here =
      node.list && last && !last.list
        ? [...segments.slice(0, -1), { ...last, list: true }]
        : segments;
    if (node.kind) {
      const key = `${here.map((segment) => segment.field).join(".")} ${node.kind}`;
      found.set(key, { kind: node.kind, spelling: node.spelling ?? "uri", segments: here });
    }
    for (const [field, child] of node.fields)
      walk(child, [...here, { field, list: false }], depth + 1);
    for (const inner of node.through) walk(inner, here, depth + 1);
  };
  const node = places(operation);
  if (node) walk(node, [], 0);
  return [...found.values()];
}

let fileKeys: Map<string, ReferenceSpelling> | undefined;

/**
 * The field names (camelCase and snake_case) of every place a file is referenced, with how
 * each spells it: where the gateway looks for file references in a body's bytes.
 */
export function fileReferenceKeys(): ReadonlyMap<string, ReferenceSpelling> {
  if (fileKeys) return fileKeys;
  const keys = new Map<string, ReferenceSpelling>();
  for (const operation of Object.keys(SCHEMAS) as ReferencingOperation[]) {
    for (const place of referencePlaces(operation)) {
      const field = place.segments.at(-1)?.field;
      if (place.kind !== "file" || field === undefined) continue;
      keys.set(field, place.spelling);
      keys.set(camelToSnake(field), place.spelling);
    }
  }
  return (fileKeys = keys);
}
