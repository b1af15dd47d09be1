import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { UploadStatus } from "@/lib/gemini/backend/contract";
import { readJsonBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";
import {
  CHUNK_GRANULARITY,
  discardUnreadBody,
  readByteCount,
  readUploadCommands,
  readUploadHeader,
  readUploadOffset,
  requestOrigin,
  uploadAnswerHeaders,
  uploadSessionUrl,
} from "../http/upload-protocol";

/** Largest start body: `{"file": {...}}` metadata only. */
const START_BODY_LIMIT = 64 * 1024;

function emptyAnswer(headers: Headers): Response {
  headers.set("Cache-Control", "private, no-store");
  return new Response(null, { status: 200, headers });
}

function statusAnswer(status: UploadStatus): Response {
  const headers = uploadAnswerHeaders({ status: status.status, sizeReceived: status.sizeReceived });
  return status.file ? jsonResponse({ file: status.file }, { headers }) : emptyAnswer(headers);
}

async function startUpload(context: RequestContext): Promise<Response> {
  const { request } = context;
  if (request.method !== "POST") {
    throw ApiError.invalidArgument(
      "An upload starts with POST; PUT is for the upload session URL (with upload_id).",
      [{ field: "upload_id", description: "is required with PUT" }],
    );
  }
  const commands = readUploadCommands(request.headers);
  if (!commands.has("start")) {
    throw ApiError.invalidArgument(
      "Without upload_id the only command is start: send X-Goog-Upload-Command: start to open an upload session.",
      [{ field: "upload_id", description: "is required for upload, finalize, query and cancel" }],
    );
  }
  const protocol = readUploadHeader(request.headers, "Protocol");
  if (protocol?.toLowerCase() !== "resumable") {
    throw ApiError.invalidArgument(
      `Only the resumable upload protocol is supported: send X-Goog-Upload-Protocol: resumable${protocol ? ` (got "${protocol.slice(0, 40)}")` : ""}.`,
      [{ field: "X-Goog-Upload-Protocol", description: "must be resumable" }],
    );
  }
  const body = await readJsonBody(request, START_BODY_LIMIT);
  const contentLength = readUploadHeader(request.headers, "Header-Content-Length");
  const contentType = readUploadHeader(request.headers, "Header-Content-Type");
  const { uploadId } = await context.backend.startUpload(
    {
      ...(contentLength !== undefined ? { contentLength } : {}),
      ...(contentType !== undefined ? { contentType } : {}),
      body,
    },
    context,
  );
  return emptyAnswer(
    uploadAnswerHeaders({
      status: "active",
      url: uploadSessionUrl(request, uploadId),
      chunkGranularity: CHUNK_GRANULARITY,
    }),
  );
}

async function sessionRequest(context: RequestContext, uploadId: string): Promise<Response> {
  const { request, backend } = context;
  const operation = { ...context, origin: requestOrigin(request) };
  try {
    const commands = readUploadCommands(request.headers);
    if (commands.has("start")) {
      throw ApiError.invalidArgument(
        "This URL is an upload session; start a new upload at the upload URL without upload_id.",
        [{ field: "X-Goog-Upload-Command", description: "start is not allowed on a session URL" }],
      );
    }
    if (commands.has("query")) return statusAnswer(await backend.queryUpload(uploadId, operation));
    if (commands.has("cancel"))
      return statusAnswer(await backend.cancelUpload(uploadId, operation));
    const offset = readUploadOffset(request.headers);
    const contentLength = readByteCount(request.headers.get("content-length"), "Content-Length");
    const status = await backend.uploadChunk(
      uploadId,
      {
        upload: commands.has("upload"),
        finalize: commands.has("finalize"),
        ...(offset !== undefined ? { offset } : {}),
        ...(contentLength !== undefined ? { contentLength } : {}),
        body: commands.has("upload") ? request.body : null,
      },
      operation,
    );
    return statusAnswer(status);
  } catch (error) {
    await discardUnreadBody(request);
    throw error;
  }
}

/**
 * `POST /upload/v1beta/files` (and `/upload/v1`): without `upload_id` it starts a resumable
 * upload; with it (POST or PUT) it is the session URL taking chunks, query and cancel.
 */
export async function uploadHandler(context: RequestContext): Promise<Response> {
  const uploadId = context.url.searchParams.get("upload_id");
  if (uploadId === null) return startUpload(context);
  return sessionRequest(context, uploadId);
}
