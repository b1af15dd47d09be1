/**
 * Function declarations, calls and responses as the service writes them into a model's prompt,
 * for counting (api-notes §4; the formats and the figures they reach are in lib/engine/README.md).
 * Two families of notation, measured on recorded traffic: `fields` (1.x, 2.0: each value alone)
 * and `markup` (2.5, 3.x: one text per item between marker tokens). Knowingly unmeasured:
 * schema keywords no recording used (they follow the same rule), and 2.5's JSON Schema
 * declarations, which the service counts a few tokens higher than this markup.
 */
import type { FunctionTextFormat } from "@/lib/gemini/prompt-token-rules";
import type { FunctionCall, FunctionDeclaration, FunctionResponse } from "@/lib/gemini/types";

/** What an item adds to the prompt: texts the vocabulary counts, and tokens it adds as they are. */
export interface PromptText {
  texts: string[];
  /** Marker tokens (markup) or non-string values (fields), one token each. */
  fixed: number;
}

/**
 * The markup as a list of texts and control tokens (each one token of the vocabulary whatever
 * its spelling: `<escape>`, `<start_function_call>`, ...). Kept apart from the texts so no
 * text a caller sends can pass for a marker.
 */
const MARKER = Symbol("marker");
type Markup = (string | typeof MARKER)[];

export function declarationText(
  format: FunctionTextFormat,
  declaration: FunctionDeclaration,
): PromptText {
  if (format === "fields") {
    const text = fieldsText();
    text.add(declaration.name);
    if (declaration.description) text.add(declaration.description);
    // The JSON Schema variants (parametersJsonSchema, responseJsonSchema) reach no 1.x/2.0 prompt.
    text.schema(declaration.parameters);
    text.schema(declaration.response);
    return text.result();
  }
  const inner: Markup[] = [];
  if (declaration.description) inner.push(["description:", ...escaped(declaration.description)]);
  const parameters = declaration.parameters ?? declaration.parametersJsonSchema;
  if (parameters) inner.push(["parameters:", ...markupSchema(parameters)]);
  const response = declaration.response ?? declaration.responseJsonSchema;
  if (response) inner.push(["response:", ...markupSchema(response)]);
  return markupText([MARKER, `declaration:${declaration.name}{`, ...joined(inner), "}", MARKER]);
}

export function functionCallText(format: FunctionTextFormat, call: FunctionCall): PromptText {
  if (format === "fields") {
    const text = fieldsText();
    text.add(call.name);
    text.value(call.args ?? {});
    return text.result();
  }
  return markupText([MARKER, `call:${call.name}`, ...markupValue(call.args ?? {}), MARKER]);
}

/** A function's answer, without the media parts it may carry (those count as media). */
export function functionResponseText(
  format: FunctionTextFormat,
  response: Omit<FunctionResponse, "parts">,
): PromptText {
  if (format === "fields") {
    const text = fieldsText();
    text.add(response.name);
    text.value(response.response ?? {});
    return text.result();
  }
  return markupText([
    MARKER,
    `response:${response.name}`,
    ...markupValue(response.response ?? {}),
    MARKER,
  ]);
}

/** generationConfig.responseSchema, where the family counts it (fields notation only). */
export function responseSchemaText(schema: unknown): PromptText {
  const text = fieldsText();
  text.schema(schema);
  return text.result();
}

/** Collects the values of the fields notation: strings to count, other scalars one token each. */
function fieldsText() {
  const texts: string[] = [];
  let fixed = 0;
  const add = (text: string) => {
    if (text) texts.push(text);
  };
  const value = (item: unknown): void => {
    if (item === null || item === undefined) return;
    if (typeof item === "string") return add(item);
    if (typeof item !== "object") {
      fixed += 1;
      return;
    }
    if (Array.isArray(item)) {
      for (const element of item) value(element);
      return;
    }
    for (const [key, child] of Object.entries(item)) {
      add(key);
      value(child);
    }
  };
  // A schema's own keywords are no text of the prompt; its values and property names are.
  const schema = (node: unknown): void => {
    if (!isRecord(node)) return;
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword === "properties" && isRecord(child)) {
        for (const [name, property] of Object.entries(child)) {
          add(name);
          schema(property);
        }
      } else if (keyword === "items" || keyword === "not") schema(child);
      else if (keyword === "anyOf" || keyword === "oneOf" || keyword === "allOf") {
        for (const branch of Array.isArray(child) ? child : []) schema(branch);
      } else if (keyword === "type") typeNames(child).forEach(add);
      else value(child);
    }
  };
  return { add, value, schema, result: (): PromptText => ({ texts, fixed }) };
}

function escaped(text: string): Markup {
  return [MARKER, text, MARKER];
}

/** Items separated by commas. */
function joined(items: Markup[]): Markup {
  return items.flatMap((item, index) => (index === 0 ? item : [",", ...item]));
}

/** `{key:value,...}` with the keys in order. */
function braced(entries: [string, Markup][]): Markup {
  return [
    "{",
    ...joined(
      entries
        .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
        .map(([key, value]) => [`${key}:`, ...value]),
    ),
    "}",
  ];
}

/** The service writes types by their enum names (STRING, OBJECT), whatever case was sent. */
function typeNames(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type])
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.toUpperCase());
}

function markupSchema(node: unknown): Markup {
  if (!isRecord(node)) return markupValue(node);
  return braced(
    Object.entries(node).map(([keyword, child]): [string, Markup] => {
      if (keyword === "properties" && isRecord(child))
        return [
          keyword,
          braced(Object.entries(child).map(([name, property]) => [name, markupSchema(property)])),
        ];
      if (keyword === "type") {
        const names = typeNames(child).map(escaped);
        return [keyword, names.length === 1 ? names[0]! : ["[", ...joined(names), "]"]];
      }
      if (keyword === "items" || keyword === "not") return [keyword, markupSchema(child)];
      if (Array.isArray(child) && child.some(isRecord))
        return [keyword, ["[", ...joined(child.map(markupSchema)), "]"]];
      return [keyword, markupValue(child)];
    }),
  );
}

function markupValue(value: unknown): Markup {
  if (value === null || value === undefined) return ["null"];
  if (typeof value === "string") return escaped(value);
  if (Array.isArray(value)) return ["[", ...joined(value.map(markupValue)), "]"];
  if (isRecord(value))
    return braced(Object.entries(value).map(([key, child]) => [key, markupValue(child)]));
  return [String(value)];
}

/** The texts between the markers (adjacent texts joined: they are read as one), and the markers. */
function markupText(markup: Markup): PromptText {
  const texts: string[] = [];
  let fixed = 0;
  let current = "";
  for (const piece of markup) {
    if (piece === MARKER) {
      fixed += 1;
      if (current) texts.push(current);
      current = "";
    } else current += piece;
  }
  if (current) texts.push(current);
  return { texts, fixed };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
