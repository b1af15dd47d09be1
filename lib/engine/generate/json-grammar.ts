/**
 * Constrained JSON generation (responseMimeType application/json with responseSchema or
 * responseJsonSchema, text/x.enum, and function-call arguments): a recursive grammar walks the
 * schema's nodes (json-schema-nodes.ts) and only ever emits tokens that keep the output valid.
 * Punctuation and property names are forced; choices (optional properties, array lengths, anyOf
 * branches, enum values, numbers, null) are drawn with the request's temperature and seed;
 * string contents come from json-strings.ts.
 */
import {
  chooseWeighted,
  forcedText,
  pushHistory,
  type DecodingState,
  type Emission,
} from "./decoding";
import type { Literal, PropertyNode, SchemaNode } from "./json-schema-nodes";
import { formattedString, stringContent } from "./json-strings";

/** Recursion through $ref is unrolled this deep before optional recursive branches are dropped. */
const SOFT_REF_DEPTH = 3;
const HARD_REF_DEPTH = 12;

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

interface UnionPool {
  options: SchemaNode[];
  weights: number[];
}

/** Walks a schema and yields the tokens of one valid JSON value. */
export class JsonGrammar {
  private readonly refContains = new Map<SchemaNode, boolean>();
  /** Each union's branches that do not recurse, once asked for (unionPool). */
  private readonly recursionFreePools = new Map<SchemaNode, UnionPool>();
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
        const pool = this.unionPool(node, refDepth >= SOFT_REF_DEPTH);
        const chosen = pool.options[chooseWeighted(this.state, pool.weights)]!;
        return yield* this.value(chosen, depth, refDepth);
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

  /**
   * The branches of a union a value may take with their weights: all of them (their `never`
   * branches were dropped when the schema was normalised); deep in recursion, none that
   * recurses further unless no other is left, worked out once per union (a union of a hundred
   * thousand branches visited again costs nothing more).
   */
  private unionPool(node: Extract<SchemaNode, { kind: "union" }>, avoidRefs: boolean): UnionPool {
    if (!avoidRefs) return node;
    const known = this.recursionFreePools.get(node);
    if (known) return known;
    const options: SchemaNode[] = [];
    const weights: number[] = [];
    node.options.forEach((option, index) => {
      if (this.containsRef(option)) return;
      options.push(option);
      weights.push(node.weights[index] ?? 1);
    });
    const pool = options.length ? { options, weights } : node;
    this.recursionFreePools.set(node, pool);
    return pool;
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
    const formatted = formattedString(node.format, this.state.random);
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
    const content = yield* stringContent(
      this.state,
      this.currentKey,
      node.minLength,
      node.maxLength,
    );
    yield* forcedText(this.state, '"');
    return JSON.stringify(content);
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
