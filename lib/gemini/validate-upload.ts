/**
 * Reading a resumable upload's start body: what the new File may be called, its MIME type and
 * display name.
 */
import { uploadStartSchema } from "./schemas/requests";
import { Violations, codePointLength, violationError } from "./schemas/rules/violations";
import { runSchema } from "./validate";

export const FILE_NAME_PATTERN = /^files\/[a-z0-9-]{1,40}$/;
/** Longest File displayName, in characters (the service's limit). */
export const MAX_FILE_DISPLAY_NAME_CHARACTERS = 512;

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
