import "server-only";
import type { OwnershipCheck } from "../persistence/ownership";

/**
 * The references a request body makes to resources that have owners: `cachedContent` and the
 * `fileData.fileUri` of its parts (in camelCase or snake_case, at the top level or inside
 * countTokens' `generateContentRequest`). Each must belong to the caller, or the request is
 * refused with the service's 403 before anything goes upstream. File URIs are rewritten to
 * the upstream's own form, since clients only ever saw the studio's.
 */

const FILE_ID = "[a-z0-9](?:[a-z0-9-]{0,62})";

/**
 * The file id a fileUri points at, when it could point at a file of the API at all: a URI
 * or name ending in `files/{id}`, or a bare id (which some upstreams resolve too, so it must
 * be checked like the others). Other URIs (a video page, a bucket) are not files of ours.
 */
export function fileIdOfUri(uri: string): string | null {
  let candidate = uri.trim();
  const query = candidate.search(/[?#]/);
  if (query >= 0) candidate = candidate.slice(0, query);
  const match =
    new RegExp(`(?:^|/)files/(${FILE_ID})$`).exec(candidate) ??
    new RegExp(`^(${FILE_ID})$`).exec(candidate);
  return match ? match[1]! : null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface ReferenceCheck {
  ownerId: string;
  ownership: OwnershipCheck;
  /** The upstream's base URL: rewritten file URIs point there. */
  upstreamBaseUrl: string;
}

function rewritePart(part: unknown, check: ReferenceCheck): unknown {
  if (!isObject(part)) return part;
  for (const key of ["fileData", "file_data"]) {
    const fileData = part[key];
    if (!isObject(fileData)) continue;
    for (const uriKey of ["fileUri", "file_uri"]) {
      const uri = fileData[uriKey];
      if (typeof uri !== "string") continue;
      const id = fileIdOfUri(uri);
      if (id === null) continue;
      check.ownership.assertOwner("file", `files/${id}`, check.ownerId);
      return {
        ...part,
        [key]: { ...fileData, [uriKey]: `${check.upstreamBaseUrl}/v1beta/files/${id}` },
      };
    }
  }
  return part;
}

function rewriteContent(content: unknown, check: ReferenceCheck): unknown {
  if (!isObject(content) || !Array.isArray(content.parts)) return content;
  return { ...content, parts: content.parts.map((part) => rewritePart(part, check)) };
}

function rewriteContents(contents: unknown, check: ReferenceCheck): unknown {
  if (Array.isArray(contents)) return contents.map((content) => rewriteContent(content, check));
  return rewriteContent(contents, check);
}

/**
 * Checks and rewrites one generate-shaped body (generateContent, countTokens, a cached
 * content to create). Returns the body to forward; throws the service's 403 for a
 * reference the caller does not own. Anything that is not an object passes unchanged for
 * the upstream to reject.
 */
export function checkReferences(body: unknown, check: ReferenceCheck): unknown {
  if (!isObject(body)) return body;
  const result: Json = { ...body };
  for (const key of ["cachedContent", "cached_content"]) {
    const name = result[key];
    if (typeof name === "string")
      check.ownership.assertOwner("cachedContent", name.trim(), check.ownerId);
  }
  for (const key of ["contents", "systemInstruction", "system_instruction"]) {
    if (key in result)
      result[key] =
        key === "contents"
          ? rewriteContents(result[key], check)
          : rewriteContent(result[key], check);
  }
  for (const key of ["generateContentRequest", "generate_content_request"]) {
    if (key in result) result[key] = checkReferences(result[key], check);
  }
  return result;
}
