/**
 * The service's words for refused upload commands, in one place: each is the 400 (or 409, 429)
 * the upload protocol answers, naming the header or field at fault.
 */
import { ApiError } from "@/lib/gemini/api-error";
import type { UploadSessionRecord } from "@/lib/db/stores/file-store";

export const LENGTH_HEADER =
  "X-Goog-Upload-Header-Content-Length (or X-Svc-Upload-Header-Content-Length)";
const OFFSET_HEADER = "X-Goog-Upload-Offset (or X-Svc-Upload-Offset)";

export function invalid(message: string, field?: string): ApiError {
  return ApiError.invalidArgument(message, field ? [{ field, description: message }] : undefined);
}

export function unknownSession(): ApiError {
  return invalid(
    "Unknown upload session: this upload_id was never issued, has expired or belongs to a deleted upload. Start a new upload with the command `start`.",
    "upload_id",
  );
}

export function cancelledSession(): ApiError {
  return invalid("The upload session was cancelled; start a new upload.", "upload_id");
}

export function alreadyFinalized(session: UploadSessionRecord, command: string): ApiError {
  return invalid(
    `The upload session is already finalized (files/${session.fileId}); the ${command} command is not allowed. Start a new upload to send other bytes.`,
    "X-Goog-Upload-Command",
  );
}

export function sessionBusy(): ApiError {
  return new ApiError(
    409,
    "ABORTED",
    "Another request is using this upload session right now; wait for it to finish, then query the received size.",
  );
}

export function fileNameTaken(fileId: string): ApiError {
  return new ApiError(409, "ALREADY_EXISTS", `File files/${fileId} already exists.`);
}

export function offsetRequired(): ApiError {
  return invalid(
    `${OFFSET_HEADER} is required with the upload and finalize commands: it is the number of bytes already sent.`,
    "X-Goog-Upload-Offset",
  );
}

export function offsetMismatch(offset: number, receivedSize: number): ApiError {
  return invalid(
    `${OFFSET_HEADER} is ${offset}, but the session has received ${receivedSize} bytes. Send the bytes from offset ${receivedSize} (the query command tells the received size).`,
    "X-Goog-Upload-Offset",
  );
}

export function tooManyBytes(session: UploadSessionRecord, attempted: number): ApiError {
  return invalid(
    `The upload sends more bytes than declared: ${LENGTH_HEADER} is ${session.declaredSize}, and this chunk would bring the total to ${attempted}. The chunk was discarded; the session still holds ${session.receivedSize} bytes.`,
    "X-Goog-Upload-Header-Content-Length",
  );
}

export function finalizeIncomplete(session: UploadSessionRecord): ApiError {
  return invalid(
    `Cannot finalize: ${session.receivedSize} of the ${session.declaredSize} declared bytes have been received. Send the remaining bytes from offset ${session.receivedSize}, then finalize.`,
    "X-Goog-Upload-Command",
  );
}

/** Zero bytes at finalize; `field` is the command for a resumable upload, `media` for a whole one. */
export function emptyFile(field: "X-Goog-Upload-Command" | "media"): ApiError {
  return invalid("The file is empty: zero-byte files cannot be uploaded.", field);
}

export function fileTooLarge(maxFileBytes: number): ApiError {
  return invalid(`The file is too large: the limit is ${maxFileBytes} bytes per file.`, "media");
}

export function bodyEndedEarly(written: number, receivedSize: number): ApiError {
  return invalid(
    `The request body ended unexpectedly after ${written} bytes; the session keeps the ${receivedSize} bytes received so far. Query the session and resume from there.`,
  );
}

/** The owner's storage is full: nothing is left for an upload of unknown length. */
export function quotaExhausted(quotaBytes: number): ApiError {
  return new ApiError(
    429,
    "RESOURCE_EXHAUSTED",
    `File storage quota exceeded: nothing is left of the ${quotaBytes}-byte limit. Delete files or let them expire.`,
  );
}

/** A whole upload of unknown length outgrew what the owner had left. */
export function quotaOutgrown(room: number, quotaBytes: number): ApiError {
  return new ApiError(
    429,
    "RESOURCE_EXHAUSTED",
    `File storage quota exceeded: the file is larger than the ${Math.max(0, room)} bytes left of the ${quotaBytes}-byte limit. Delete files or let them expire.`,
  );
}

/** A declared length that does not fit beside what the owner stores and reserves. */
export function quotaExceeded(used: number, requested: number, quotaBytes: number): ApiError {
  return new ApiError(
    429,
    "RESOURCE_EXHAUSTED",
    `File storage quota exceeded: ${used} bytes are stored or reserved by open uploads, ${requested} more were requested, and the limit is ${quotaBytes} bytes. Delete files or let them expire.`,
  );
}
