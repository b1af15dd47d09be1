/**
 * Reading a batch: the `batchGenerateContent` body and each line of a JSONL input file, into
 * their canonical forms. Each inline request's shape is read here; its rules are checked when
 * it runs (lib/gemini/validate.ts), so a bad request fails only itself.
 */
import { ApiError } from "./api-error";
import { batchCreateSchema, batchInputLineSchema } from "./schemas/batch";
import { generateContentRequestSchema } from "./schemas/requests";
import { Violations, codePointLength, violationError } from "./schemas/rules/violations";
import type { BatchGenerateContentRequest, GenerateContentRequest } from "./types";
import { checkModelName, runSchema } from "./validate";

/** A file a batch may read its input from (ids the engine or the service made: up to 63 characters). */
export const BATCH_INPUT_FILE_PATTERN = /^files\/[a-z0-9][a-z0-9-]{0,62}$/;
/** Longest batch displayName, in characters (our bound; the service documents none). */
export const MAX_BATCH_DISPLAY_NAME_CHARACTERS = 512;

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
  return readBatchInputLine(value);
}

/** parseBatchInputLine for a line already parsed as JSON. */
export function readBatchInputLine(value: unknown): BatchInputLine {
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
