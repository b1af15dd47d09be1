/**
 * The name of an API operation as metrics, traces, usage and logs call it, read from its
 * method and path (after the version segment), in the words of the recorded exchanges:
 * `generateContent`, `streamGenerateContent`, `countTokens` for a model's methods; `models.list`,
 * `cachedContents.get`, `files.delete`, `batches.cancel`, `fileSearchStores.documents.list` for
 * collections and their members; `files.upload.start` / `files.upload.chunk` for uploads;
 * `openai.chat.completions` for the OpenAI-compatible endpoint. Derived, not listed, so an
 * operation added to the route table is named without a change here. Only called for a path
 * the route table matched, so a label can never be a name a client made up.
 */

const VERBS: Record<string, string> = {
  GET: "get",
  DELETE: "delete",
  PATCH: "patch",
  PUT: "update",
  POST: "create",
};

/** Collections inside a member (`fileSearchStores/{id}/documents`), not actions on it. */
const SUB_COLLECTIONS = new Set(["documents", "operations"]);

export function operationName(
  method: string,
  rest: string,
  options: { upload?: boolean; uploadCommand?: boolean } = {},
): string {
  if (options.upload) {
    const [collection] = rest.split(/[/:]/);
    return `${collection}.upload.${options.uploadCommand ? "chunk" : "start"}`;
  }
  if (rest.startsWith("openai/")) {
    const segments = rest.split("/");
    // `openai/models/{id}` is a member; the rest are collections the endpoint calls.
    if (segments[1] === "models")
      return segments.length > 2 ? "openai.models.get" : "openai.models.list";
    return segments.join(".");
  }
  const colon = rest.lastIndexOf(":");
  const verb = colon > rest.lastIndexOf("/") ? rest.slice(colon + 1) : null;
  const path = verb === null ? rest : rest.slice(0, colon);
  // `.../upload/operations/{id}`: a store upload's operation reads as the store's operations.
  const segments = path
    .split("/")
    .filter((segment, index) => segment && !(index > 0 && segment === "upload"));
  // A model's own methods go by their verb alone, as the service's clients call them.
  if (segments[0] === "models" && verb !== null) return verb;
  // Collections at even positions, members' ids at odd ones.
  const collections = segments.filter((_, index) => index % 2 === 0);
  const member = segments.length % 2 === 0;
  if (verb !== null) return `${collections.join(".")}.${verb}`;
  const last = segments[segments.length - 1];
  // `interactions/{id}/cancel`: a member's action written as a path segment.
  if (!member && segments.length >= 3 && method === "POST" && !SUB_COLLECTIONS.has(last!))
    return `${collections.slice(0, -1).join(".")}.${last}`;
  const base = collections.join(".");
  if (member) return `${base}.${VERBS[method] ?? method.toLowerCase()}`;
  return `${base}.${method === "GET" ? "list" : (VERBS[method] ?? method.toLowerCase())}`;
}
