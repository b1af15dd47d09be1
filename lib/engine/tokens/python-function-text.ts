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
 * `| None = None`) and docstring (description, then every parameter under `Args:`), and its
 * response schema in the markup.
 */
export function* pythonDeclarationSteps(declaration: FunctionDeclaration): Steps<PromptText> {
  const schema = declaration.parameters ?? declaration.parametersJsonSchema;
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
  const text = new PieceWriter();
  text.write(`def ${declaration.name}(`);
  for (const [index, name] of ordered.entries()) {
    const optional = required.has(name) ? "" : " | None = None";
    text.write(`${index ? ", " : ""}${name}: ${pythonType(properties[name])}${optional}`);
    yield;
  }
  text.write(`) -> dict:\n  """${docstringLines(declaration.description ?? "")}\n`);
  if (ordered.length) text.write("\n  Args:\n");
  let described = 0;
  for (const name of ordered) {
    const property = properties[name];
    const description =
      isRecord(property) && typeof property.description === "string" && property.description
        ? `: ${docstringLines(property.description)}`
        : "";
    if (description) described += 1;
    text.write(`    ${name}${description}\n`);
    yield;
  }
  text.write('  """\n');
  const texts = [text.take()];
  let fixed =
    PYTHON_DECLARATION_TOKENS +
    PYTHON_EXTRA_PARAMETER_TOKENS * Math.max(0, ordered.length - 1) +
    PYTHON_DESCRIBED_PARAMETER_TOKENS * described;
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
