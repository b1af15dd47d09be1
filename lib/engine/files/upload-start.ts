/**
 * What a resumable upload's start must carry, checked before anything is stored: the declared
 * length (a whole number of bytes, not zero, within the per-file limit), a MIME type of the
 * type/subtype form, and, when the client names the file, an id of the service's form.
 */
import { invalid, LENGTH_HEADER } from "./upload-errors";

const FILE_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const MIME_TYPE_PATTERN =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(?:\s*;.*)?$/;

export interface UploadStartInput {
  ownerId: string;
  /** The declared total length in bytes, as sent (header or body); validated here. */
  declaredSize: number | undefined;
  mimeType: string | undefined;
  displayName?: string;
  /** `files/{id}` the client asked for, if any. */
  requestedName?: string;
}

/** The start's length, type and requested file id, or the service's 400 naming the field. */
export function checkUploadStart(
  input: UploadStartInput,
  maxFileBytes: number,
): { declaredSize: number; mimeType: string; fileId?: string } {
  const declaredSize = input.declaredSize;
  if (declaredSize === undefined) {
    throw invalid(
      `The upload's total length is required: send ${LENGTH_HEADER} with the start command.`,
      "X-Goog-Upload-Header-Content-Length",
    );
  }
  if (!Number.isSafeInteger(declaredSize) || declaredSize < 0) {
    throw invalid(
      `${LENGTH_HEADER} must be a whole number of bytes; got ${declaredSize}.`,
      "X-Goog-Upload-Header-Content-Length",
    );
  }
  if (declaredSize === 0) {
    throw invalid(
      `${LENGTH_HEADER} is 0: zero-byte files cannot be uploaded.`,
      "X-Goog-Upload-Header-Content-Length",
    );
  }
  if (declaredSize > maxFileBytes) {
    throw invalid(
      `The file is too large: ${declaredSize} bytes declared, the limit is ${maxFileBytes} bytes per file.`,
      "X-Goog-Upload-Header-Content-Length",
    );
  }
  const mimeType = input.mimeType?.trim();
  if (!mimeType) {
    throw invalid(
      "The file's MIME type is required: send X-Goog-Upload-Header-Content-Type (or X-Svc-Upload-Header-Content-Type, or file.mimeType in the body).",
      "X-Goog-Upload-Header-Content-Type",
    );
  }
  if (!MIME_TYPE_PATTERN.test(mimeType) || mimeType.length > 255) {
    throw invalid(
      `The file's MIME type "${mimeType.slice(0, 100)}" is not a valid type/subtype.`,
      "X-Goog-Upload-Header-Content-Type",
    );
  }
  let fileId: string | undefined;
  if (input.requestedName !== undefined) {
    const requested = input.requestedName.startsWith("files/")
      ? input.requestedName.slice("files/".length)
      : input.requestedName;
    if (!FILE_ID_PATTERN.test(requested)) {
      throw invalid(
        `* file.name: "${input.requestedName.slice(0, 80)}" is not a valid file name: use files/{id} where id has at most 40 lower-case letters, digits or dashes, and does not begin or end with a dash.`,
        "file.name",
      );
    }
    fileId = requested;
  }
  return { declaredSize, mimeType, ...(fileId !== undefined ? { fileId } : {}) };
}
