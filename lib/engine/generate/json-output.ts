/**
 * Constrained JSON generation (responseMimeType application/json with responseSchema or
 * responseJsonSchema, text/x.enum, and function-call arguments): a recursive grammar walks the
 * schema and only ever emits tokens that keep the output valid. Punctuation and property
 * names are forced; choices (optional properties, array lengths, anyOf branches, enum values,
 * numbers, null) are drawn with the request's temperature and seed; string contents are
 * sampled from the language model restricted to tokens that are legal inside a JSON string.
 * Knowingly unsupported: `pattern` (strings are not matched against it) and `format`s beyond
 * date-time, date, time, email, uri and uuid.
 */
import { resolveJsonSchemaRef } from "@/lib/gemini/json-schema-subset";
import type { Schema } from "@/lib/gemini/types";
import {
  chooseWeighted,
  forcedText,
  pushHistory,
  sampleStep,
  type DecodingState,
  type Emission,
} from "./decoding";

type Literal = string | number | boolean | null;

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

interface PropertyNode {
  name: string;
  schema: SchemaNode;
  required: boolean;
}

/** Recursion through $ref is unrolled this deep before optional recursive branches are dropped. */
const SOFT_REF_DEPTH = 3;
const HARD_REF_DEPTH = 12;
const NULL_WEIGHT = 0.15;

function toNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

function withNull(node: SchemaNode, nullable: unknown): SchemaNode {
  return nullable === true
    ? { kind: "union", options: [node, { kind: "null" }], weights: [1 - NULL_WEIGHT, NULL_WEIGHT] }
    : node;
}

/** Normalises an OpenAPI-subset Schema (responseSchema, function `parameters`). */
export function fromOpenApiSchema(schema: Schema | undefined): SchemaNode {
  if (!schema) return { kind: "any" };
  const type = schema.type?.toUpperCase();
  let node: SchemaNode;
  if (schema.enum?.length && (type === undefined || type === "STRING")) {
    node = { kind: "literal", values: [...schema.enum] };
  } else if (schema.anyOf?.length && (type === undefined || type === "TYPE_UNSPECIFIED")) {
    const options = schema.anyOf.map(fromOpenApiSchema);
    node = { kind: "union", options, weights: options.map(() => 1) };
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
          items: schema.items ? fromOpenApiSchema(schema.items) : undefined,
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
        node = {
          kind: "object",
          free: false,
          properties: names.map((name) => ({
            name,
            schema: fromOpenApiSchema(properties[name]),
            required: required.has(name),
          })),
        };
        break;
      }
      default:
        node = { kind: "any" };
    }
  }
  return withNull(node, schema.nullable);
}

function orderedNames(names: string[], ordering: unknown, alphabetical: boolean): string[] {
  const listed = Array.isArray(ordering)
    ? ordering.filter((name): name is string => typeof name === "string" && names.includes(name))
    : [];
  const rest = names.filter((name) => !listed.includes(name));
  if (alphabetical) rest.sort();
  return [...listed, ...rest];
}

/** Normaliser of one JSON Schema document (responseJsonSchema, parametersJsonSchema); $refs resolve lazily. */
export class JsonSchemaDocument {
  private readonly cache = new Map<unknown, SchemaNode>();
  private readonly refs = new Map<string, SchemaNode>();

  constructor(readonly root: unknown) {}

  rootNode(): SchemaNode {
    return this.normalise(this.root);
  }

  resolve(ref: string): SchemaNode {
    let node = this.refs.get(ref);
    if (!node) {
      const target = resolveJsonSchemaRef(this.root, ref);
      node = target === undefined ? { kind: "any" } : this.normalise(target);
      this.refs.set(ref, node);
    }
    return node;
  }

  normalise(value: unknown): SchemaNode {
    if (value === true || value === undefined) return { kind: "any" };
    if (value === false) return { kind: "never" };
    if (typeof value !== "object" || value === null) return { kind: "any" };
    const cached = this.cache.get(value);
    if (cached) return cached;
    const node = this.build(value as Record<string, unknown>);
    this.cache.set(value, node);
    return node;
  }

  private build(schema: Record<string, unknown>): SchemaNode {
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
    const typed = types.map((type) => this.typed(type, schema));
    if (alternatives?.length) {
      const options = alternatives.map((option) => this.normalise(option));
      // anyOf beside type: each branch must also satisfy the type; the branches carry their own types in practice.
      return { kind: "union", options, weights: options.map(() => 1) };
    }
    if (typed.length === 1) return typed[0]!;
    if (typed.length > 1) {
      return {
        kind: "union",
        options: typed,
        weights: typed.map((node) => (node.kind === "null" ? NULL_WEIGHT : 1)),
      };
    }
    if (schema.properties || schema.required) return this.typed("object", schema);
    if (schema.items || schema.prefixItems) return this.typed("array", schema);
    return { kind: "any" };
  }

  private typed(type: string, schema: Record<string, unknown>): SchemaNode {
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
      case "array":
        return {
          kind: "array",
          items: schema.items === undefined ? undefined : this.normalise(schema.items),
          prefixItems: Array.isArray(schema.prefixItems)
            ? schema.prefixItems.map((item) => this.normalise(item))
            : [],
          minItems: toNumber(schema.minItems) ?? 0,
          maxItems: toNumber(schema.maxItems),
        };
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
        for (const name of required) if (!names.includes(name)) names.push(name);
        return {
          kind: "object",
          free: false,
          properties: names.map((name) => ({
            name,
            schema: this.normalise(properties[name]),
            required: required.has(name),
          })),
        };
      }
      default:
        return { kind: "any" };
    }
  }
}

export interface JsonGrammarOptions {
  /** Pretty-print with two-space indentation (response text) or compact (function arguments). */
  pretty: boolean;
  /** Phrases from the prompt that free string values may reuse (function arguments). */
  stringHints?: string[];
  resolve?: (ref: string) => SchemaNode;
  /**
   * Values of the top-level object's properties that are already known (function arguments
   * read from the prompt): emitted as they are, and optional properties without one are left out.
   */
  presets?: Record<string, unknown>;
}

/** Walks a schema and yields the tokens of one valid JSON value. */
export class JsonGrammar {
  private readonly refContains = new Map<SchemaNode, boolean>();
  /** The property whose value is being generated: its name hints at a string's length. */
  private currentKey: string | undefined;

  constructor(
    private readonly state: DecodingState,
    private readonly options: JsonGrammarOptions,
  ) {}

  /** The tokens of a value of `node`; the generator's return value is the JSON text. */
  *value(node: SchemaNode, depth = 0, refDepth = 0): Generator<Emission, string> {
    switch (node.kind) {
      case "ref": {
        const target = this.options.resolve?.(node.ref) ?? { kind: "any" };
        return yield* this.value(target, depth, refDepth + 1);
      }
      case "union": {
        const usable = node.options
          .map((option, index) => ({ option, weight: node.weights[index] ?? 1 }))
          .filter(({ option }) => option.kind !== "never")
          .filter(({ option }) => refDepth < SOFT_REF_DEPTH || !this.containsRef(option));
        const pool = usable.length
          ? usable
          : node.options.map((option, index) => ({ option, weight: node.weights[index] ?? 1 }));
        const chosen =
          pool[
            chooseWeighted(
              this.state,
              pool.map(({ weight }) => weight),
            )
          ]!;
        return yield* this.value(chosen.option, depth, refDepth);
      }
      case "literal": {
        const value = this.chooseLiteral(node.values);
        const text = JSON.stringify(value);
        yield* forcedText(this.state, text);
        return text;
      }
      case "null":
      case "never":
        yield* forcedText(this.state, "null");
        return "null";
      case "boolean": {
        const text = chooseWeighted(this.state, [0.6, 0.4]) === 0 ? "true" : "false";
        yield* forcedText(this.state, text);
        return text;
      }
      case "number": {
        const text = this.numberText(node);
        yield* forcedText(this.state, text);
        return text;
      }
      case "string":
        return yield* this.stringValue(node);
      case "any":
        if (depth === 0)
          return yield* this.value({ kind: "object", properties: [], free: true }, depth, refDepth);
        return yield* this.stringValue({ kind: "string", minLength: 0 });
      case "array":
        return yield* this.arrayValue(node, depth, refDepth);
      case "object":
        return yield* this.objectValue(node, depth, refDepth);
    }
  }

  /** Text for text/x.enum: one bare value. */
  *bareEnum(values: Literal[]): Generator<Emission, string> {
    const value = this.chooseLiteral(values);
    const text = typeof value === "string" ? value : JSON.stringify(value);
    yield* forcedText(this.state, text);
    return text;
  }

  private containsRef(node: SchemaNode, seen = new Set<SchemaNode>()): boolean {
    const known = this.refContains.get(node);
    if (known !== undefined) return known;
    if (seen.has(node)) return false;
    seen.add(node);
    let result = false;
    switch (node.kind) {
      case "ref":
        result = true;
        break;
      case "union":
        result = node.options.some((option) => this.containsRef(option, seen));
        break;
      case "array":
        result =
          (node.items !== undefined && this.containsRef(node.items, seen)) ||
          node.prefixItems.some((item) => this.containsRef(item, seen));
        break;
      case "object":
        result = node.properties.some((property) => this.containsRef(property.schema, seen));
        break;
      default:
        result = false;
    }
    this.refContains.set(node, result);
    return result;
  }

  private chooseLiteral(values: Literal[]): Literal {
    if (values.length === 0) return null;
    const model = this.state.model;
    const start = model.symbols.answerStart;
    // Each value is weighted by the model's (length-normalised) probability of its text, plus
    // a copy prior: every mention in the conversation adds 2, so a mentioned value (weight
    // ≥ 2) outweighs any unmentioned one (≤ 1), and more mentions weigh more.
    const weights = values.map((value) => {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      const ids = model.vocabulary.encodeForced(text);
      if (ids.length === 0) return 1e-6;
      const history = [start];
      let logSum = 0;
      for (const id of ids) {
        logSum += Math.log(model.probability(history, id));
        pushHistory(history, id);
      }
      return Math.exp(logSum / ids.length) + 2 * model.mentions(text);
    });
    return values[chooseWeighted(this.state, weights)]!;
  }

  private numberText(node: Extract<SchemaNode, { kind: "number" }>): string {
    const random = this.state.random;
    let low = node.minimum ?? (node.maximum !== undefined ? node.maximum - 100 : 0);
    let high = node.maximum ?? low + 100;
    if (high < low) high = low;
    if (node.integer) {
      low = Math.ceil(low);
      high = Math.floor(high);
      if (high < low) return String(low);
      const span = Math.min(high - low, 1_000_000);
      return String(
        this.state.settings.temperature <= 0
          ? low + Math.floor(span / 2)
          : low + random.integer(0, span),
      );
    }
    const fraction = this.state.settings.temperature <= 0 ? 0.5 : random.next();
    const raw = low + (high - low) * fraction;
    let value = Math.round(raw * 100) / 100;
    if (value < low || value > high) value = raw;
    if (Object.is(value, -0)) value = 0;
    return JSON.stringify(value);
  }

  private *stringValue(node: Extract<SchemaNode, { kind: "string" }>): Generator<Emission, string> {
    const formatted = this.formatted(node.format);
    if (formatted !== undefined) {
      const text = JSON.stringify(formatted);
      yield* forcedText(this.state, text);
      return text;
    }
    const hints = (this.options.stringHints ?? []).filter(
      (hint) =>
        hint.length >= node.minLength &&
        (node.maxLength === undefined || hint.length <= node.maxLength),
    );
    if (hints.length) {
      const text = JSON.stringify(
        hints[
          chooseWeighted(
            this.state,
            hints.map((_, index) => 1 / (index + 1)),
          )
        ]!,
      );
      yield* forcedText(this.state, text);
      return text;
    }
    yield* forcedText(this.state, '"');
    const content = yield* this.stringContent(node.minLength, node.maxLength);
    yield* forcedText(this.state, '"');
    return JSON.stringify(content);
  }

  /** Samples the inside of a string: only tokens legal in a JSON string, within the length bounds. */
  private *stringContent(
    minLength: number,
    maxLength: number | undefined,
  ): Generator<Emission, string> {
    const state = this.state;
    const model = state.model;
    const vocabulary = model.vocabulary;
    const end = model.symbols.end;
    const targetWords = wordsFor(this.currentKey, state.random.integer(0, 1000));
    const history = [model.symbols.answerStart];
    let text = "";
    let length = 0;
    let words = 0;
    for (let steps = 0; steps < 400; steps++) {
      const limit = maxLength;
      const allow = (id: number): boolean => {
        if (id === end) return length >= Math.max(minLength, 1);
        if (!vocabulary.isPlainJsonText(id)) return false;
        const piece = vocabulary.tokenText(id);
        if (length === 0 && piece.startsWith(" ")) return false;
        return limit === undefined || length + codePoints(piece) <= limit;
      };
      const emission = sampleStep(state, history, allow);
      if (!emission || emission.id === end) break;
      const piece = vocabulary.tokenText(emission.id);
      // Short strings stop at the first word boundary past the target; long ones (prose) run
      // on to the end of their sentence, within a dozen more words.
      const prose = targetWords >= 6;
      if (
        words >= targetWords &&
        piece.startsWith(" ") &&
        length >= minLength &&
        (!prose || words >= targetWords + 12)
      )
        break;
      yield emission;
      pushHistory(history, emission.id);
      text += piece;
      length += codePoints(piece);
      if (piece.startsWith(" ") || words === 0) words += 1;
      if (maxLength !== undefined && length >= maxLength) break;
      if (prose && words >= targetWords && /[.!?]$/.test(piece) && length >= minLength) break;
    }
    while (length < minLength) {
      const filler = length === 0 ? "a" : "a";
      yield* forcedText(state, filler);
      text += filler;
      length += 1;
    }
    return text;
  }

  private formatted(format: string | undefined): string | undefined {
    if (!format) return undefined;
    const random = this.state.random;
    const pad = (value: number, width = 2) => String(value).padStart(width, "0");
    const year = 2000 + random.integer(0, 30);
    const month = random.integer(1, 12);
    const day = random.integer(1, 28);
    const hour = random.integer(0, 23);
    const minute = random.integer(0, 59);
    switch (format) {
      case "date-time":
        return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:00Z`;
      case "date":
        return `${year}-${pad(month)}-${pad(day)}`;
      case "time":
        return `${pad(hour)}:${pad(minute)}:00Z`;
      case "email":
        return `user${random.integer(1, 999)}@example.com`;
      case "uri":
        return `https://example.com/item/${random.integer(1, 9999)}`;
      case "uuid": {
        const hex = () => Math.floor(random.next() * 16).toString(16);
        const block = (size: number) => Array.from({ length: size }, hex).join("");
        return `${block(8)}-${block(4)}-4${block(3)}-a${block(3)}-${block(12)}`;
      }
      default:
        return undefined;
    }
  }

  private *arrayValue(
    node: Extract<SchemaNode, { kind: "array" }>,
    depth: number,
    refDepth: number,
  ): Generator<Emission, string> {
    const minimum = Math.max(0, Math.ceil(node.minItems));
    const maximum = Math.max(minimum, Math.floor(node.maxItems ?? minimum + 3));
    const recursive =
      (node.items && this.containsRef(node.items)) ||
      node.prefixItems.some((item) => this.containsRef(item));
    let count: number;
    if (recursive && refDepth >= SOFT_REF_DEPTH) count = minimum;
    else {
      const lengths: number[] = [];
      for (let length = minimum; length <= Math.min(maximum, minimum + 4); length++)
        lengths.push(length);
      count =
        lengths[
          chooseWeighted(
            this.state,
            lengths.map((length) => (length === 0 ? 0.3 : 1)),
          )
        ]!;
    }
    if (refDepth >= HARD_REF_DEPTH) count = minimum;
    if (count === 0) {
      yield* forcedText(this.state, "[]");
      return "[]";
    }
    const inner = this.indent(depth + 1);
    const parts: string[] = [];
    yield* forcedText(this.state, "[" + inner.open);
    for (let index = 0; index < count; index++) {
      if (index > 0) yield* forcedText(this.state, "," + inner.separator);
      const schema = node.prefixItems[index] ?? node.items ?? { kind: "any" };
      parts.push(yield* this.value(schema, depth + 1, refDepth));
    }
    yield* forcedText(this.state, inner.close + "]");
    return `[${parts.join(",")}]`;
  }

  private *objectValue(
    node: Extract<SchemaNode, { kind: "object" }>,
    depth: number,
    refDepth: number,
  ): Generator<Emission, string> {
    let properties = node.properties;
    if (node.free) properties = this.freeProperties();
    const presets = depth === 0 ? this.options.presets : undefined;
    const chosen = properties.filter((property) => {
      if (property.required) return true;
      if (presets) return Object.hasOwn(presets, property.name);
      if (property.schema.kind === "never") return false;
      if (this.containsRef(property.schema) && refDepth >= SOFT_REF_DEPTH) return false;
      return chooseWeighted(this.state, [0.7, 0.3]) === 0;
    });
    if (chosen.length === 0) {
      yield* forcedText(this.state, "{}");
      return "{}";
    }
    const inner = this.indent(depth + 1);
    const parts: string[] = [];
    yield* forcedText(this.state, "{" + inner.open);
    for (const [index, property] of chosen.entries()) {
      const key = JSON.stringify(property.name);
      yield* forcedText(
        this.state,
        (index > 0 ? "," + inner.separator : "") + key + ":" + (this.options.pretty ? " " : ""),
      );
      this.currentKey = property.name;
      if (presets && Object.hasOwn(presets, property.name)) {
        const text = JSON.stringify(presets[property.name]);
        yield* forcedText(this.state, text);
        parts.push(`${key}:${text}`);
        continue;
      }
      parts.push(`${key}:${yield* this.value(property.schema, depth + 1, refDepth)}`);
    }
    yield* forcedText(this.state, inner.close + "}");
    return `{${parts.join(",")}}`;
  }

  /** Property names for JSON without a schema: single words drawn from the model. */
  private freeProperties(): PropertyNode[] {
    const state = this.state;
    const vocabulary = state.model.vocabulary;
    const count = 1 + state.random.integer(0, 2);
    const names: string[] = [];
    for (let attempt = 0; attempt < count * 4 && names.length < count; attempt++) {
      state.model.distribution([state.model.symbols.answerStart], state.distribution);
      const words: { word: string; weight: number }[] = [];
      for (let index = 0; index < state.distribution.length; index++) {
        const word = vocabulary.tokenText(state.distribution.ids[index]!).trim().toLowerCase();
        if (/^[a-z]{3,12}$/.test(word) && !names.includes(word))
          words.push({ word, weight: state.distribution.probabilities[index]! });
      }
      if (!words.length) break;
      names.push(
        words[
          chooseWeighted(
            state,
            words.map(({ weight }) => weight),
          )
        ]!.word,
      );
    }
    if (!names.length) names.push("answer");
    return names.map((name) => ({
      name,
      schema: { kind: "string", minLength: 0 },
      required: true,
    }));
  }

  private indent(depth: number): { open: string; separator: string; close: string } {
    if (!this.options.pretty) return { open: "", separator: "", close: "" };
    const inner = "\n" + "  ".repeat(depth);
    const outer = "\n" + "  ".repeat(depth - 1);
    return { open: inner, separator: inner, close: outer };
  }
}

/**
 * How many words a free string runs to: names and labels are short, descriptions long,
 * anything else in between (drawn with the seeded generator).
 */
function wordsFor(key: string | undefined, draw: number): number {
  const name = (key ?? "").toLowerCase();
  if (
    /name|title|label|city|country|brand|author|category|type|kind|color|colour|unit|code|tag|id$/.test(
      name,
    )
  )
    return 1 + (draw % 3);
  if (
    /description|summary|text|content|body|reason|explanation|answer|comment|note|message|details|instructions|step/.test(
      name,
    )
  )
    return 8 + (draw % 12);
  return 2 + (draw % 8);
}

function codePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xdc00 || code > 0xdfff) count++;
  }
  return count;
}
