/**
 * Function declarations, calls and responses as the service writes them into a model's prompt,
 * for counting (api-notes §4; the formats and the figures they reach are in lib/engine/README.md).
 * Three notations, measured on recorded traffic: `fields` (1.x, 2.0: each value alone), `markup`
 * (3.x: one text per item between marker tokens) and `python` (2.5: signatures and the code of
 * calls). `python`'s texts are the reading the recorded counts fix, not the service's wording
 * (which no answer shows). Knowingly unmeasured: schema keywords no recording used (they follow
 * the same rule); in `python`, property descriptions, nested objects, arrays and string or
 * boolean arguments.
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
 * The `python` notation's tokens besides its texts, measured on 2.5 (exact on every recorded
 * tool request whose history holds no service-made thought signature): once for a request's
 * function declarations, once per declaration, once per declared response schema.
 */
const PYTHON_TOOLS_TOKENS = 4;
const PYTHON_DECLARATION_TOKENS = 6;
const PYTHON_RESPONSE_TOKENS = 15;

/** Python's names for the schema types (STRING, NUMBER, ...). */
const PYTHON_TYPES: Readonly<Record<string, string>> = {
  STRING: "str",
  NUMBER: "float",
  INTEGER: "int",
  BOOLEAN: "bool",
  OBJECT: "dict",
  ARRAY: "list",
};

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

  /** `{key:value,...}` with the keys in order; `write` writes each value, `keep` picks the keys. */
  *braced(
    record: Record<string, unknown>,
    write?: (value: unknown, key: string) => Steps,
    keep?: (key: string) => boolean,
  ): Steps {
    let keys = ownKeys(record);
    if (keep) keys = keys.filter(keep);
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

  /**
   * A schema: type names escaped, property and nested schemas written as schemas. With
   * `schemaKeywordsOnly`, JSON Schema's own keywords (`$schema`, `additionalProperties`) are
   * left out, as the service leaves them out of the schemas it keeps.
   */
  *schema(node: unknown, schemaKeywordsOnly = false): Steps {
    if (!isRecord(node)) return yield* this.value(node);
    yield* this.braced(
      node,
      (child, keyword) => this.schemaMember(child, keyword, schemaKeywordsOnly),
      schemaKeywordsOnly ? isSchemaKeyword : undefined,
    );
  }

  private *schemaMember(child: unknown, keyword: string, schemaKeywordsOnly: boolean): Steps {
    if (keyword === "properties" && isRecord(child))
      yield* this.braced(child, (property) => this.schema(property, schemaKeywordsOnly));
    else if (keyword === "type") {
      const names = typeNames(child);
      if (names.length === 1) this.escaped(names[0]!);
      else yield* this.bracketed(names, (name) => this.escapedSteps(name));
    } else if (keyword === "items" || keyword === "not")
      yield* this.schema(child, schemaKeywordsOnly);
    else if (Array.isArray(child) && child.some(isRecord))
      yield* this.bracketed(child, (branch) => this.schema(branch, schemaKeywordsOnly));
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
  if (format === "python") return yield* pythonDeclarationSteps(declaration);
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
  if (format === "python") return yield* pythonCallSteps(call);
  return yield* markedUp(`call:${call.name}`, call.args ?? {});
}

/** What a request's function declarations add once, beyond each declaration's own text. */
export function declarationsOverhead(format: FunctionTextFormat): number {
  return format === "python" ? PYTHON_TOOLS_TOKENS : 0;
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

/**
 * A declaration in the `python` notation: its signature (required parameters first, the others
 * `| None = None`) and docstring (description, then every parameter under `Args:`), and its
 * response schema in the markup.
 */
function* pythonDeclarationSteps(declaration: FunctionDeclaration): Steps<PromptText> {
  const schema = declaration.parameters ?? declaration.parametersJsonSchema;
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const listed = isRecord(schema) && Array.isArray(schema.required) ? schema.required : [];
  const required = new Set(listed.filter((name): name is string => typeof name === "string"));
  const names = ownKeys(properties);
  const ordered = [
    ...names.filter((name) => required.has(name)),
    ...names.filter((name) => !required.has(name)),
  ];
  const text = new PieceWriter();
  text.write(`def ${declaration.name}(`);
  for (const [index, name] of ordered.entries()) {
    const optional = required.has(name) ? "" : " | None = None";
    text.write(`${index ? ", " : ""}${name}: ${pythonType(properties[name])}${optional}`);
    yield;
  }
  text.write(`) -> dict:\n  """${declaration.description ?? ""}\n`);
  if (ordered.length) text.write("\n  Args:\n");
  for (const name of ordered) {
    const property = properties[name];
    const description =
      isRecord(property) && typeof property.description === "string" && property.description
        ? `: ${property.description}`
        : "";
    text.write(`    ${name}${description}\n`);
    yield;
  }
  text.write('  """\n');
  const texts = [text.take()];
  let fixed = PYTHON_DECLARATION_TOKENS;
  const response = declaration.response ?? declaration.responseJsonSchema;
  if (response !== undefined) {
    const writer = new MarkupWriter();
    yield* writer.schema(response, true);
    const written = writer.result();
    texts.push(...written.texts);
    fixed += written.fixed + PYTHON_RESPONSE_TOKENS;
  }
  return { texts, fixed };
}

/** A parameter's type as Python writes it: `str`, `list[int]`, `Literal["C", "F"]`, `str | float`. */
function pythonType(node: unknown): string {
  if (!isRecord(node)) return "Any";
  if (Array.isArray(node.enum) && node.enum.length)
    return `Literal[${node.enum.map((value) => JSON.stringify(String(value))).join(", ")}]`;
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf.map(pythonType).filter((branch) => branch !== "None");
    return branches.length ? branches.join(" | ") : "Any";
  }
  // A null in a type list makes no Python type of its own (recorded: ["string", "number", "null"]).
  const names = typeNames(node.type).filter((name) => name !== "NULL");
  if (!names.length) return typeNames(node.type).length ? "None" : "Any";
  return names
    .map((name) =>
      name === "ARRAY" && node.items !== undefined
        ? `list[${pythonType(node.items)}]`
        : (PYTHON_TYPES[name] ?? name.toLowerCase()),
    )
    .join(" | ");
}

/** A call in the `python` notation: `print(default_api.name(key=value, ...))`, keys sorted. */
function* pythonCallSteps(call: FunctionCall): Steps<PromptText> {
  const args = call.args ?? {};
  let keys = ownKeys(args);
  if (keys.length > 1) keys = yield* sortedSteps([...keys]);
  const text = new PieceWriter();
  text.write(`print(default_api.${call.name}(`);
  for (const [index, key] of keys.entries()) {
    text.write(`${index ? ", " : ""}${key}=`);
    yield* pythonValue(text, args[key]);
  }
  text.write("))");
  return { texts: [text.take()], fixed: 0 };
}

/** A JSON value as a Python literal: strings quoted, `True`, `False`, `None`. */
function* pythonValue(text: PieceWriter, value: unknown): Steps {
  if (typeof value === "string") text.write(JSON.stringify(value));
  else if (value === null || value === undefined) text.write("None");
  else if (typeof value === "boolean") text.write(value ? "True" : "False");
  else if (Array.isArray(value)) {
    text.write("[");
    for (let index = 0; index < value.length; index++) {
      if (index) text.write(", ");
      yield* pythonValue(text, value[index]);
    }
    text.write("]");
  } else if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    text.write("{");
    for (const [index, key] of ownKeys(record).entries()) {
      text.write(`${index ? ", " : ""}${JSON.stringify(key)}: `);
      yield* pythonValue(text, record[key]);
    }
    text.write("}");
  } else text.write(String(value));
  yield;
}

/** A JSON Schema keyword the service's own schemas keep (it drops `$schema`, `additionalProperties`). */
function isSchemaKeyword(keyword: string): boolean {
  return !keyword.startsWith("$") && keyword !== "additionalProperties";
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
