import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller, UploadStatus } from "@/lib/gemini/backend/contract";
import { canonicalMimeType, parseUploadStartBody } from "@/lib/gemini/validate-upload";
import { parseStoreUploadStart } from "@/lib/gemini/validate-file-search";
import { UPLOAD_CHUNK_GRANULARITY } from "@/lib/gemini/upload-chunks";
import { readJsonBody } from "../http/request-body";
import { jsonResponse, smallJsonResponse } from "../http/responses";
import { authenticateUpload as authenticateUploadSession } from "../auth/authenticate-upload";
import type { AuthenticateOptions } from "../auth/authenticate";
import { backend } from "../wiring/active-backend";
import type { RequestContext } from "./request-context";
import {
  discardMultipartBody,
  multipartBoundary,
  readMultipartUpload,
} from "../http/multipart-upload";
import {
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
  // The service types its empty upload answers as text (recorded: the start answer).
  headers.set("Content-Type", "text/plain; charset=utf-8");
  return new Response(null, { status: 200, headers });
}

/**
 * The answer to a session command. A query always says how many bytes the session holds (a
 * client resumes from it); the chunk that finalizes answers the File alone, as the service's
 * does (recorded: no size received beside it).
 */
function statusAnswer(status: UploadStatus, command: "query" | "cancel" | "chunk"): Response {
  const final = (status.file || status.operation) && command === "chunk";
  const sizeReceived = final ? {} : { sizeReceived: status.sizeReceived };
  const headers = uploadAnswerHeaders({ status: status.status, ...sizeReceived });
  // A store upload's final chunk answers the document's operation (recorded), a file upload's the File.
  if (status.operation) return smallJsonResponse(status.operation, { headers });
  return status.file ? smallJsonResponse({ file: status.file }, { headers }) : emptyAnswer(headers);
}

/** `X-Goog-Upload-Protocol: multipart`: metadata and bytes in one request, answered with the file. */
async function multipartUpload(context: RequestContext): Promise<Response> {
  const { request } = context;
  const boundary = multipartBoundary(request.headers.get("content-type"));
  const contentLength = readByteCount(request.headers.get("content-length"), "Content-Length");
  if (!request.body) {
    throw ApiError.invalidArgument("The multipart upload has no body.", [
      { field: "metadata", description: "is required" },
    ]);
  }
  const reader = request.body.getReader();
  try {
    const upload = await readMultipartUpload(reader, boundary);
    const file = await context.backend.uploadFile(
      {
        file: parseUploadStartBody(upload.metadata),
        ...(upload.mediaType !== undefined
          ? { contentType: canonicalMimeType(upload.mediaType) }
          : {}),
        ...(contentLength !== undefined ? { maxLength: contentLength - upload.headBytes } : {}),
        body: upload.media,
      },
      { ...context, origin: requestOrigin(request) },
    );
    return jsonResponse({ file }, { headers: uploadAnswerHeaders({ status: "final" }) });
  } catch (error) {
    await discardMultipartBody(reader);
    throw error;
  }
}

async function startUpload(context: RequestContext): Promise<Response> {
  const { request } = context;
  if (request.method !== "POST") {
    throw ApiError.invalidArgument(
      "An upload starts with POST; PUT is for the upload session URL (with upload_id).",
      [{ field: "upload_id", description: "is required with PUT" }],
    );
  }
  // Protocols Google-written clients send: resumable (@google/genai, google-genai) and
  // multipart (@google/generative-ai's GoogleAIFileManager). None sends `raw`, so it is refused.
  const protocol = readUploadHeader(request.headers, "Protocol")?.toLowerCase();
  if (protocol === "multipart" && !context.params.store) return multipartUpload(context);
  if (protocol !== undefined && protocol !== "resumable") {
    throw ApiError.invalidArgument(
      `X-Goog-Upload-Protocol "${protocol.slice(0, 40)}" is not supported: use resumable or multipart.`,
      [{ field: "X-Goog-Upload-Protocol", description: "must be resumable or multipart" }],
    );
  }
  const commands = readUploadCommands(request.headers);
  if (!commands.has("start")) {
    throw ApiError.invalidArgument(
      "Without upload_id the only command is start: send X-Goog-Upload-Command: start to open an upload session.",
      [{ field: "upload_id", description: "is required for upload, finalize, query and cancel" }],
    );
  }
  if (protocol === undefined) {
    throw ApiError.invalidArgument(
      "X-Goog-Upload-Protocol is required: send resumable (with X-Goog-Upload-Command: start) or multipart.",
      [{ field: "X-Goog-Upload-Protocol", description: "must be resumable or multipart" }],
    );
  }
  const body = await readJsonBody(request, START_BODY_LIMIT);
  const declaredSize = readByteCount(
    readUploadHeader(request.headers, "Header-Content-Length"),
    "X-Goog-Upload-Header-Content-Length",
  );
  const announced = readUploadHeader(request.headers, "Header-Content-Type");
  const contentType = announced ? canonicalMimeType(announced) : announced;
  const headerFields = {
    ...(declaredSize !== undefined ? { declaredSize } : {}),
    ...(contentType ? { contentType } : {}),
  };
  const store = context.params.store;
  const { uploadId } = store
    ? await context.backend.startFileSearchStoreUpload(
        `fileSearchStores/${store}`,
        { ...headerFields, document: parseStoreUploadStart(body) },
        context,
      )
    : await context.backend.startUpload(
        { ...headerFields, file: parseUploadStartBody(body) },
        context,
      );
  return emptyAnswer(
    uploadAnswerHeaders({
      status: "active",
      url: uploadSessionUrl(request, uploadId),
      chunkGranularity: UPLOAD_CHUNK_GRANULARITY,
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
    if (commands.has("query"))
      return statusAnswer(await backend.queryUpload(uploadId, operation), "query");
    if (commands.has("cancel"))
      return statusAnswer(await backend.cancelUpload(uploadId, operation), "cancel");
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
    return statusAnswer(status, "chunk");
  } catch (error) {
    await discardUnreadBody(request);
    throw error;
  }
}

/**
 * `POST /upload/v1beta/files` (and `/upload/v1`, `/upload/v1alpha`): without `upload_id` it
 * starts a resumable upload or takes a whole multipart one; with it (POST or PUT) it is the
 * session URL taking chunks, query and cancel. `upload/v1beta/fileSearchStores/{id}:uploadToFileSearchStore`
 * is the same protocol for a store's document (resumable only).
 */
export async function uploadHandler(context: RequestContext): Promise<Response> {
  const uploadId = context.url.searchParams.get("upload_id");
  if (uploadId === null) return startUpload(context);
  return sessionRequest(context, uploadId);
}

/** The upload surface's authentication (auth/authenticate-upload.ts), over the active backend's upload sessions. */
export function authenticateUpload(
  request: Request,
  options: AuthenticateOptions = {},
): Promise<Caller> {
  return authenticateUploadSession(
    request,
    async (uploadId) => (await backend()).uploadSessionOwner(uploadId),
    options,
  );
}
