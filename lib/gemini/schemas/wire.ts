/**
 * Building blocks for the request schemas: objects that accept camelCase and snake_case
 * names for their own known fields only (free-form values are never renamed), repeated
 * fields that also take a single instance, and proto3-JSON scalars. Every failure is a zod
 * issue whose `params` say what went wrong in wire terms; `issues.ts` turns them into the
 * service's messages once the full path is known.
 */
import { z } from "zod";

/** What a wire issue carries in zod's `params`. */
export type WireIssue =
  /** The unknown key is the last segment of the issue path. */
  | { wire: "unknown-field" }
  | { wire: "duplicate-field"; name: string; spellings: [string, string] }
  | { wire: "invalid-value"; type: string; rendered: string }
  | { wire: "not-repeating" }
  | { wire: "oneof-already-set"; oneof: string; name: string }
  | { wire: "required" };

/** Prefix of the service's message type names in error messages. */
const TYPE_PREFIX = "type.googleapis.com/google.ai.generativelanguage.v1beta.";

type IssueContext = {
  addIssue(issue: {
    code: "custom";
    message: string;
    params: WireIssue;
    path?: PropertyKey[];
    input?: unknown;
  }): void;
};

/**
 * What a forwarding read (lib/gemini/forwarding-read.ts) is told while the wire schemas read
 * a body: the fields and values they do not know, which the read tolerates instead of
 * refusing, and the known strings, which may name a resource.
 */
export interface ForwardingObserver {
  /** A field `typeName` does not know: left out of the canonical request, reported here. */
  unknownField(typeName: string, key: string, value: unknown): void;
  /** A string of a known field that is not free text (wireText). */
  knownString(value: string): void;
}

/** The observer of the read under way, if it is a forwarding read; reads are synchronous. */
let forwarding: ForwardingObserver | null = null;

/**
 * Runs `read` (a synchronous wire-schema read) as a forwarding read: unknown fields and enum
 * values are tolerated and told to `observer`, as are known strings. Every other rule holds.
 */
export function readForwarding<T>(observer: ForwardingObserver, read: () => T): T {
  const outer = forwarding;
  forwarding = observer;
  try {
    return read();
  } finally {
    forwarding = outer;
  }
}

function report(context: IssueContext, params: WireIssue, path: PropertyKey[] = []): never {
  context.addIssue({ code: "custom", message: params.wire, params, path, input: undefined });
  return z.NEVER;
}

/** `responseMimeType` -> `response_mime_type`. */
export function camelToSnake(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Shows a rejected value the way the service quotes it: strings quoted, long ones cut. */
export function renderValue(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function invalid(context: IssueContext, type: string, input: unknown): never {
  if (Array.isArray(input)) return report(context, { wire: "not-repeating" });
  return report(context, { wire: "invalid-value", type, rendered: renderValue(input) });
}

interface WireObjectOptions {
  /** Fields of one proto oneof: setting two of them is a JSON payload error. */
  oneof?: { name: string; members: readonly string[] };
}

/** Unknown keys stay in the object under their own name and fail here, so sibling fields are still checked. */
const unknownField = z.transform((_input: unknown, context): unknown =>
  report(context, { wire: "unknown-field" }),
);

/**
 * A message of the API: a strict object whose known keys may be spelled camelCase or
 * snake_case (renamed to camelCase here, one level only), whose `null` values mean unset
 * (proto3 JSON), and whose unknown keys are reported as `Unknown name`.
 */
export function wireObject<Shape extends z.ZodRawShape>(
  typeName: string,
  shape: Shape,
  options: WireObjectOptions = {},
) {
  const names = new Map<string, string>();
  for (const key of Object.keys(shape)) {
    names.set(key, key);
    names.set(camelToSnake(key), key);
  }
  return z.preprocess((input, context) => {
    if (input === undefined) return report(context, { wire: "required" });
    if (!isPlainObject(input)) {
      if (Array.isArray(input)) return report(context, { wire: "not-repeating" });
      return report(context, {
        wire: "invalid-value",
        type: TYPE_PREFIX + typeName,
        rendered: renderValue(input),
      });
    }
    const output: Record<string, unknown> = {};
    const spelledAs = new Map<string, string>();
    let oneofSet: string | undefined;
    for (const [key, value] of Object.entries(input)) {
      const name = names.get(key);
      if (name === undefined && forwarding) {
        forwarding.unknownField(typeName, key, value);
        continue;
      }
      if (name === undefined) {
        if (key !== "__proto__") output[key] = value;
        else report(context, { wire: "unknown-field" }, [key]);
        continue;
      }
      if (value === null) continue;
      const earlier = spelledAs.get(name);
      if (earlier !== undefined) {
        report(context, { wire: "duplicate-field", name, spellings: [earlier, key] });
        continue;
      }
      if (options.oneof?.members.includes(name)) {
        if (oneofSet !== undefined) {
          report(context, { wire: "oneof-already-set", oneof: options.oneof.name, name: key });
          continue;
        }
        oneofSet = name;
      }
      spelledAs.set(name, key);
      output[name] = value;
    }
    return output;
  }, z.object(shape).catchall(unknownField));
}

/**
 * A repeated field. Like the service's JSON reader it also takes a single instance in place
 * of a one-element list (which is how `"contents": {...}` works for single-turn input).
 */
export function repeated<Item extends z.ZodType>(item: Item) {
  return z.preprocess(
    (input) => (input === undefined || Array.isArray(input) ? input : [input]),
    z.array(item),
  );
}

/** A repeated field the output always carries: absent becomes `[]` so rules can say why it must not be empty. */
export function repeatedOrEmpty<Item extends z.ZodType>(item: Item) {
  return z.preprocess(
    (input) => (input === undefined ? [] : Array.isArray(input) ? input : [input]),
    z.array(item),
  );
}

/** A string field (TYPE_STRING) that is not free text: a forwarding read is told its value. */
export function wireString() {
  return z.transform((input: unknown, context): string => {
    if (input === undefined) return report(context, { wire: "required" });
    if (typeof input !== "string") return invalid(context, "TYPE_STRING", input);
    forwarding?.knownString(input);
    return input;
  });
}

/** A string field of free text (a part's text, a description): read like wireString, never told. */
export function wireText() {
  return z.transform((input: unknown, context): string => {
    if (input === undefined) return report(context, { wire: "required" });
    if (typeof input !== "string") return invalid(context, "TYPE_STRING", input);
    return input;
  });
}

/** A boolean field (TYPE_BOOL): JSON true/false only. */
export function wireBoolean() {
  return z.transform((input: unknown, context): boolean => {
    if (input === undefined) return report(context, { wire: "required" });
    if (typeof input !== "boolean") return invalid(context, "TYPE_BOOL", input);
    return input;
  });
}

// Unambiguous (digits, then a fraction only after a point): no backtracking over long digit strings.
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^-?\d+$/;

/** A float or double field; proto3 JSON also allows the number as a decimal string. */
export function wireNumber(type: "TYPE_FLOAT" | "TYPE_DOUBLE" = "TYPE_FLOAT") {
  return z.transform((input: unknown, context): number => {
    if (input === undefined) return report(context, { wire: "required" });
    const value = typeof input === "string" && DECIMAL.test(input) ? Number(input) : input;
    if (typeof value !== "number" || !Number.isFinite(value)) return invalid(context, type, input);
    return value;
  });
}

/** An int32 (or, with `type` TYPE_INT64, a safe-integer int64) field; integer strings allowed. */
export function wireInteger(type: "TYPE_INT32" | "TYPE_INT64" = "TYPE_INT32") {
  const [minimum, maximum] =
    type === "TYPE_INT32"
      ? [-(2 ** 31), 2 ** 31 - 1]
      : [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  return z.transform((input: unknown, context): number => {
    if (input === undefined) return report(context, { wire: "required" });
    const value = typeof input === "string" && INTEGER.test(input) ? Number(input) : input;
    if (typeof value !== "number" || !Number.isInteger(value) || value < minimum || value > maximum)
      return invalid(context, type, input);
    return value;
  });
}

/** True when `text` is standard or URL-safe base64, padded or not. */
export function isBase64(text: string): boolean {
  const body = text.replace(/={1,2}$/, "");
  if (!/^[A-Za-z0-9+/_-]*$/.test(body)) return false;
  if (body.length % 4 === 1) return false;
  return body.length === text.length || text.length % 4 === 0;
}

/** A bytes field: base64 text, passed on unchanged. */
export function wireBytes() {
  return z.transform((input: unknown, context): string => {
    if (input === undefined) return report(context, { wire: "required" });
    if (typeof input !== "string") return invalid(context, "TYPE_BYTES", input);
    if (!isBase64(input)) {
      const shown = input.length > 40 ? `${input.slice(0, 37)}...` : input;
      return report(context, {
        wire: "invalid-value",
        type: "TYPE_BYTES",
        rendered: `Base64 decoding failed for "${shown}"`,
      });
    }
    return input;
  });
}

/**
 * An enum field, by value name, in any letter case: the service's reader accepts `"any"` for
 * ANY and `"Text"` for TEXT (recorded), and the canonical upper-case name is what the rest
 * reads. A forwarding read takes a name it does not know as sent (the upstream decides).
 */
export function wireEnum<const Values extends readonly [string, ...string[]]>(
  typeName: string,
  values: Values,
  normalise: (text: string) => string = (text) => text.toUpperCase(),
) {
  const allowed = new Set<string>(values);
  return z.transform((input: unknown, context): Values[number] => {
    if (input === undefined) return report(context, { wire: "required" });
    const value = typeof input === "string" ? normalise(input) : input;
    if (typeof value === "string" && !allowed.has(value) && forwarding)
      return input as Values[number];
    if (typeof value !== "string" || !allowed.has(value))
      return invalid(context, TYPE_PREFIX + typeName, input);
    return value;
  });
}

/** A google.protobuf.Struct: any JSON object, passed on exactly as sent. */
export function wireStruct() {
  return z.transform((input: unknown, context): Record<string, unknown> => {
    if (input === undefined) return report(context, { wire: "required" });
    if (!isPlainObject(input))
      return invalid(context, "type.googleapis.com/google.protobuf.Struct", input);
    return input;
  });
}

/** A google.protobuf.Value: any JSON value, passed on exactly as sent. */
export function wireValue() {
  return z.transform((input: unknown, context): unknown => {
    if (input === undefined) return report(context, { wire: "required" });
    return input;
  });
}

/** An empty message such as `codeExecution: {}`. */
export function wireEmpty(typeName: string) {
  return wireObject(typeName, {}).transform((): Record<string, never> => ({}));
}

/**
 * A map field (`map<string, V>`): keys are the caller's own and never renamed. Built by hand
 * rather than with z.record, which drops a key named `__proto__`; here every key survives
 * as an own property.
 */
export function wireMap<Value extends z.ZodType>(value: Value) {
  return z.transform((input: unknown, context): Record<string, z.output<Value>> => {
    if (input === undefined) return report(context, { wire: "required" });
    if (!isPlainObject(input)) return invalid(context, "map", input);
    const output: Record<string, z.output<Value>> = {};
    for (const [key, child] of Object.entries(input)) {
      const result = value.safeParse(child);
      if (!result.success) {
        for (const issue of result.error.issues) {
          context.addIssue({ ...issue, path: [key, ...issue.path] } as Parameters<
            IssueContext["addIssue"]
          >[0]);
        }
        continue;
      }
      Object.defineProperty(output, key, {
        value: result.data,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return output;
  });
}
