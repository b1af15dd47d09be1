/**
 * Function declarations, calls and responses as the service writes them into a model's prompt,
 * for counting (api-notes §4; the formats and the figures they reach are in lib/engine/README.md).
 * Two families of notation, measured on recorded traffic: `fields` (1.x, 2.0: each value alone)
 * and `markup` (2.5, 3.x: one text per item between marker tokens). Knowingly unmeasured:
 * schema keywords no recording used (they follow the same rule), and 2.5's JSON Schema
 * declarations, which the service counts a few tokens higher than this markup.
 */
import type { FunctionTextFormat } from "@/lib/gemini/prompt-token-rules";
import { PieceWriter } from "@/lib/engine/piece-writer";
import { ownKeys } from "@/lib/gemini/own-keys";
import { runSteps, type Steps } from "@/lib/gemini/steps";
import type { FunctionCall, FunctionDeclaration, FunctionResponse } from "@/lib/gemini/types";

/** What an item adds to the prompt: texts the vocabulary counts, and tokens it adds as they are. */
export interface PromptText {
  texts: string[];
  /** Marker tokens (markup) or non-string values (fields), one token each. */
  fixed: number;
}

/** Sorted keys merged between two yields. */
const MERGES_PER_STEP = 1_024;

/**
 * Writes the markup: texts run together, each control token (`<escape>`,
 * `<start_function_call>`, ...: one token of the vocabulary whatever its spelling) ends the
 * running text and counts one. Markers are never spelled out, so no text a caller sends can
 * pass for one; each value is visited once (linear in the request's size), with a yield
 * after each so that a call of megabytes is written in slices.
 */
class MarkupWriter {
  private readonly texts: string[] = [];
  private fixed = 0;
  private readonly current = new PieceWriter();

  text(text: string): void {
    this.current.write(text);
  }

  marker(): void {
    this.fixed += 1;
    if (!this.current.empty) this.texts.push(this.current.take());
  }

  escaped(text: string): void {
    this.marker();
    this.current.write(text);
    this.marker();
  }

  /** `{key:value,...}` with the keys in order; `write` writes each value. */
  *braced(record: Record<string, unknown>, write?: (value: unknown, key: string) => Steps): Steps {
    let keys = ownKeys(record);
    if (keys.length > 1) keys = yield* sortedSteps([...keys]);
    this.text("{");
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      this.text(index ? `,${key}:` : `${key}:`);
      if (write) yield* write(record[key], key);
      else yield* this.value(record[key]);
    }
    this.text("}");
  }

  /** `[item,...]`, each item written by `write` (a JSON value unless given). */
  *bracketed<T>(items: readonly T[], write?: (item: T) => Steps): Steps {
    this.text("[");
    for (let index = 0; index < items.length; index++) {
      if (index) this.text(",");
      if (write) yield* write(items[index]!);
      else yield* this.value(items[index]);
    }
    this.text("]");
  }

  /** A JSON value: strings escaped, other scalars as written, arrays and objects nested. */
  *value(value: unknown): Steps {
    if (typeof value === "string") this.escaped(value);
    else if (value === null || value === undefined) this.text("null");
    else if (Array.isArray(value)) yield* this.bracketed(value);
    else if (typeof value === "object") yield* this.braced(value as Record<string, unknown>);
    else this.text(String(value));
    yield;
  }

  /** A schema: type names escaped, property and nested schemas written as schemas. */
  *schema(node: unknown): Steps {
    if (!isRecord(node)) return yield* this.value(node);
    yield* this.braced(node, (child, keyword) => this.schemaMember(child, keyword));
  }

  private *schemaMember(child: unknown, keyword: string): Steps {
    if (keyword === "properties" && isRecord(child))
      yield* this.braced(child, (property) => this.schema(property));
    else if (keyword === "type") {
      const names = typeNames(child);
      if (names.length === 1) this.escaped(names[0]!);
      else yield* this.bracketed(names, (name) => this.escapedSteps(name));
    } else if (keyword === "items" || keyword === "not") yield* this.schema(child);
    else if (Array.isArray(child) && child.some(isRecord))
      yield* this.bracketed(child, (branch) => this.schema(branch));
    else yield* this.value(child);
  }

  private *escapedSteps(text: string): Steps {
    this.escaped(text);
  }

  result(): PromptText {
    return {
      texts: this.current.empty ? this.texts : [...this.texts, this.current.take()],
      fixed: this.fixed,
    };
  }
}

/** `keys` sorted as Array.prototype.sort sorts strings, merging a few runs per step. */
function* sortedSteps(keys: string[]): Steps<string[]> {
  const RUN = 256;
  if (keys.length <= RUN) return keys.sort();
  let runs: string[][] = [];
  for (let from = 0; from < keys.length; from += RUN) {
    runs.push(keys.slice(from, from + RUN).sort());
    yield;
  }
  let merged = 0;
  while (runs.length > 1) {
    const next: string[][] = [];
    for (let index = 0; index < runs.length; index += 2) {
      const left = runs[index]!;
      const right = runs[index + 1];
      if (!right) {
        next.push(left);
        continue;
      }
      const out: string[] = [];
      let l = 0;
      let r = 0;
      while (l < left.length && r < right.length) {
        out.push(left[l]! <= right[r]! ? left[l++]! : right[r++]!);
        if (++merged % MERGES_PER_STEP === 0) yield;
      }
      while (l < left.length) out.push(left[l++]!);
      while (r < right.length) out.push(right[r++]!);
      next.push(out);
    }
    runs = next;
  }
  return runs[0]!;
}

export function declarationText(
  format: FunctionTextFormat,
  declaration: FunctionDeclaration,
): PromptText {
  return runSteps(declarationTextSteps(format, declaration));
}

/** declarationText, a value at a time (see Steps). */
export function* declarationTextSteps(
  format: FunctionTextFormat,
  declaration: FunctionDeclaration,
): Steps<PromptText> {
  if (format === "fields") {
    const text = new FieldsText();
    text.add(declaration.name);
    if (declaration.description) text.add(declaration.description);
    // The JSON Schema variants (parametersJsonSchema, responseJsonSchema) reach no 1.x/2.0 prompt.
    yield* text.schema(declaration.parameters);
    yield* text.schema(declaration.response);
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
  for (const [index, [field, value]] of fields.entries()) {
    writer.text(index ? `,${field}:` : `${field}:`);
    if (field === "description") writer.escaped(value as string);
    else yield* writer.schema(value);
  }
  writer.text("}");
  writer.marker();
  return writer.result();
}

export function functionCallText(format: FunctionTextFormat, call: FunctionCall): PromptText {
  return runSteps(functionCallTextSteps(format, call));
}

/** functionCallText, a value at a time (see Steps). */
export function* functionCallTextSteps(
  format: FunctionTextFormat,
  call: FunctionCall,
): Steps<PromptText> {
  if (format === "fields") {
    const text = new FieldsText();
    text.add(call.name);
    yield* text.value(call.args ?? {});
    return text.result();
  }
  return yield* markedUp(`call:${call.name}`, call.args ?? {});
}

/** A function's answer, without the media parts it may carry (those count as media). */
export function functionResponseText(
  format: FunctionTextFormat,
  response: Omit<FunctionResponse, "parts">,
): PromptText {
  return runSteps(functionResponseTextSteps(format, response));
}

/** functionResponseText, a value at a time (see Steps). */
export function* functionResponseTextSteps(
  format: FunctionTextFormat,
  response: Omit<FunctionResponse, "parts">,
): Steps<PromptText> {
  if (format === "fields") {
    const text = new FieldsText();
    text.add(response.name);
    yield* text.value(response.response ?? {});
    return text.result();
  }
  return yield* markedUp(`response:${response.name}`, response.response ?? {});
}

/** generationConfig.responseSchema, where the family counts it (fields notation only). */
export function responseSchemaText(schema: unknown): PromptText {
  return runSteps(responseSchemaTextSteps(schema));
}

/** responseSchemaText, a value at a time (see Steps). */
export function* responseSchemaTextSteps(schema: unknown): Steps<PromptText> {
  const text = new FieldsText();
  yield* text.schema(schema);
  return text.result();
}

/** Collects the values of the fields notation: strings to count, other scalars one token each. */
class FieldsText {
  private readonly texts: string[] = [];
  private fixed = 0;

  add(text: string): void {
    if (text) this.texts.push(text);
  }

  *value(item: unknown): Steps {
    if (item === null || item === undefined) return;
    if (typeof item === "string") return this.add(item);
    if (typeof item !== "object") {
      this.fixed += 1;
      return;
    }
    if (Array.isArray(item)) {
      for (const element of item) yield* this.value(element);
      return;
    }
    const record = item as Record<string, unknown>;
    for (const key of ownKeys(record)) {
      this.add(key);
      yield* this.value(record[key]);
      yield;
    }
  }

  // A schema's own keywords are no text of the prompt; its values and property names are.
  *schema(node: unknown): Steps {
    if (!isRecord(node)) return;
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword === "properties" && isRecord(child)) {
        for (const name of ownKeys(child)) {
          this.add(name);
          yield* this.schema(child[name]);
        }
      } else if (keyword === "items" || keyword === "not") yield* this.schema(child);
      else if (keyword === "anyOf" || keyword === "oneOf" || keyword === "allOf") {
        for (const branch of Array.isArray(child) ? child : []) yield* this.schema(branch);
      } else if (keyword === "type") typeNames(child).forEach((name) => this.add(name));
      else yield* this.value(child);
      yield;
    }
  }

  result(): PromptText {
    return { texts: this.texts, fixed: this.fixed };
  }
}

/** The service writes types by their enum names (STRING, OBJECT), whatever case was sent. */
function typeNames(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type])
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.toUpperCase());
}

/** A call or response: `head{…}` between its start and end markers. */
function* markedUp(head: string, value: Record<string, unknown>): Steps<PromptText> {
  const writer = new MarkupWriter();
  writer.marker();
  writer.text(head);
  yield* writer.value(value);
  writer.marker();
  return writer.result();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
