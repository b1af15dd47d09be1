/**
 * Gemini 2.5's notation for functions (`python`): a declaration as a Python signature and
 * docstring, a call as the code that makes it. The texts are the reading the recorded counts fix,
 * not the service's wording, which no answer shows; the figures are in lib/engine/README.md.
 */
import { PieceWriter } from "@/lib/runtime/piece-writer";
import { ownKeys } from "@/lib/gemini/own-keys";
import type { Steps } from "@/lib/gemini/steps";
import type { FunctionCall, FunctionDeclaration, FunctionResponse } from "@/lib/gemini/types";
import { isRecord, MarkupWriter, sortedSteps, typeNames, type PromptText } from "./markup-writer";

/**
 * The `python` notation's tokens besides its texts, measured on 2.5 (see lib/engine/README.md):
 * per declaration; per parameter after its first (a declaration of three parameters adds 8);
 * per described parameter (its line counts two fewer than written); per declared response
 * schema; per argument of a call (recorded on 2.5 Flash and Pro with calls signed by the service,
 * calls after the first of a parallel set, which carry no signature, and calls callers wrote
 * without one alike: the token is the call's, not its signature's; a call without arguments adds
 * none, a call of two arguments two).
 */
const PYTHON_DECLARATION_TOKENS = 6;
const PYTHON_EXTRA_PARAMETER_TOKENS = 4;
const PYTHON_DESCRIBED_PARAMETER_TOKENS = -2;
const PYTHON_RESPONSE_TOKENS = 15;
const PYTHON_ARGUMENT_TOKENS = 1;
/**
 * The tokens besides their texts of the classes a declaration writes for its nested objects:
 * once for a declaration that writes any, and per class (measured on 2.5 Flash: one class 15,
 * two 20, for objects inline and by `$ref`, with and without descriptions; see lib/engine/README.md).
 */
const PYTHON_CLASSES_TOKENS = 10;
const PYTHON_CLASS_TOKENS = 5;

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
 * A declaration in the `python` notation: its signature (required parameters first, the others
 * `| None = None`) and docstring (description, then every parameter under `Args:`), the
 * dataclasses of the objects its parameters hold (see PythonClasses), and its response schema in
 * the markup.
 */
export function* pythonDeclarationSteps(declaration: FunctionDeclaration): Steps<PromptText> {
  const schema = declaration.parameters ?? declaration.parametersJsonSchema;
  const classes = new PythonClasses(schema);
  const fields = yield* classes.fieldsOf(schema);
  const text = new PieceWriter();
  text.write(`def ${declaration.name}(`);
  for (const [index, field] of fields.entries()) {
    const optional = field.required ? "" : " | None = None";
    text.write(`${index ? ", " : ""}${field.name}: ${field.type}${optional}`);
    yield;
  }
  text.write(`) -> dict:\n  """${docstringLines(declaration.description ?? "")}\n`);
  if (fields.length) text.write("\n  Args:\n");
  let described = 0;
  for (const field of fields) {
    if (field.description) described += 1;
    text.write(`    ${field.name}${describedAs(field)}\n`);
    yield;
  }
  text.write('  """\n');
  const texts = [text.take()];
  let fixed =
    PYTHON_DECLARATION_TOKENS +
    PYTHON_EXTRA_PARAMETER_TOKENS * Math.max(0, fields.length - 1) +
    PYTHON_DESCRIBED_PARAMETER_TOKENS * described;
  const written = yield* classes.writeAll();
  if (written.count) {
    texts.push(written.text);
    fixed += PYTHON_CLASSES_TOKENS + PYTHON_CLASS_TOKENS * written.count;
  }
  const response = declaration.response ?? declaration.responseJsonSchema;
  if (response !== undefined) {
    const writer = new MarkupWriter();
    yield* writer.schema(response, true);
    const result = writer.result();
    texts.push(...result.texts);
    fixed += result.fixed + PYTHON_RESPONSE_TOKENS;
  }
  return { texts, fixed };
}

/** A parameter of a function or a field of a class, as the `python` notation writes it. */
interface PythonField {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

/** A field's line under `Args:` or `Attributes:` after its name: `: ` and its description, if any. */
function describedAs(field: PythonField): string {
  return field.description ? `: ${docstringLines(field.description)}` : "";
}

/**
 * The dataclasses of a declaration's nested objects. An object with properties, inline or by a
 * local `$ref` (`#/$defs/Name`, `#/definitions/Name`), is written once as a class and its type
 * is the class's name: a `$ref`'s definition name, else an inline object's `title`, else the
 * name of the property that holds it in PascalCase (`steps: list[Steps]`). A class is
 * `@dataclasses.dataclass`, `class Name:`, a docstring of its description and its fields under
 * `Attributes:` (as a signature's `Args:`), then its fields, required first and the others
 * `| None = None`. Classes are written in the order they are first named; a class naming itself
 * or one already written refers to it by name, so each is written once (a `$ref` cycle or a
 * long chain stays linear in the schema).
 */
class PythonClasses {
  private readonly definitions: Record<string, unknown>;
  /** Each class name taken. */
  private readonly named = new Set<string>();
  /** Per schema node, the class name it was given. */
  private readonly nameOf = new Map<unknown, string>();
  /** Per wanted name already taken, the next number to try after it. */
  private readonly suffixes = new Map<string, number>();
  private readonly pending: { name: string; node: Record<string, unknown> }[] = [];

  constructor(root: unknown) {
    const definitions = isRecord(root) ? (root.$defs ?? root.definitions) : undefined;
    this.definitions = isRecord(definitions) ? definitions : {};
  }

  /** An object schema's fields: required first (a listed one whose default is null is optional). */
  *fieldsOf(schema: unknown): Steps<PythonField[]> {
    const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
    const listed = isRecord(schema) && Array.isArray(schema.required) ? schema.required : [];
    // A listed parameter whose default is null is written as an optional one (recorded: a
    // required `anyOf` of string, object and null with `default: null` counts `| None = None`;
    // a required nullable union without a default counts none).
    const required = new Set(
      listed.filter(
        (name): name is string =>
          typeof name === "string" &&
          !(isRecord(properties[name]) && properties[name].default === null),
      ),
    );
    const names = ownKeys(properties);
    const ordered = [
      ...names.filter((name) => required.has(name)),
      ...names.filter((name) => !required.has(name)),
    ];
    const fields: PythonField[] = [];
    for (const name of ordered) {
      const property = properties[name];
      const description =
        isRecord(property) && typeof property.description === "string" ? property.description : "";
      fields.push({
        name,
        type: this.type(property, name),
        required: required.has(name),
        description,
      });
      yield;
    }
    return fields;
  }

  /** Every class named so far and those their fields name, in one text, and how many. */
  *writeAll(): Steps<{ text: string; count: number }> {
    const text = new PieceWriter();
    let count = 0;
    for (let index = 0; index < this.pending.length; index++) {
      const { name, node } = this.pending[index]!;
      const fields = yield* this.fieldsOf(node);
      const description = typeof node.description === "string" ? node.description : "";
      text.write(`@dataclasses.dataclass\nclass ${name}:\n  """${docstringLines(description)}\n`);
      if (fields.length) text.write("\n  Attributes:\n");
      for (const field of fields) text.write(`    ${field.name}${describedAs(field)}\n`);
      text.write('  """\n\n');
      for (const field of fields)
        text.write(`  ${field.name}: ${field.type}${field.required ? "" : " | None = None"}\n`);
      text.write("\n");
      count += 1;
      yield;
    }
    return { text: text.take(), count };
  }

  /**
   * A schema's type as Python writes it: `str`, `list[int]`, `Literal["C", "F"]`, `str | float`,
   * a class's name. `hint` is the name of the property that holds it.
   */
  private type(node: unknown, hint: string): string {
    if (!isRecord(node)) return "Any";
    if (typeof node.$ref === "string") {
      const name = LOCAL_REFERENCE.exec(node.$ref)?.[1];
      const target = name === undefined ? undefined : this.definitions[name];
      return name !== undefined && isRecord(target) ? this.classFor(target, name) : "Any";
    }
    if (Array.isArray(node.enum) && node.enum.length)
      return `Literal[${node.enum.map((value) => JSON.stringify(String(value))).join(", ")}]`;
    if (Array.isArray(node.anyOf)) {
      const branches = node.anyOf
        .map((branch) => this.type(branch, hint))
        .filter((branch) => branch !== "None");
      return branches.length ? branches.join(" | ") : "Any";
    }
    // A null in a type list makes no Python type of its own (recorded: ["string", "number", "null"]).
    const names = typeNames(node.type).filter((name) => name !== "NULL");
    if (!names.length) return typeNames(node.type).length ? "None" : "Any";
    return names
      .map((name) => {
        if (name === "ARRAY" && node.items !== undefined)
          return `list[${this.type(node.items, hint)}]`;
        if (name === "OBJECT" && isRecord(node.properties) && ownKeys(node.properties).length) {
          const title = typeof node.title === "string" && node.title ? node.title : undefined;
          return this.classFor(node, title ?? pascalCase(hint));
        }
        return PYTHON_TYPES[name] ?? name.toLowerCase();
      })
      .join(" | ");
  }

  /**
   * The class name of an object schema, its class queued to be written the first time it is
   * named. A name another schema already took gets a number (`Steps2`).
   */
  private classFor(node: Record<string, unknown>, wanted: string): string {
    const known = this.nameOf.get(node);
    if (known !== undefined) return known;
    let name = wanted;
    if (this.named.has(name)) {
      let suffix = this.suffixes.get(wanted) ?? 2;
      while (this.named.has(`${wanted}${suffix}`)) suffix += 1;
      this.suffixes.set(wanted, suffix + 1);
      name = `${wanted}${suffix}`;
    }
    this.named.add(name);
    this.nameOf.set(node, name);
    this.pending.push({ name, node });
    return name;
  }
}

/** A `$ref` to a definition of the same schema: its name. */
const LOCAL_REFERENCE = /^#\/(?:\$defs|definitions)\/([^/]+)$/;

/** A property name as a class name: `tool_to_use` is `ToolToUse`, `address` `Address`. */
function pascalCase(name: string): string {
  const joined = name
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
  return joined || "Object";
}

/**
 * A call in the `python` notation: `print(default_api.name(key=value, ...))`, keys sorted, and
 * one token no text shows for each argument.
 */
export function* pythonCallSteps(call: FunctionCall): Steps<PromptText> {
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
  return { texts: [text.take()], fixed: keys.length * PYTHON_ARGUMENT_TOKENS };
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

/**
 * A function's answer in the `python` notation: what the call printed, a JSON object naming the
 * function, `{"name_response": {...}}`, written with Python's separators (`", "`, `": "`).
 */
export function* pythonResponseSteps(response: Omit<FunctionResponse, "parts">): Steps<PromptText> {
  const text = new PieceWriter();
  text.write(`{${JSON.stringify(`${response.name}_response`)}: `);
  yield* jsonValue(text, response.response ?? {});
  text.write("}");
  return { texts: [text.take()], fixed: 0 };
}

/** A JSON value as Python's json.dumps writes it: `", "` between items, `": "` after keys. */
function* jsonValue(text: PieceWriter, value: unknown): Steps {
  if (value === null || value === undefined) text.write("null");
  else if (Array.isArray(value)) {
    text.write("[");
    for (let index = 0; index < value.length; index++) {
      if (index) text.write(", ");
      yield* jsonValue(text, value[index]);
    }
    text.write("]");
  } else if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    text.write("{");
    for (const [index, key] of ownKeys(record).entries()) {
      text.write(`${index ? ", " : ""}${quoted(key)}: `);
      yield* jsonValue(text, record[key]);
    }
    text.write("}");
  } else text.write(typeof value === "string" ? quoted(value) : JSON.stringify(value));
  yield;
}

/** A description inside the docstring: its later lines indented as the docstring is. */
function docstringLines(description: string): string {
  return description.replace(/\n(?=[^\n])/g, "\n  ");
}

/** A string as the response's text writes it: JSON's escapes, and a single quote escaped too. */
function quoted(value: string): string {
  const json = JSON.stringify(value);
  return json.includes("'") ? json.replace(/'/g, "\\'") : json;
}
