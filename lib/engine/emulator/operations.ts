/**
 * The operations the emulator names, in one place: each request's operation is read from its
 * method and path with the rules of the recorded-exchanges format (`generateContent`,
 * `cachedContents.get`, `files.upload.start`, ...), so a new route is named without a new
 * entry; `match.operation` takes those names or a group of them. To add an operation a
 * scenario can name, add it to OPERATIONS (and to a group when it belongs to one).
 */

/** Every operation name a scenario may match on, in the recorded-exchanges format's spelling. */
export const OPERATIONS = [
  "generateContent",
  "streamGenerateContent",
  "countTokens",
  "embedContent",
  "batchEmbedContents",
  "asyncBatchEmbedContent",
  "batchGenerateContent",
  "models.list",
  "models.get",
  "files.upload.start",
  "files.upload.chunk",
  "files.get",
  "files.list",
  "files.delete",
  "files.download",
  "cachedContents.create",
  "cachedContents.get",
  "cachedContents.list",
  "cachedContents.patch",
  "cachedContents.delete",
  "batches.get",
  "batches.list",
  "batches.cancel",
  "batches.delete",
  "fileSearchStores.create",
  "fileSearchStores.get",
  "fileSearchStores.list",
  "fileSearchStores.delete",
  "fileSearchStores.importFile",
  "fileSearchStores.uploadToFileSearchStore.start",
  "fileSearchStores.uploadToFileSearchStore.chunk",
  "fileSearchStores.documents.list",
  "fileSearchStores.documents.get",
  "fileSearchStores.documents.delete",
  "fileSearchStores.operations.get",
  "interactions.create",
  "interactions.get",
  "interactions.cancel",
  "interactions.delete",
  "openai.chat.completions",
  "openai.embeddings",
  "openai.models",
] as const;

/** Names that stand for several operations. */
export const OPERATION_GROUPS: Record<string, (operation: string) => boolean> = {
  generate: (operation) => operation === "generateContent" || operation === "streamGenerateContent",
  stream: (operation) => operation === "streamGenerateContent",
  files: (operation) => operation.startsWith("files."),
  caches: (operation) => operation.startsWith("cachedContents."),
  batches: (operation) => operation.startsWith("batches.") || operation === "batchGenerateContent",
  fileSearchStores: (operation) => operation.startsWith("fileSearchStores."),
  interactions: (operation) => operation.startsWith("interactions."),
  embeddings: (operation) =>
    operation === "embedContent" ||
    operation === "batchEmbedContents" ||
    operation === "asyncBatchEmbedContent" ||
    operation === "openai.embeddings",
  openai: (operation) => operation.startsWith("openai."),
};

const KNOWN = new Set<string>(OPERATIONS);

/** Whether `name` is an operation or a group a scenario may name. */
export function isOperationName(name: string): boolean {
  return KNOWN.has(name) || Object.hasOwn(OPERATION_GROUPS, name);
}

/** Whether `operation` is `name` or belongs to the group `name`. */
export function operationMatches(name: string, operation: string): boolean {
  if (name === operation) return true;
  const group = Object.hasOwn(OPERATION_GROUPS, name) ? OPERATION_GROUPS[name] : undefined;
  return group ? group(operation) : false;
}

const VERB_OF_METHOD: Record<string, string> = {
  GET: "get",
  PATCH: "patch",
  DELETE: "delete",
  POST: "create",
  PUT: "update",
};

/**
 * The operation of a request: `method` and the path after its version segment (`rest`, e.g.
 * `models/gemini-2.5-flash:countTokens`), `upload` for the `/upload/...` paths and
 * `sessionCommand` when an upload request carries an `upload_id` (a chunk, not a start).
 */
export function operationOf(
  method: string,
  rest: string,
  options: { upload?: boolean; sessionCommand?: boolean } = {},
): string {
  // A store upload's operations sit under `upload/`: `fileSearchStores/s/upload/operations/o`.
  const segments = rest.split("/").filter((segment) => segment !== "" && segment !== "upload");
  if (options.upload) {
    const verb = rest.includes(":uploadToFileSearchStore")
      ? "fileSearchStores.uploadToFileSearchStore"
      : "files.upload";
    return `${verb}.${options.sessionCommand ? "chunk" : "start"}`;
  }
  if (segments[0] === "openai") return ["openai", ...segments.slice(1)].join(".");
  // The Interactions API names its verbs as a last segment: `interactions/{id}/cancel`.
  if (segments[0] === "interactions" && segments.length === 3) return `interactions.${segments[2]}`;
  const last = segments[segments.length - 1] ?? "";
  const colon = last.indexOf(":");
  if (segments[0] === "models" && segments.length === 2 && colon >= 0) return last.slice(colon + 1);
  // Collections alternate with ids: `fileSearchStores/s/documents/d` → fileSearchStores.documents.
  const collections = segments
    .filter((_, index) => index % 2 === 0)
    .map((segment) => {
      const at = segment.indexOf(":");
      return at >= 0 ? segment.slice(0, at) : segment;
    });
  const prefix = collections.join(".");
  if (colon >= 0) return `${prefix}.${last.slice(colon + 1)}`;
  if (segments.length % 2 === 1) return `${prefix}.${method === "GET" ? "list" : "create"}`;
  return `${prefix}.${VERB_OF_METHOD[method] ?? method.toLowerCase()}`;
}

/**
 * The operation of each Backend method, for calls that come without an API path (a studio
 * chat turn runs through the same Backend). A method not listed is named by itself.
 */
export const METHOD_OPERATIONS: Record<string, string> = {
  listModels: "models.list",
  getModel: "models.get",
  countTokens: "countTokens",
  generateContent: "generateContent",
  streamGenerateContent: "streamGenerateContent",
  startUpload: "files.upload.start",
  uploadChunk: "files.upload.chunk",
  queryUpload: "files.upload.chunk",
  uploadFile: "files.upload.start",
  cancelUpload: "files.upload.chunk",
  getFile: "files.get",
  listFiles: "files.list",
  deleteFile: "files.delete",
  downloadFile: "files.download",
  createCachedContent: "cachedContents.create",
  listCachedContents: "cachedContents.list",
  getCachedContent: "cachedContents.get",
  updateCachedContent: "cachedContents.patch",
  deleteCachedContent: "cachedContents.delete",
  createBatch: "batchGenerateContent",
  getBatch: "batches.get",
  listBatches: "batches.list",
  cancelBatch: "batches.cancel",
  deleteBatch: "batches.delete",
  createFileSearchStore: "fileSearchStores.create",
  listFileSearchStores: "fileSearchStores.list",
  getFileSearchStore: "fileSearchStores.get",
  deleteFileSearchStore: "fileSearchStores.delete",
  startFileSearchStoreUpload: "fileSearchStores.uploadToFileSearchStore.start",
  importFileToFileSearchStore: "fileSearchStores.importFile",
  listDocuments: "fileSearchStores.documents.list",
  getDocument: "fileSearchStores.documents.get",
  deleteDocument: "fileSearchStores.documents.delete",
  getFileSearchOperation: "fileSearchStores.operations.get",
  createInteraction: "interactions.create",
  streamCreateInteraction: "interactions.create",
  getInteraction: "interactions.get",
  streamInteraction: "interactions.get",
  cancelInteraction: "interactions.cancel",
  deleteInteraction: "interactions.delete",
  embedContent: "embedContent",
  batchEmbedContents: "batchEmbedContents",
  asyncBatchEmbedContent: "asyncBatchEmbedContent",
  openaiChatCompletion: "openai.chat.completions",
  openaiEmbeddings: "openai.embeddings",
  openaiListModels: "openai.models",
  openaiGetModel: "openai.models",
};

/** Backend methods whose answer is a stream (scripted failures come before its first item). */
export const STREAM_METHODS: ReadonlySet<string> = new Set([
  "streamGenerateContent",
  "streamCreateInteraction",
  "streamInteraction",
]);

/** The generateContent operations: the engine's answer, charged against the caller's quotas. */
export const GENERATION_OPERATIONS: readonly string[] = [
  "generateContent",
  "streamGenerateContent",
];

/**
 * Operations a content answer (text, chunks, function calls, JSON, a safety block) can answer:
 * the generations, an interaction's create and an OpenAI-compatible chat completion (the answer
 * stands for the generation each runs).
 */
export const CONTENT_OPERATIONS: readonly string[] = [
  ...GENERATION_OPERATIONS,
  "interactions.create",
  "openai.chat.completions",
];

/** Operations an embedding answer (given vectors) can answer. */
export const EMBEDDING_OPERATIONS: readonly string[] = [
  "embedContent",
  "batchEmbedContents",
  "openai.embeddings",
];
