/**
 * The service's answers for a named resource that is missing, expired or someone else's: the
 * same words in the local engine and the gateway, so a caller cannot tell "not yours" from
 * "not there".
 */
import { ApiError } from "./api-error";

/** A file: 403, by its id (`files/` prefix optional). */
export function fileDenied(name: string): ApiError {
  const id = name.startsWith("files/") ? name.slice("files/".length) : name;
  return ApiError.permissionDenied(
    `You do not have permission to access the File ${id} or it may not exist.`,
  );
}

/** A cached content: 403. */
export function cachedContentDenied(): ApiError {
  return ApiError.permissionDenied("CachedContent not found (or permission denied)");
}

/** A batch: 404. */
export function batchNotFound(name: string): ApiError {
  return ApiError.notFound(
    `Requested entity was not found: batch ${JSON.stringify(name.slice(0, 100))} does not exist.`,
  );
}

/**
 * A file search store: 403, in the words of a cache (no recording shows the service's answer
 * for a missing or foreign store; the SDKs do not tell them apart).
 */
export function fileSearchStoreDenied(): ApiError {
  return ApiError.permissionDenied("FileSearchStore not found (or permission denied)");
}

/**
 * A resource of a kind nobody owns through the gateway (an operation, a tuned model): 404, in
 * the words the service's APIs use for an entity they cannot find.
 */
export function resourceNotFound(name: string): ApiError {
  return ApiError.notFound(
    `Requested entity was not found: ${JSON.stringify(name.slice(0, 100))} does not exist.`,
  );
}
