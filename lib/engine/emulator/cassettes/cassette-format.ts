/**
 * Cassettes: recorded exchanges in the format of the shared conformance recordings
 * (`recorded-exchanges/README.md`: one JSON object a line with method, path, query, request
 * headers and body, status, response headers and the response body as received, SSE framing
 * byte for byte), plus two fields of ours that the format leaves out: `cassetteVersion` (1;
 * absent in the shared recordings, which are version 1) and `responseTiming` (when the
 * response's header and each piece of its body arrived, so a stream replays at its pace).
 * Reading checks every line: a problem is a 400 naming the line and the field.
 */
import { createHash } from "node:crypto";
import { ApiError } from "@/lib/gemini/api-error";

export const CASSETTE_VERSION = 1;

export interface ResponseTiming {
  /** Milliseconds from the request sent to the response's headers. */
  headersMs: number;
  /** Each piece of the body as it arrived: [milliseconds from the request sent, bytes]. */
  chunks: Array<[number, number]>;
}

export interface RecordedExchange {
  id?: string;
  group?: string;
  operation?: string;
  method: string;
  path: string;
  query: Record<string, string>;
  requestHeaders: Record<string, string>;
  requestBodyEncoding: "json" | "base64" | "none";
  requestBody?: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  cassetteVersion?: number;
  responseTiming?: ResponseTiming;
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** A cassette's problem: the service's 400 naming the line and field. */
function badLine(cassette: string, line: number, field: string, problem: string): ApiError {
  const where = `${cassette}, line ${line}`;
  return ApiError.invalidArgument(`The cassette is not valid: ${where}: ${field}: ${problem}.`, [
    { field: `line ${line}: ${field}`, description: problem },
  ]);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === "string")
  );
}

/** Reads a cassette's JSON lines (blank lines skipped); the first problem is thrown. */
export function readCassette(text: string, cassette: string): RecordedExchange[] {
  const exchanges: RecordedExchange[] = [];
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw badLine(cassette, line, "(line)", "is not JSON");
    }
    exchanges.push(
      checkExchange(value, (field, problem) => badLine(cassette, line, field, problem)),
    );
  }
  if (exchanges.length === 0)
    throw ApiError.invalidArgument(`The cassette is not valid: ${cassette} holds no exchange.`, [
      { field: "(body)", description: "holds no exchange" },
    ]);
  return exchanges;
}

function checkExchange(
  value: unknown,
  fail: (field: string, problem: string) => ApiError,
): RecordedExchange {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw fail("(line)", "is not a JSON object");
  const record = value as Record<string, unknown>;
  const version = record.cassetteVersion;
  if (version !== undefined && version !== CASSETTE_VERSION)
    throw fail(
      "cassetteVersion",
      `${JSON.stringify(version)} is not a version this studio reads (it reads ${CASSETTE_VERSION})`,
    );
  if (typeof record.method !== "string" || !METHODS.has(record.method))
    throw fail("method", "is not one of GET, POST, PUT, PATCH, DELETE");
  if (typeof record.path !== "string" || !record.path.startsWith("/"))
    throw fail("path", "is not a path starting with /");
  if (record.query !== undefined && !isStringRecord(record.query))
    throw fail("query", "is not an object of strings");
  if (record.requestHeaders !== undefined && !isStringRecord(record.requestHeaders))
    throw fail("requestHeaders", "is not an object of strings");
  const encoding = record.requestBodyEncoding ?? "none";
  if (encoding !== "json" && encoding !== "base64" && encoding !== "none")
    throw fail("requestBodyEncoding", "is not json, base64 or none");
  if (encoding === "base64" && typeof record.requestBody !== "string")
    throw fail("requestBody", "is not a base64 string");
  if (
    typeof record.status !== "number" ||
    !Number.isInteger(record.status) ||
    record.status < 100 ||
    record.status > 599
  )
    throw fail("status", "is not an HTTP status");
  if (record.responseHeaders !== undefined && !isStringRecord(record.responseHeaders))
    throw fail("responseHeaders", "is not an object of strings");
  if (typeof record.responseBody !== "string") throw fail("responseBody", "is not a string");
  const timing = record.responseTiming;
  if (timing !== undefined && !isTiming(timing))
    throw fail(
      "responseTiming",
      "is not { headersMs, chunks: [[ms, bytes], ...] } of the body's bytes",
    );
  if (timing !== undefined) {
    const total = (timing as ResponseTiming).chunks.reduce((sum, [, bytes]) => sum + bytes, 0);
    if (total !== Buffer.byteLength(record.responseBody))
      throw fail("responseTiming", "counts other bytes than the responseBody has");
  }
  return {
    ...(typeof record.id === "string" ? { id: record.id } : {}),
    ...(typeof record.group === "string" ? { group: record.group } : {}),
    ...(typeof record.operation === "string" ? { operation: record.operation } : {}),
    method: record.method,
    path: record.path,
    query: (record.query as Record<string, string> | undefined) ?? {},
    requestHeaders: (record.requestHeaders as Record<string, string> | undefined) ?? {},
    requestBodyEncoding: encoding,
    ...(record.requestBody !== undefined ? { requestBody: record.requestBody } : {}),
    status: record.status,
    responseHeaders: (record.responseHeaders as Record<string, string> | undefined) ?? {},
    responseBody: record.responseBody,
    ...(timing !== undefined ? { responseTiming: timing as ResponseTiming } : {}),
  };
}

function isTiming(value: unknown): value is ResponseTiming {
  if (typeof value !== "object" || value === null) return false;
  const timing = value as Partial<ResponseTiming>;
  return (
    typeof timing.headersMs === "number" &&
    timing.headersMs >= 0 &&
    Array.isArray(timing.chunks) &&
    timing.chunks.every(
      (chunk) =>
        Array.isArray(chunk) &&
        chunk.length === 2 &&
        typeof chunk[0] === "number" &&
        chunk[0] >= 0 &&
        Number.isInteger(chunk[1]) &&
        chunk[1] >= 0,
    )
  );
}

/**
 * The folder of a caller's recordings under GENSTUDIO_RECORD and GENSTUDIO_REPLAY: its owner
 * id in safe characters and a short hash of it (`key-alice-3f2a9c1e`), so two owners never share one.
 */
export function ownerFolder(ownerId: string): string {
  const readable = ownerId
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .slice(0, 60);
  const hash = createHash("sha256").update(ownerId).digest("hex").slice(0, 8);
  return `${readable}-${hash}`;
}
