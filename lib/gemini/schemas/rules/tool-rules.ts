/**
 * Rules for the OpenAPI-subset Schema (responseSchema, function parameters), for tools and
 * for toolConfig: function names valid and unique, parameters XOR parametersJsonSchema,
 * allowedFunctionNames only with mode ANY/VALIDATED and naming declared functions.
 */
import { ownKeys } from "../../own-keys";
import { isPlainObject } from "../wire";
import type { Schema, Tool, ToolConfig } from "../../types";
import { runSteps, type Steps } from "../../steps";
import { Violations, fieldPath, listWords } from "./violations";

export const FUNCTION_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/;
const INVALID_FUNCTION_NAME =
  "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.";

/** Checks an OpenAPI-subset Schema at `path` and everything under it. */
export function checkSchema(schema: Schema, path: string, violations: Violations): void {
  runSteps(checkSchemaSteps(schema, path, violations));
}

/** checkSchema, one schema node at a time. */
export function* checkSchemaSteps(schema: Schema, path: string, violations: Violations): Steps {
  const type = schema.type ?? "TYPE_UNSPECIFIED";
  if (type === "TYPE_UNSPECIFIED" && !schema.anyOf?.length) {
    violations.add(
      `${path}.type`,
      "must be specified when not using one_of, any_of or all_of fields",
    );
  }
  if (schema.enum !== undefined) {
    if (type !== "STRING" && type !== "TYPE_UNSPECIFIED")
      violations.add(`${path}.enum`, "only allowed for STRING type");
    schema.enum.forEach((value, index) => {
      if (value === "") violations.add(`${path}.enum[${index}]`, "enum values must not be empty.");
    });
    if (new Set(schema.enum).size !== schema.enum.length)
      violations.add(`${path}.enum`, "enum values must be distinct.");
  }
  if (type === "ARRAY" && schema.items === undefined)
    violations.add(`${path}.items`, "missing field.");
  const properties = schema.properties ?? {};
  schema.required?.forEach((name, index) => {
    if (!Object.prototype.hasOwnProperty.call(properties, name))
      violations.add(`${path}.required[${index}]`, "property is not defined");
  });
  schema.propertyOrdering?.forEach((name, index) => {
    if (!Object.prototype.hasOwnProperty.call(properties, name))
      violations.add(`${path}.property_ordering[${index}]`, "property is not defined");
  });
  const pairs = [
    ["minItems", "maxItems", "min_items", "max_items"],
    ["minLength", "maxLength", "min_length", "max_length"],
    ["minProperties", "maxProperties", "min_properties", "max_properties"],
    ["minimum", "maximum", "minimum", "maximum"],
  ] as const;
  for (const [lowKey, highKey, lowName, highName] of pairs) {
    const low = schema[lowKey];
    const high = schema[highKey];
    if (typeof low === "number" && low < 0 && lowKey !== "minimum")
      violations.add(`${path}.${lowName}`, `${lowName} must not be negative; got ${low}.`);
    if (typeof high === "number" && high < 0 && highKey !== "maximum")
      violations.add(`${path}.${highName}`, `${highName} must not be negative; got ${high}.`);
    if (typeof low === "number" && typeof high === "number" && low > high) {
      violations.add(
        `${path}.${lowName}`,
        `${lowName} (${low}) must not be greater than ${highName} (${high}).`,
      );
    }
  }
  yield;
  if (schema.items) yield* checkSchemaSteps(schema.items, `${path}.items`, violations);
  // Keys, not entries (a hundred thousand [key, value] pairs were a step of their own), and
  // known keys where the reader recorded them.
  const names = ownKeys(properties);
  for (let index = 0; index < names.length; index++)
    yield* checkSchemaSteps(
      properties[names[index]!]!,
      `${path}.properties[${names[index]}]`,
      violations,
    );
  const anyOf = schema.anyOf ?? [];
  for (let index = 0; index < anyOf.length; index++)
    yield* checkSchemaSteps(anyOf[index]!, `${path}.any_of[${index}]`, violations);
}

/** Names of every function declared in `tools`. */
export function declaredFunctionNames(tools: readonly Tool[] | undefined): string[] {
  return (tools ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
  );
}

function checkJsonSchemaValue(
  value: unknown,
  path: string,
  name: string,
  violations: Violations,
): void {
  if (typeof value === "boolean") return;
  if (!isPlainObject(value)) {
    violations.add(path, `${name} must be a JSON Schema object.`);
    return;
  }
  if (value.type !== undefined && value.type !== "object")
    violations.add(
      `${path}.type`,
      `${name} must describe an object (type "object"); got ${JSON.stringify(value.type)}.`,
    );
}

/** Checks `tools` at `path` (`tools`, `cached_content.tools`). */
export function checkTools(tools: readonly Tool[], path: string, violations: Violations): void {
  runSteps(checkToolsSteps(tools, path, violations));
}

/** checkTools, one declaration and schema node at a time. */
export function* checkToolsSteps(
  tools: readonly Tool[],
  path: string,
  violations: Violations,
): Steps {
  const seen = new Set<string>();
  for (let toolIndex = 0; toolIndex < tools.length; toolIndex++) {
    const declarations = tools[toolIndex]!.functionDeclarations ?? [];
    for (let index = 0; index < declarations.length; index++) {
      const declaration = declarations[index]!;
      const declarationPath = `${path}[${toolIndex}].function_declarations[${index}]`;
      if (!FUNCTION_NAME_PATTERN.test(declaration.name))
        violations.add(`${declarationPath}.name`, INVALID_FUNCTION_NAME);
      else if (seen.has(declaration.name))
        violations.add(
          `${declarationPath}.name`,
          `function "${declaration.name}" is declared more than once; function names must be unique.`,
        );
      seen.add(declaration.name);
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        violations.add(
          `${declarationPath}.parameters_json_schema`,
          "parameters and parameters_json_schema are mutually exclusive; set only one of them.",
        );
      }
      if (declaration.response !== undefined && declaration.responseJsonSchema !== undefined) {
        violations.add(
          `${declarationPath}.response_json_schema`,
          "response and response_json_schema are mutually exclusive; set only one of them.",
        );
      }
      if (declaration.parameters)
        yield* checkSchemaSteps(
          declaration.parameters,
          `${declarationPath}.parameters`,
          violations,
        );
      if (declaration.response)
        yield* checkSchemaSteps(declaration.response, `${declarationPath}.response`, violations);
      if (declaration.parametersJsonSchema !== undefined) {
        checkJsonSchemaValue(
          declaration.parametersJsonSchema,
          `${declarationPath}.parameters_json_schema`,
          "parameters_json_schema",
          violations,
        );
      }
      yield;
    }
  }
}

/** Checks `toolConfig` at `path` against the functions `tools` (of the same body) declares. */
export function checkToolConfig(
  toolConfig: ToolConfig,
  tools: readonly Tool[] | undefined,
  path: string,
  violations: Violations,
): void {
  runSteps(checkToolConfigSteps(toolConfig, tools, path, violations));
}

/** checkToolConfig, one allowed name at a time. */
export function* checkToolConfigSteps(
  toolConfig: ToolConfig,
  tools: readonly Tool[] | undefined,
  path: string,
  violations: Violations,
): Steps {
  const config = toolConfig.functionCallingConfig;
  if (!config) return;
  const configPath = fieldPath(path, "function_calling_config");
  const declared = declaredFunctionNames(tools);
  // The service accepts mode ANY without declarations and allowed names beside mode AUTO
  // (recorded, pydantic-ai 2025-2026: both answered 200); an allowed name no declaration has
  // is still refused.
  if (config.allowedFunctionNames?.length) {
    // A set and one list of the declared names: a name per allowed name was quadratic.
    const known = new Set(declared);
    let declaredWords: string | undefined;
    const allowed = config.allowedFunctionNames;
    for (let index = 0; index < allowed.length; index++) {
      const name = allowed[index]!;
      if (declared.length > 0 && !known.has(name)) {
        declaredWords ??= listWords(declared);
        violations.add(
          `${configPath}.allowed_function_names[${index}]`,
          `"${name}" is not a declared function; declared functions are ${declaredWords}.`,
        );
      }
      yield;
    }
  }
}
