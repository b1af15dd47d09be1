import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { drainStream } from "@/lib/runtime/drain-stream";

/**
 * The resumable upload protocol's headers. The spec spells them `X-Svc-Upload-*`; the real
 * service and its official SDK `X-Goog-Upload-*`. Both are read (they must agree when both
 * are sent) and every answer carries both spellings.
 */

const PREFIXES = ["x-goog-upload-", "x-svc-upload-"] as const;
const ANSWER_PREFIXES = ["X-Goog-Upload-", "X-Svc-Upload-"] as const;

export type UploadCommand = "start" | "upload" | "finalize" | "query" | "cancel";
const COMMANDS = new Set<UploadCommand>(["start", "upload", "finalize", "query", "cancel"]);

/** `X-*-Upload-{name}` in either spelling; 400 when both spellings are sent and differ. */
export function readUploadHeader(headers: Headers, name: string): string | undefined {
  const values = PREFIXES.map((prefix) => headers.get(`${prefix}${name}`)).filter(
    (value): value is string => value !== null,
  );
  if (values.length === 2 && values[0]!.trim() !== values[1]!.trim()) {
    throw ApiError.invalidArgument(
      `X-Goog-Upload-${name} and X-Svc-Upload-${name} disagree ("${values[0]!.slice(0, 60)}" vs "${values[1]!.slice(0, 60)}"); send one of them.`,
      [{ field: `X-Goog-Upload-${name}`, description: "disagrees with the X-Svc- spelling" }],
    );
  }
  return values[0]?.trim();
}

/** The commands of `X-*-Upload-Command` (`upload, finalize` is two); 400 for anything unknown. */
export function readUploadCommands(headers: Headers): Set<UploadCommand> {
  const raw = readUploadHeader(headers, "Command");
  if (raw === undefined || raw === "") {
    throw ApiError.invalidArgument(
      'X-Goog-Upload-Command (or X-Svc-Upload-Command) is required: start, upload, "upload, finalize", query or cancel.',
      [{ field: "X-Goog-Upload-Command", description: "is required" }],
    );
  }
  const commands = new Set<UploadCommand>();
  for (const part of raw.split(",")) {
    const command = part.trim().toLowerCase();
    if (!COMMANDS.has(command as UploadCommand)) {
      throw ApiError.invalidArgument(
        `X-Goog-Upload-Command "${raw.slice(0, 60)}" is not understood: use start, upload, "upload, finalize", finalize, query or cancel.`,
        [
          {
            field: "X-Goog-Upload-Command",
            description: `unknown command "${command.slice(0, 30)}"`,
          },
        ],
      );
    }
    commands.add(command as UploadCommand);
  }
  const exclusive = ["start", "query", "cancel"].filter((command) =>
    commands.has(command as UploadCommand),
  );
  if (exclusive.length > 0 && commands.size > 1) {
    throw ApiError.invalidArgument(
      `X-Goog-Upload-Command "${raw.slice(0, 60)}" combines ${exclusive[0]} with other commands; send it alone.`,
      [
        {
          field: "X-Goog-Upload-Command",
          description: "start, query and cancel must be sent alone",
        },
      ],
    );
  }
  return commands;
}

/** A non-negative decimal byte count from a header, or undefined when absent; 400 when malformed. */
export function readByteCount(
  value: string | null | undefined,
  header: string,
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw ApiError.invalidArgument(
      `${header} must be a whole number of bytes; got "${text.slice(0, 40)}".`,
      [{ field: header, description: "must be a whole number of bytes" }],
    );
  }
  return Number(text);
}

/** `X-*-Upload-Offset` as a number, or undefined when absent. */
export function readUploadOffset(headers: Headers): number | undefined {
  return readByteCount(readUploadHeader(headers, "Offset"), "X-Goog-Upload-Offset");
}

export interface UploadAnswer {
  status: "active" | "final" | "cancelled";
  url?: string;
  chunkGranularity?: number;
  sizeReceived?: number;
}

/** The type of the body that finalizing will answer (the File as JSON), announced at start. */
export const FINAL_ANSWER_TYPE = "application/json; charset=UTF-8";

/**
 * Response headers of an upload answer, in both spellings. A start answer (one with the
 * session URL) carries what the service's does (recorded): the URL twice, as `URL` and
 * `Control-URL`, the chunk granularity, and the type of the final answer's body as
 * `Header-Content-Type`.
 */
export function uploadAnswerHeaders(answer: UploadAnswer): Headers {
  const headers = new Headers();
  for (const prefix of ANSWER_PREFIXES) {
    headers.set(`${prefix}Status`, answer.status);
    if (answer.url !== undefined) {
      headers.set(`${prefix}URL`, answer.url);
      headers.set(`${prefix}Control-URL`, answer.url);
      headers.set(`${prefix}Header-Content-Type`, FINAL_ANSWER_TYPE);
    }
    if (answer.chunkGranularity !== undefined)
      headers.set(`${prefix}Chunk-Granularity`, String(answer.chunkGranularity));
    if (answer.sizeReceived !== undefined)
      headers.set(`${prefix}Size-Received`, String(answer.sizeReceived));
  }
  return headers;
}

const HOST_PATTERN = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * `scheme://host[:port]` as the client addressed this server: the Host header (or the
 * proxy's X-Forwarded-Host/-Proto), since Next's `request.url` carries its own bind name.
 * Anything that is not a plain host falls back to `request.url`'s.
 */
export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = (request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? "")
    .split(",")[0]!
    .trim();
  const forwardedProto = request.headers
    .get("x-forwarded-proto")
    ?.split(",")[0]
    ?.trim()
    .toLowerCase();
  const protocol =
    forwardedProto === "https" || forwardedProto === "http" ? `${forwardedProto}:` : url.protocol;
  return HOST_PATTERN.test(host) ? `${protocol}//${host}` : url.origin;
}

/** The absolute URL of an upload session, under the same upload path the start used. */
export function uploadSessionUrl(request: Request, uploadId: string): string {
  const url = new URL(request.url);
  return `${requestOrigin(request)}${url.pathname}?upload_id=${encodeURIComponent(uploadId)}&upload_protocol=resumable`;
}

/**
 * Reads and drops what is left of a request body (up to `limit` bytes) so an error answered
 * mid-upload reaches a client that is still sending, instead of a reset connection.
 */
export async function discardUnreadBody(request: Request, limit = 64 * 1024 * 1024): Promise<void> {
  const body = request.body;
  if (!body || body.locked) return;
  await drainStream(body.getReader(), limit);
}
