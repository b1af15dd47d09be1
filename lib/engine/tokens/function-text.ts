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
 * Writes the markup: texts run together, each control token (`<escape>`,
 * `<start_function_call>`, ...: one token of the vocabulary whatever its spelling) ends the
 * running text and counts one. Markers are never spelled out, so no text a caller sends can
 * pass for one; each value is visited once (linear in the request's size).
 */
class MarkupWriter {
  private readonly texts: string[] = [];
  private fixed = 0;
  private current = "";

  text(text: string): void {
    this.current += text;
  }

  marker(): void {
    this.fixed += 1;
    if (this.current) this.texts.push(this.current);
    this.current = "";
  }

  escaped(text: string): void {
    this.marker();
    this.current = text;
    this.marker();
  }

  /** `{key:value,...}` with the keys in order; `write` writes each value. */
  braced(record: Record<string, unknown>, write?: (value: unknown, key: string) => void): void {
    const keys = Object.keys(record);
    if (keys.length > 1) keys.sort();
    this.current += "{";
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      this.current += index ? `,${key}:` : `${key}:`;
      if (write) write(record[key], key);
      else this.value(record[key]);
    }
    this.current += "}";
  }

  /** `[item,...]`, each item written by `write` (a JSON value unless given). */
  bracketed<T>(items: readonly T[], write?: (item: T) => void): void {
    this.current += "[";
    for (let index = 0; index < items.length; index++) {
      if (index) this.current += ",";
      if (write) write(items[index]!);
      else this.value(items[index]);
    }
    this.current += "]";
  }

  /** A JSON value: strings escaped, other scalars as written, arrays and objects nested. */
  value(value: unknown): void {
    if (typeof value === "string") this.escaped(value);
    else if (value === null || value === undefined) this.current += "null";
    else if (Array.isArray(value)) this.bracketed(value);
    else if (typeof value === "object") this.braced(value as Record<string, unknown>);
    else this.current += String(value);
  }

  /** A schema: type names escaped, property and nested schemas written as schemas. */
  schema(node: unknown): void {
    if (!isRecord(node)) return this.value(node);
    this.braced(node, (child, keyword) => {
      if (keyword === "properties" && isRecord(child))
        this.braced(child, (property) => this.schema(property));
      else if (keyword === "type") {
        const names = typeNames(child);
        if (names.length === 1) this.escaped(names[0]!);
        else this.bracketed(names, (name) => this.escaped(name));
      } else if (keyword === "items" || keyword === "not") this.schema(child);
      else if (Array.isArray(child) && child.some(isRecord))
        this.bracketed(child, (branch) => this.schema(branch));
      else this.value(child);
    });
  }

  result(): PromptText {
    return {
      texts: this.current ? [...this.texts, this.current] : this.texts,
      fixed: this.fixed,
    };
  }
}

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
  const fields: [string, unknown][] = [];
  if (declaration.description) fields.push(["description", declaration.description]);
  const parameters = declaration.parameters ?? declaration.parametersJsonSchema;
  if (parameters) fields.push(["parameters", parameters]);
  const response = declaration.response ?? declaration.responseJsonSchema;
  if (response) fields.push(["response", response]);
  const writer = new MarkupWriter();
  writer.marker();
  writer.text(`declaration:${declaration.name}{`);
  fields.forEach(([field, value], index) => {
    writer.text(index ? `,${field}:` : `${field}:`);
    if (field === "description") writer.escaped(value as string);
    else writer.schema(value);
  });
  writer.text("}");
  writer.marker();
  return writer.result();
}

export function functionCallText(format: FunctionTextFormat, call: FunctionCall): PromptText {
  if (format === "fields") {
    const text = fieldsText();
    text.add(call.name);
    text.value(call.args ?? {});
    return text.result();
  }
  return markedUp(`call:${call.name}`, call.args ?? {});
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
  return markedUp(`response:${response.name}`, response.response ?? {});
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

/** The service writes types by their enum names (STRING, OBJECT), whatever case was sent. */
function typeNames(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type])
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.toUpperCase());
}

/** A call or response: `head{…}` between its start and end markers. */
function markedUp(head: string, value: Record<string, unknown>): PromptText {
  const writer = new MarkupWriter();
  writer.marker();
  writer.text(head);
  writer.value(value);
  writer.marker();
  return writer.result();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
