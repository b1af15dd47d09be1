/**
 * Reading a batch: the `batchGenerateContent` body and each line of a JSONL input file, into
 * their canonical forms. Each inline request's shape is read here; its rules are checked when
 * it runs (lib/gemini/validate.ts), so a bad request fails only itself.
 */
import type { z } from "zod";
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
  checkBatchEnvelope(request.batch, requestName);
  return request;
}

/** What every batch create carries around its requests (a generation or an embedding batch). */
interface BatchEnvelope {
  model?: string;
  displayName?: string;
  inputConfig: { fileName?: string; requests?: { requests?: unknown[] } };
}

/**
 * The rules of a batch's envelope, shared by generation and embedding batches: the model's
 * name, the display name's length, one input source (a JSONL file of the caller's or inline
 * requests, at least one). An inline list the wire left out becomes empty. Throws the service's
 * 400 naming each field.
 */
export function checkBatchEnvelope(batch: BatchEnvelope, requestName: string): void {
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
  if (input.requests !== undefined && input.requests.requests?.length === 0) {
    violations.add(
      "batch.input_config.requests.requests",
      "requests must not be empty: a batch needs at least one request.",
    );
  }
  if (!violations.empty) throw violationError(requestName, violations.list);
}

/** One line of a generation batch's input: the request, and the caller's key (or metadata) to label its result. */
export type BatchInputLine = InputLine<GenerateContentRequest>;

/** One line of a JSONL input file, keyed or bare, of any batch's request type. */
export interface InputLine<Request> {
  key?: string;
  metadata?: Record<string, unknown>;
  request: Request;
}

/** One line of a JSONL input file as JSON. Throws the service's 400 for text that is not JSON. */
export function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : "malformed JSON";
    throw ApiError.invalidArgument(`Invalid JSON payload received. ${detail}`);
  }
}

/**
 * Reads a line of a JSONL input already parsed as JSON: `{"key": "...", "request": {...}}` (the
 * guide's form, read with `keyedSchema`) or a bare request (the guide's REST example, read with
 * `readBare`). Shape only; the rules are checked when the request runs.
 */
export function readInputLine<Request>(
  value: unknown,
  readBare: (value: unknown) => Request,
  keyedSchema: z.ZodType<InputLine<Request>, unknown>,
  keyedName: string,
): InputLine<Request> {
  const keyed =
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.prototype.hasOwnProperty.call(value, "request");
  if (!keyed) return { request: readBare(value) };
  const parsed = runSchema(keyedSchema, value, { requestName: keyedName });
  return {
    ...(parsed.key !== undefined ? { key: parsed.key } : {}),
    ...(parsed.metadata !== undefined ? { metadata: parsed.metadata } : {}),
    request: parsed.request,
  };
}

/** A line of a generation batch's input already parsed as JSON. Throws ApiError 400. */
export function readBatchInputLine(value: unknown): BatchInputLine {
  return readInputLine(
    value,
    (bare) =>
      runSchema(generateContentRequestSchema, bare, { requestName: "GenerateContentRequest" }),
    batchInputLineSchema,
    "BatchInputLine",
  );
}

/** Parses one line of a generation batch's JSONL input. Throws ApiError 400. */
export function parseBatchInputLine(line: string): BatchInputLine {
  return readBatchInputLine(parseJsonLine(line));
}
