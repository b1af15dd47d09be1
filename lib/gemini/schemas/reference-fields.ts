/**
 * The fields of the request types that name a stored resource: a file (`fileData.fileUri`),
 * a cached content (`cachedContent`) or a file search store
 * (`tools[].fileSearch.fileSearchStoreNames`). Each is a schema registered in `referenceFields`;
 * lib/gemini/references finds every place they are used by walking the request schemas, so
 * a request type that gains one of these fields has it checked for ownership with nothing
 * else to change.
 */
import { z } from "zod";
import { wireString } from "./wire";

export type ReferenceKind = "file" | "cachedContent" | "fileSearchStore";

/**
 * How a checked reference is written for the upstream: a file URI (what `fileData.fileUri`
 * takes), or the resource's name (`files/{id}`, what a batch's input file takes).
 */
export type ReferenceSpelling = "uri" | "name";

/** Schemas whose value names a stored resource, with the kind of resource. */
export const referenceFields = z.registry<{ kind: ReferenceKind; spelling?: ReferenceSpelling }>();

const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The `files/{id}` a fileUri names, or null when it names no file of the API. Every
 * spelling a client or an upstream might resolve to a file counts: the name, a bare id, a
 * URL of any host whose (percent-decoded) path has a `files/{id}` segment pair, the
 * studio's or the upstream's file URI. Other URLs (a video page, a bucket) are not files.
 * Ids are not checked here: a malformed one names a file nobody owns.
 */
export function fileNameOfUri(uri: string): string | null {
  const text = uri.trim();
  const hasScheme = URL_SCHEME.test(text);
  const segments = hasScheme ? httpPathSegments(text) : pathSegments(text.split(/[?#]/, 1)[0]!);
  if (segments === null) return null;
  const id = idAfter(segments, "files");
  if (id !== null) return `files/${id}`;
  if (hasScheme || segments.length === 0) return null;
  return `files/${segments[segments.length - 1]}`;
}

/**
 * The `cachedContents/{id}` an http(s) URL names, or null: as for files, a URL of any host
 * whose (percent-decoded) path has a `cachedContents/{id}` segment pair (the studio's
 * `<origin>/v1beta/cachedContents/{id}`, or the upstream's). Ids are not checked here.
 */
export function cachedContentNameOfUrl(url: string): string | null {
  const segments = httpPathSegments(url.trim());
  const id = segments && idAfter(segments, "cachedcontents");
  return id ? `cachedContents/${id}` : null;
}

/** The (percent-decoded) path segments of an http(s) URL; null for anything else. */
function httpPathSegments(text: string): string[] | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return pathSegments(url.pathname);
}

function pathSegments(path: string): string[] {
  return decodedPath(path)
    .split("/")
    .filter((segment) => segment !== "");
}

/** The segment after the last `collection` segment (any letter case) that has one. */
function idAfter(segments: readonly string[], collection: string): string | null {
  for (let index = segments.length - 2; index >= 0; index--) {
    if (segments[index]!.toLowerCase() === collection) return segments[index + 1]!;
  }
  return null;
}

/** `fileData.fileUri`: a reference to a file comes out as its name, `files/{id}`; other URIs as sent. */
export const fileUriSchema = wireString().transform((uri) => fileNameOfUri(uri) ?? uri);
referenceFields.add(fileUriSchema, { kind: "file" });

/** A batch's input file (`batch.inputConfig.fileName`): a file named as `files/{id}`, in any spelling. */
export const batchInputFileSchema = wireString().transform((uri) => fileNameOfUri(uri) ?? uri);
referenceFields.add(batchInputFileSchema, { kind: "file", spelling: "name" });

/** `cachedContent` of a generate request: the name of a cached content, as sent. */
export const cachedContentNameSchema = wireString();
referenceFields.add(cachedContentNameSchema, { kind: "cachedContent" });

/** `tools[].fileSearch.fileSearchStoreNames`: a file search store's name, as sent. */
export const fileSearchStoreNameSchema = wireString();
referenceFields.add(fileSearchStoreNameSchema, { kind: "fileSearchStore", spelling: "name" });
