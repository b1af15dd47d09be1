/**
 * Function declarations, calls and responses as the service writes them into a model's prompt,
 * for counting (api-notes §4; the formats and the figures they reach are in lib/engine/README.md).
 * Three notations, measured on recorded traffic: `fields` (1.x, 2.0: each value alone), `markup`
 * (3.x: one text per item between marker tokens) and `python` (2.5: signatures and the code of
 * calls, responses as the JSON the calls printed). `python`'s texts are the reading the recorded counts fix, not the service's wording
 * (which no answer shows). Knowingly unmeasured: schema keywords no recording used (they follow
 * the same rule); in `python`, property descriptions, arrays and string or boolean arguments
 * (nested objects are measured: dataclasses, python-function-text.ts). The markup's writer is markup-writer.ts; the `python` notation is
 * python-function-text.ts.
 */
import type { FunctionTextFormat } from "@/lib/gemini/prompt-token-rules";
import { ownKeys } from "@/lib/gemini/own-keys";
import { runSteps, type Steps } from "@/lib/gemini/steps";
import type { FunctionCall, FunctionDeclaration, FunctionResponse } from "@/lib/gemini/types";
import { isRecord, MarkupWriter, typeNames, type PromptText } from "./markup-writer";
import {
  pythonCallSteps,
  pythonDeclarationSteps,
  pythonResponseSteps,
} from "./python-function-text";

export type { PromptText };

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
    // The JSON Schema variants (parametersJsonSchema, responseJsonSchema) reach no 1.x/2.0 prompt;
    // a parameter's `title` counts nothing (recorded on 2.0: `"title": "A"` on each of two
    // parameters, 2 tokens over when counted), where a response schema's does.
    yield* text.schema(declaration.parameters, { titles: false });
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
    else yield* writer.schema(value, true);
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
  if (format === "python") return yield* pythonResponseSteps(response);
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

/** What an array schema's `items` adds in the fields notation besides the item schema's own values. */
const FIELDS_ITEMS_TOKENS = 1;

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

  /**
   * A schema's own keywords are no text of the prompt; its values and property names are, and
   * an array's `items` one token more (recorded on 2.0: an array parameter of strings counts its
   * name, ARRAY, STRING and one token, in every request that declares one). `titles: false`
   * leaves `title` out (a declaration's parameters).
   */
  *schema(node: unknown, options: { titles?: boolean } = {}): Steps {
    if (!isRecord(node)) return;
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword === "properties" && isRecord(child)) {
        for (const name of ownKeys(child)) {
          this.add(name);
          yield* this.schema(child[name], options);
        }
      } else if (keyword === "items") {
        this.fixed += FIELDS_ITEMS_TOKENS;
        yield* this.schema(child, options);
      } else if (keyword === "not") yield* this.schema(child, options);
      else if (keyword === "anyOf" || keyword === "oneOf" || keyword === "allOf") {
        for (const branch of Array.isArray(child) ? child : []) yield* this.schema(branch, options);
      } else if (keyword === "title" && options.titles === false) continue;
      else if (keyword === "type") typeNames(child).forEach((name) => this.add(name));
      else yield* this.value(child);
      yield;
    }
  }

  result(): PromptText {
    return { texts: this.texts, fixed: this.fixed };
  }
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
