/**
 * Request validation: every rule of the spec in one module that the local engine, the
 * gateway and the studio's pages share (browser-safe: zod and lib/gemini only). Each entry
 * point reads a raw JSON body (camelCase, snake_case or both), throws ApiError 400 with the
 * service's messages, and returns the normalised camelCase request of lib/gemini/types.
 * Model-specific limits come from ModelTraits; checks that need stored state (cache and file
 * ownership, token counts, minimum cache size, an expireTime already past) are the engine's.
 * Where the spec is silent we follow the service's JSON reader: any repeated field takes a
 * single instance, numbers may come as strings, null means unset. Our own bounds: cache ttl
 * at most 3650 days, candidateCount at most 8, penalties in [-2, 2).
 */
import type { z } from "zod";
import { ApiError, type FieldViolation } from "./api-error";
import type { ModelTraits } from "./model-traits";
import { MAX_CACHE_TTL_SECONDS, MAX_DISPLAY_NAME_CHARACTERS } from "./schemas/constants";
import { generationConfigSchema } from "./schemas/generation-config";
import { wirePath, wireProblems } from "./schemas/issues";
import { batchCreateSchema, batchInputLineSchema } from "./schemas/batch";
import {
  cachedContentCreateSchema,
  cachedContentUpdateSchema,
  countTokensRequestSchema,
  generateContentRequestSchema,
  uploadStartSchema,
} from "./schemas/requests";
import {
  checkContents,
  checkContentsSteps,
  checkSystemInstructionSteps,
} from "./schemas/rules/content-rules";
import {
  checkGenerationConfig,
  checkGenerationConfigSteps,
  type GenerationConfigRuleOptions,
} from "./schemas/rules/generation-config-rules";
import { capabilityRefusalSteps } from "./schemas/rules/model-capability-rules";
import { checkToolConfigSteps, checkToolsSteps } from "./schemas/rules/tool-rules";
import { Violations, codePointLength, fieldPath, violationError } from "./schemas/rules/violations";
import { runSteps, type Steps } from "./steps";
import { camelToSnake } from "./schemas/wire";
import type {
  BatchGenerateContentRequest,
  CachedContentCreate,
  CachedContentUpdate,
  Content,
  CountTokensRequest,
  GenerateContentRequest,
  SafetySetting,
  Tool,
  ToolConfig,
} from "./types";
import { SUPPORTED_HARM_CATEGORIES } from "./types";
import { durationProblem, timestampProblem } from "./wire-time";

export type { FieldViolation } from "./api-error";

/** Deepest JSON nesting a body may have (the service's proto readers stop at 100 too). */
export const MAX_NESTING_DEPTH = 100;

export const MODEL_NAME_PATTERN = /^models\/[^/\s]+$/;
/** A model id the service recognises as one (`gemini-2.5-flash`, `gemma-3-1b-it`, ...). */
const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const CACHED_CONTENT_NAME_PATTERN = /^cachedContents\/[a-z0-9-]+$/;
export const FILE_NAME_PATTERN = /^files\/[a-z0-9-]{1,40}$/;
/** A file a batch may read its input from (ids the engine or the service made: up to 63 characters). */
export const BATCH_INPUT_FILE_PATTERN = /^files\/[a-z0-9][a-z0-9-]{0,62}$/;
/** Longest batch displayName, in characters (our bound; the service documents none). */
export const MAX_BATCH_DISPLAY_NAME_CHARACTERS = 512;
/** Longest File displayName, in characters (the service's limit). */
export const MAX_FILE_DISPLAY_NAME_CHARACTERS = 512;

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
function runSchema<Output>(
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

function checkModelName(model: string | undefined, path: string, violations: Violations): void {
  if (model === undefined) return;
  if (!MODEL_NAME_PATTERN.test(model))
    violations.add(path, `model must be of the form models/{model}; got ${JSON.stringify(model)}.`);
}

/** The rules shared by a cache body and a generate request: system instruction, tools, tool config. */
function* checkContext(
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
  yield* checkContext(request, base, violations);
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
  const refusal = yield* capabilityRefusalSteps(request, traits, {
    stream: options.stream,
    modalitiesRequired: true,
  });
  if (refusal) throw refusal;
  const violations = new Violations();
  yield* checkGenerateContentRules(request, traits, "", violations, { modalitiesRequired: true });
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
 * Reads a `models/{m}:batchGenerateContent` body into its canonical form (the batch under
 * `batch`, output-only fields dropped). The wire shape of every inline request is checked
 * here: an unknown field is the whole create's 400, as a body the service cannot read; each
 * request's rules are checked when it runs and fail only that request. `batch.model`, when
 * the body repeats it, must be `models/...` (the engine compares it with the path). Throws
 * ApiError 400.
 */
export function readBatchGenerateContentRequest(body: unknown): BatchGenerateContentRequest {
  const requestName = "BatchGenerateContentRequest";
  const request = runSchema(batchCreateSchema, body ?? {}, { requestName });
  const { batch } = request;
  const violations = new Violations();
  checkModelName(batch.model, "batch.model", violations);
  if (
    batch.displayName !== undefined &&
    codePointLength(batch.displayName) > MAX_BATCH_DISPLAY_NAME_CHARACTERS
  ) {
    violations.add(
      "batch.display_name",
      `display_name must be at most ${MAX_BATCH_DISPLAY_NAME_CHARACTERS} characters; got ${codePointLength(batch.displayName)}.`,
    );
  }
  const input = batch.inputConfig;
  if (input.requests) input.requests = { requests: input.requests.requests ?? [] };
  if (input.fileName === undefined && input.requests === undefined) {
    violations.add(
      "batch.input_config",
      "input_config must set file_name (an uploaded JSONL file) or requests (inline requests).",
    );
  }
  if (input.fileName !== undefined && !BATCH_INPUT_FILE_PATTERN.test(input.fileName)) {
    violations.add(
      "batch.input_config.file_name",
      `file_name must be files/{id}; got ${JSON.stringify(input.fileName.slice(0, 80))}.`,
    );
  }
  if (input.requests !== undefined && input.requests.requests.length === 0) {
    violations.add(
      "batch.input_config.requests.requests",
      "requests must not be empty: a batch needs at least one request.",
    );
  }
  if (!violations.empty) throw violationError(requestName, violations.list);
  return request;
}

/** One line of a JSONL batch input: the request, and the caller's key (or metadata) to label its result. */
export interface BatchInputLine {
  key?: string;
  metadata?: Record<string, unknown>;
  request: GenerateContentRequest;
}

/**
 * Parses one line of a JSONL batch input: `{"key": "...", "request": {...}}` (the guide's
 * form) or a bare GenerateContentRequest (the guide's REST example). Shape only; the rules
 * are checked when the request runs. Throws ApiError 400 with the service's messages.
 */
export function parseBatchInputLine(line: string): BatchInputLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : "malformed JSON";
    throw ApiError.invalidArgument(`Invalid JSON payload received. ${detail}`);
  }
  const keyed =
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.prototype.hasOwnProperty.call(value, "request");
  if (!keyed)
    return {
      request: runSchema(generateContentRequestSchema, value, {
        requestName: "GenerateContentRequest",
      }),
    };
  const parsed = runSchema(batchInputLineSchema, value, { requestName: "BatchInputLine" });
  return {
    ...(parsed.key !== undefined ? { key: parsed.key } : {}),
    ...(parsed.metadata !== undefined ? { metadata: parsed.metadata } : {}),
    request: parsed.request,
  };
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

function checkTtl(ttl: string, path: string, violations: Violations): void {
  const problem = durationProblem(ttl);
  if (problem) violations.add(path, `${problem}; got ${JSON.stringify(ttl)}.`);
  else if (ttl.startsWith("-"))
    violations.add(path, `ttl must not be negative; got ${JSON.stringify(ttl)}.`);
  else if (Number(ttl.slice(0, -1)) > MAX_CACHE_TTL_SECONDS) {
    violations.add(
      path,
      `ttl must be at most ${MAX_CACHE_TTL_SECONDS}s (3650 days); got ${JSON.stringify(ttl)}.`,
    );
  }
}

function checkExpireTime(expireTime: string, path: string, violations: Violations): void {
  const problem = timestampProblem(expireTime);
  if (problem) violations.add(path, `${problem}; got ${JSON.stringify(expireTime)}.`);
}

/**
 * Parses and validates a cachedContents create body (the CachedContent resource). Checks
 * that depend on the model (minimum size, context window) are left to the engine.
 * Throws ApiError 400.
 */
export function parseCachedContentCreate(body: unknown): CachedContentCreate {
  const requestName = "CreateCachedContentRequest";
  const cache = runSchema(cachedContentCreateSchema, body ?? {}, {
    requestName,
    root: ["cachedContent"],
  });
  const violations = new Violations();
  if (cache.model === "")
    violations.add("cached_content.model", "cached_content.model is required.");
  else checkModelName(cache.model, "cached_content.model", violations);
  if (
    cache.displayName !== undefined &&
    codePointLength(cache.displayName) > MAX_DISPLAY_NAME_CHARACTERS
  ) {
    violations.add(
      "cached_content.display_name",
      `display_name must be at most ${MAX_DISPLAY_NAME_CHARACTERS} characters; got ${codePointLength(cache.displayName)}.`,
    );
  }
  if (cache.ttl !== undefined && cache.expireTime !== undefined) {
    violations.add(
      "cached_content.ttl",
      "ttl and expire_time are mutually exclusive; set only one of them.",
    );
  }
  if (cache.ttl !== undefined) checkTtl(cache.ttl, "cached_content.ttl", violations);
  if (cache.expireTime !== undefined)
    checkExpireTime(cache.expireTime, "cached_content.expire_time", violations);
  if (cache.contents) checkContents(cache.contents, "cached_content.contents", violations, false);
  runSteps(checkContext(cache, "cached_content", violations));
  if (!violations.empty) throw violationError(requestName, violations.list);
  return cache;
}

const UPDATABLE_FIELDS: Record<string, "ttl" | "expireTime"> = {
  ttl: "ttl",
  expire_time: "expireTime",
  expireTime: "expireTime",
};
/** Output-only fields a client may echo back from a GET; read and ignored. */
const IGNORED_UPDATE_FIELDS = new Set(["name", "createTime", "updateTime", "usageMetadata"]);

/**
 * Parses and validates a cachedContents PATCH body. Only the expiration can change: `ttl` or
 * `expireTime`, one of them. `updateMask` (the query parameter, comma-separated; null when
 * absent) may name `ttl` and `expire_time`/`expireTime` only. A `model` is kept (as
 * `models/{id}`) for the backend to compare with the cache's own: the service accepts one
 * that repeats it (recorded: clients send the model back with a new ttl). Throws ApiError 400.
 */
export function parseCachedContentUpdate(
  body: unknown,
  updateMask: string | null,
): CachedContentUpdate {
  const requestName = "UpdateCachedContentRequest";
  const update = runSchema(cachedContentUpdateSchema, body ?? {}, {
    requestName,
    root: ["cachedContent"],
  });
  const violations = new Violations();
  for (const [key, value] of Object.entries(update)) {
    if (
      value === undefined ||
      key === "ttl" ||
      key === "expireTime" ||
      IGNORED_UPDATE_FIELDS.has(key) ||
      (key === "model" && typeof value === "string" && value !== "")
    )
      continue;
    violations.add(
      `cached_content.${camelToSnake(key)}`,
      `${camelToSnake(key)} cannot be updated; only ttl or expire_time can be updated.`,
    );
  }
  let fields: ("ttl" | "expireTime")[] = [];
  const maskPaths = (updateMask ?? "")
    .split(",")
    .map((path) => path.trim())
    .filter(Boolean);
  if (maskPaths.length) {
    for (const path of maskPaths) {
      const field = UPDATABLE_FIELDS[path];
      if (field === undefined)
        violations.add(
          "update_mask",
          `"${path}" cannot be updated; update_mask may name only ttl or expire_time.`,
        );
      else if (!fields.includes(field)) fields.push(field);
    }
    for (const field of fields) {
      if (update[field] === undefined) {
        violations.add(
          `cached_content.${camelToSnake(field)}`,
          `update_mask names ${camelToSnake(field)} but the body does not set it.`,
        );
      }
    }
  } else {
    fields = (["ttl", "expireTime"] as const).filter((field) => update[field] !== undefined);
    if (fields.length === 0)
      violations.add(
        "cached_content",
        "set ttl or expire_time: only the expiration of a cached content can be updated.",
      );
  }
  if (fields.length > 1)
    violations.add(
      "cached_content.ttl",
      "ttl and expire_time are mutually exclusive; set only one of them.",
    );
  const result: CachedContentUpdate = {};
  if (typeof update.model === "string" && update.model !== "")
    result.model = update.model.startsWith("models/") ? update.model : `models/${update.model}`;
  if (fields.includes("ttl") && update.ttl !== undefined) {
    checkTtl(update.ttl, "cached_content.ttl", violations);
    result.ttl = update.ttl;
  }
  if (fields.includes("expireTime") && update.expireTime !== undefined) {
    checkExpireTime(update.expireTime, "cached_content.expire_time", violations);
    result.expireTime = update.expireTime;
  }
  if (!violations.empty) throw violationError(requestName, violations.list);
  return result;
}

/**
 * A file's MIME type as stored: the batch guide's own examples upload their JSONL input as
 * the bare "jsonl" (header and body alike), stored as application/jsonl (unsure: the service
 * may keep the shorthand). Anything else is returned as given.
 */
export function canonicalMimeType(mimeType: string): string {
  return mimeType.trim().toLowerCase() === "jsonl" ? "application/jsonl" : mimeType;
}

/** What the upload start body may choose for the new File. */
export interface UploadStart {
  displayName?: string;
  mimeType?: string;
  /** `files/{id}` when the caller picks the id. */
  name?: string;
}

/**
 * Parses the resumable upload's start body `{"file": {...}}` (display_name or displayName,
 * mimeType, name; other File fields are read and ignored). A missing or empty body is `{}`.
 * Throws ApiError 400.
 */
export function parseUploadStartBody(body: unknown): UploadStart {
  const requestName = "CreateFileRequest";
  const request = runSchema(
    uploadStartSchema,
    body === undefined || body === null || body === "" ? {} : body,
    { requestName },
  );
  const file = request.file ?? {};
  const violations = new Violations();
  if (file.name !== undefined && file.name !== "" && !FILE_NAME_PATTERN.test(file.name)) {
    violations.add(
      "file.name",
      `name must be files/{id} where id has 1 to 40 lowercase letters, digits or dashes; got ${JSON.stringify(file.name)}.`,
    );
  }
  if (
    file.displayName !== undefined &&
    codePointLength(file.displayName) > MAX_FILE_DISPLAY_NAME_CHARACTERS
  ) {
    violations.add(
      "file.display_name",
      `display_name must be at most ${MAX_FILE_DISPLAY_NAME_CHARACTERS} characters; got ${codePointLength(file.displayName)}.`,
    );
  }
  if (
    file.mimeType !== undefined &&
    file.mimeType !== "" &&
    canonicalMimeType(file.mimeType) === file.mimeType &&
    !/^[\w.+-]+\/[\w.+-]+(?:\s*;.*)?$/.test(file.mimeType)
  ) {
    violations.add(
      "file.mime_type",
      `mime_type must look like type/subtype; got ${JSON.stringify(file.mimeType)}.`,
    );
  }
  if (!violations.empty) throw violationError(requestName, violations.list);
  const result: UploadStart = {};
  if (file.displayName) result.displayName = file.displayName;
  if (file.mimeType) result.mimeType = canonicalMimeType(file.mimeType);
  if (file.name) result.name = file.name;
  return result;
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
