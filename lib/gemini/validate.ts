/**
 * Request validation: every rule of the spec in the validate*.ts modules that the local engine,
 * the gateway and the studio's pages share (browser-safe: zod and lib/gemini only). Each entry
 * point reads a raw JSON body (camelCase, snake_case or both), throws ApiError 400 with the
 * service's messages, and returns the normalised camelCase request of lib/gemini/types.
 * Model-specific limits come from ModelTraits; checks that need stored state (cache and file
 * ownership, token counts, minimum cache size, an expireTime already past) are the engine's.
 * Where the spec is silent we follow the service's JSON reader: any repeated field takes a
 * single instance, numbers may come as strings, null means unset. Our own bounds: cache ttl
 * at most 3650 days, candidateCount at most 8, penalties in [-2, 2).
 * Here: generate and countTokens requests, and the checks every reader shares; a batch is read
 * in validate-batch.ts, a cache body in validate-caches.ts, an upload start in validate-upload.ts.
 * A little over 400 lines for a reason: each check is here twice, as steps (the server runs
 * them in time slices) and as the plain call the pages make, side by side.
 */
import type { z } from "zod";
import { ApiError, type FieldViolation } from "./api-error";
import type { ModelTraits } from "./model-traits";
import { generationConfigSchema } from "./schemas/generation-config";
import { toolConfigSchema, toolSchema } from "./schemas/tool";
import { wirePath, wireProblems } from "./schemas/issues";
import { countTokensRequestSchema, generateContentRequestSchema } from "./schemas/requests";
import { checkContentsSteps, checkSystemInstructionSteps } from "./schemas/rules/content-rules";
import {
  checkGenerationConfig,
  checkGenerationConfigSteps,
  type GenerationConfigRuleOptions,
} from "./schemas/rules/generation-config-rules";
import { capabilityRefusalSteps } from "./schemas/rules/model-capability-rules";
import {
  checkTools,
  checkToolConfig,
  checkToolConfigSteps,
  checkToolsSteps,
} from "./schemas/rules/tool-rules";
import { Violations, fieldPath, violationError } from "./schemas/rules/violations";
import { repeated } from "./schemas/wire";
import { runSteps, type Steps } from "./steps";
import type {
  Content,
  CountTokensRequest,
  GenerateContentRequest,
  SafetySetting,
  Tool,
  ToolConfig,
} from "./types";
import { SUPPORTED_HARM_CATEGORIES } from "./types";

export type { FieldViolation } from "./api-error";

/** Deepest JSON nesting a body may have (the service's proto readers stop at 100 too). */
export const MAX_NESTING_DEPTH = 100;

export const MODEL_NAME_PATTERN = /^models\/[^/\s]+$/;
/** A model id the service recognises as one (`gemini-2.5-flash`, `gemma-3-1b-it`, ...). */
const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const CACHED_CONTENT_NAME_PATTERN = /^cachedContents\/[a-z0-9-]+$/;

const CACHE_MIX_MESSAGE =
  "CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config. Proposed fix: move those values to CachedContent from GenerateContent request.";

interface SchemaRun {
  /** Name in `* Name.field: ...` lines. */
  requestName: string;
  /** Path segments the body sits under (`cachedContent` for a cache body). */
  root?: PropertyKey[];
}

/** True when `value` nests objects and arrays deeper than `limit` (walked without recursion). */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Checks the `{model}` segment of a request path (URL-decoded) before anything else: an id
 * that is no model name at all (a space, a slash) is the service's 400 naming `model`, with
 * no details (recorded); an unknown but well-formed one is left to the 404 of the lookup.
 * `requestName` is the operation's request message (`GenerateContentRequest`, ...).
 */
export function checkModelSegment(model: string, requestName: string): void {
  if (!MODEL_ID_PATTERN.test(model))
    throw new ApiError(
      400,
      "INVALID_ARGUMENT",
      `* ${requestName}.model: unexpected model name format\n`,
    );
}

/** Parses `body` with a wire schema, throwing the service's 400 for shape errors. */
export function runSchema<Output>(
  schema: z.ZodType<Output, unknown>,
  body: unknown,
  run: SchemaRun,
): Output {
  if (nestingDepthExceeds(body, MAX_NESTING_DEPTH)) {
    throw ApiError.invalidArgument(
      `Invalid JSON payload received. Nesting is deeper than ${MAX_NESTING_DEPTH} levels.`,
      [
        {
          field: wirePath(run.root ?? []),
          description: `JSON nesting must not be deeper than ${MAX_NESTING_DEPTH} levels.`,
        },
      ],
    );
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const problems = wireProblems(result.error, run.root);
  if (problems.payload.length) {
    throw ApiError.invalidArgument(
      problems.payload.map((problem) => problem.description).join("\n"),
      problems.payload,
    );
  }
  if (problems.required.length) throw violationError(run.requestName, problems.required);
  throw ApiError.invalidArgument("Invalid JSON payload received.", [
    { field: wirePath(run.root ?? []), description: "Invalid JSON payload received." },
  ]);
}

function checkSafetySettings(
  settings: readonly SafetySetting[],
  path: string,
  violations: Violations,
): void {
  const seen = new Set<string>();
  settings.forEach((setting, index) => {
    const settingPath = `${path}[${index}]`;
    if (!(SUPPORTED_HARM_CATEGORIES as readonly string[]).includes(setting.category)) {
      violations.add(
        `${settingPath}.category`,
        `${setting.category} is not supported; use one of ${SUPPORTED_HARM_CATEGORIES.join(", ")}.`,
      );
    } else if (seen.has(setting.category)) {
      violations.add(
        `${settingPath}.category`,
        `${setting.category} is set more than once; at most one setting per category.`,
      );
    }
    seen.add(setting.category);
    if (setting.threshold === "HARM_BLOCK_THRESHOLD_UNSPECIFIED") {
      violations.add(
        `${settingPath}.threshold`,
        "HARM_BLOCK_THRESHOLD_UNSPECIFIED is not allowed; use one of BLOCK_LOW_AND_ABOVE, BLOCK_MEDIUM_AND_ABOVE, BLOCK_ONLY_HIGH, BLOCK_NONE, OFF.",
      );
    }
  });
}

/** `models/{id}` where a body names its model. */
export function checkModelName(
  model: string | undefined,
  path: string,
  violations: Violations,
): void {
  if (model === undefined) return;
  if (!MODEL_NAME_PATTERN.test(model))
    violations.add(path, `model must be of the form models/{model}; got ${JSON.stringify(model)}.`);
}

/** The rules shared by a cache body and a generate request: system instruction, tools, tool config. */
export function checkContext(
  parts: { systemInstruction?: Content; tools?: Tool[]; toolConfig?: ToolConfig },
  base: string,
  violations: Violations,
): void {
  runSteps(checkContextSteps(parts, base, violations));
}

/** checkContext, one part or schema node at a time. */
export function* checkContextSteps(
  parts: { systemInstruction?: Content; tools?: Tool[]; toolConfig?: ToolConfig },
  base: string,
  violations: Violations,
): Steps {
  if (parts.systemInstruction)
    yield* checkSystemInstructionSteps(
      parts.systemInstruction,
      fieldPath(base, "system_instruction"),
      violations,
    );
  if (parts.tools) yield* checkToolsSteps(parts.tools, fieldPath(base, "tools"), violations);
  if (parts.toolConfig)
    yield* checkToolConfigSteps(
      parts.toolConfig,
      parts.tools,
      fieldPath(base, "tool_config"),
      violations,
    );
}

function* checkGenerateContentRules(
  request: GenerateContentRequest,
  traits: ModelTraits,
  base: string,
  violations: Violations,
  options: GenerationConfigRuleOptions,
): Steps {
  checkModelName(request.model, fieldPath(base, "model"), violations);
  yield* checkContentsSteps(request.contents, fieldPath(base, "contents"), violations, true);
  yield* checkContextSteps(request, base, violations);
  if (request.safetySettings)
    checkSafetySettings(request.safetySettings, fieldPath(base, "safety_settings"), violations);
  if (request.generationConfig || options.modalitiesRequired) {
    yield* checkGenerationConfigSteps(
      request.generationConfig ?? {},
      traits,
      fieldPath(base, "generation_config"),
      violations,
      options,
    );
  }
  if (request.cachedContent !== undefined) {
    const path = fieldPath(base, "cached_content");
    if (!CACHED_CONTENT_NAME_PATTERN.test(request.cachedContent)) {
      violations.add(
        path,
        `cached_content must be of the form cachedContents/{id}; got ${JSON.stringify(request.cachedContent)}.`,
      );
    }
    if (request.systemInstruction || request.tools?.length || request.toolConfig)
      violations.add(path, CACHE_MIX_MESSAGE);
  }
}

/**
 * Reads a generateContent / streamGenerateContent body into its canonical shape (camelCase,
 * single objects as lists, file references as `files/{id}`), checking the wire shape only.
 * This is the parse every request gets once at the edge; `checkGenerateContentRequest` adds
 * the rules that depend on the model. Throws ApiError 400 (INVALID_ARGUMENT).
 */
export function readGenerateContentRequest(body: unknown): GenerateContentRequest {
  return runSchema(generateContentRequestSchema, body ?? {}, {
    requestName: "GenerateContentRequest",
  });
}

/** The rules of a canonical generate request for the model whose traits are given. Throws ApiError 400. */
export function checkGenerateContentRequest(
  request: GenerateContentRequest,
  traits: ModelTraits,
  options: { stream?: boolean } = {},
): GenerateContentRequest {
  return runSteps(checkGenerateContentRequestSteps(request, traits, options));
}

/**
 * checkGenerateContentRequest one part or schema node at a time, for callers that check large
 * requests in slices (see Steps).
 */
export function* checkGenerateContentRequestSteps(
  request: GenerateContentRequest,
  traits: ModelTraits,
  options: { stream?: boolean } = {},
): Steps<GenerateContentRequest> {
  // What the model cannot do at all is refused first, with the service's one plain message.
  // A request that sets no responseModalities gets the model's own (recorded: gemini-2.5-flash-
  // image, whose combinations are TEXT+IMAGE and IMAGE, answered one without them, 2025-10).
  const refusal = yield* capabilityRefusalSteps(request, traits, {
    stream: options.stream,
    modalitiesRequired: false,
  });
  if (refusal) throw refusal;
  const violations = new Violations();
  yield* checkGenerateContentRules(request, traits, "", violations, { modalitiesRequired: false });
  if (!violations.empty) throw violationError("GenerateContentRequest", violations.list);
  return request;
}

/** readGenerateContentRequest, then checkGenerateContentRequest. */
export function parseGenerateContentRequest(
  body: unknown,
  traits: ModelTraits,
  options: { stream?: boolean } = {},
): GenerateContentRequest {
  return checkGenerateContentRequest(readGenerateContentRequest(body), traits, options);
}

/**
 * Reads a countTokens body into its canonical shape: exactly one of `contents` and
 * `generateContentRequest` (the other left out). Throws ApiError 400.
 */
export function readCountTokensRequest(body: unknown): CountTokensRequest {
  const request = runSchema(countTokensRequestSchema, body ?? {}, {
    requestName: "CountTokensRequest",
  });
  const hasContents = (request.contents?.length ?? 0) > 0;
  const inner = request.generateContentRequest;
  if (!hasContents && !inner) {
    throw ApiError.invalidArgument(
      "CountTokens requires generate_content_request or contents to be set.",
      [{ field: "contents", description: "set contents or generate_content_request." }],
    );
  }
  if (hasContents && inner) {
    throw ApiError.invalidArgument(
      "contents and generate_content_request are mutually exclusive: send either contents or generate_content_request, not both.",
      [
        {
          field: "generate_content_request",
          description: "contents and generate_content_request are mutually exclusive.",
        },
      ],
    );
  }
  return inner ? { generateContentRequest: inner } : { contents: request.contents ?? [] };
}

/**
 * The rules of a canonical countTokens request: the inner request follows the
 * generateContent rules and its `model`, when given, must be `models/...`. Throws ApiError 400.
 */
export function checkCountTokensRequest(
  request: CountTokensRequest,
  traits: ModelTraits,
): CountTokensRequest {
  return runSteps(checkCountTokensRequestSteps(request, traits));
}

/** checkCountTokensRequest one part or schema node at a time (see Steps). */
export function* checkCountTokensRequestSteps(
  request: CountTokensRequest,
  traits: ModelTraits,
): Steps<CountTokensRequest> {
  const refusal = request.generateContentRequest
    ? yield* capabilityRefusalSteps(request.generateContentRequest, traits, {
        modalitiesRequired: false,
      })
    : yield* externalUriRefusal(request.contents ?? [], traits);
  if (refusal) throw refusal;
  const violations = new Violations();
  const inner = request.generateContentRequest;
  if (inner)
    yield* checkGenerateContentRules(inner, traits, "generate_content_request", violations, {
      modalitiesRequired: false,
    });
  else yield* checkContentsSteps(request.contents ?? [], "contents", violations, true);
  if (!violations.empty) throw violationError("CountTokensRequest", violations.list);
  return request;
}

/** readCountTokensRequest, then checkCountTokensRequest. */
export function parseCountTokensRequest(body: unknown, traits: ModelTraits): CountTokensRequest {
  return checkCountTokensRequest(readCountTokensRequest(body), traits);
}

/** countTokens' bare contents: only the file URI rule of the capability checks concerns them. */
function externalUriRefusal(
  contents: readonly Content[],
  traits: ModelTraits,
): Steps<ApiError | undefined> {
  return capabilityRefusalSteps({ contents: [...contents] }, traits, { modalitiesRequired: false });
}

/**
 * Inline validation for the studio's settings form: the same shape checks and rules as the
 * server applies to `generationConfig`, as a list of violations with `generation_config.*`
 * field paths. Never throws; an empty list means the server will accept the config.
 */
export function validateGenerationConfigFields(
  config: unknown,
  traits: ModelTraits,
): FieldViolation[] {
  try {
    const result = generationConfigSchema.safeParse(config ?? {});
    if (!result.success) {
      const problems = wireProblems(result.error, ["generationConfig"]);
      return [...problems.payload, ...problems.required];
    }
    const violations = new Violations();
    checkGenerationConfig(result.data, traits, "generation_config", violations, {
      modalitiesRequired: true,
    });
    return violations.list;
  } catch (error) {
    return [
      {
        field: "generation_config",
        description: error instanceof Error ? error.message : String(error),
      },
    ];
  }
}

/**
 * Inline validation of the studio's tools form: the wire shape and the rules the server applies
 * to `tools` and `toolConfig` (function names, their parameters' schemas, the calling mode and
 * allowed function names), with `tools[…]` and `tool_config.*` field paths. Never throws.
 */
export function validateToolFields(tools: unknown, toolConfig: unknown): FieldViolation[] {
  try {
    const parsedTools = repeated(toolSchema).safeParse(tools ?? []);
    const parsedConfig = toolConfigSchema.safeParse(toolConfig ?? {});
    const problems: FieldViolation[] = [];
    for (const [result, root] of [
      [parsedTools, ["tools"]],
      [parsedConfig, ["toolConfig"]],
    ] as const) {
      if (result.success) continue;
      const found = wireProblems(result.error, root);
      problems.push(...found.payload, ...found.required);
    }
    if (!parsedTools.success || !parsedConfig.success) return problems;
    const violations = new Violations();
    checkTools(parsedTools.data, "tools", violations);
    checkToolConfig(parsedConfig.data, parsedTools.data, "tool_config", violations);
    return violations.list;
  } catch (error) {
    return [
      { field: "tools", description: error instanceof Error ? error.message : String(error) },
    ];
  }
}
