/**
 * The one place that says which recorded operations the replay compares. An operation the
 * engine does not serve yet is still replayed in its recording's order (so what the recording
 * creates stays in step) and its figures are printed per set, but apart and outside the
 * pass/fail budget. Serving one means adding its name here.
 */
export const COMPARED_OPERATIONS = new Set([
  "models.list",
  "models.get",
  "generateContent",
  "streamGenerateContent",
  "countTokens",
  "cachedContents.create",
  "cachedContents.get",
  "cachedContents.list",
  "cachedContents.patch",
  "cachedContents.delete",
  "files.upload.start",
  "files.upload.chunk",
  "files.get",
  "files.list",
  "files.delete",
  "fileSearchStores.create",
  "fileSearchStores.get",
  "fileSearchStores.list",
  "fileSearchStores.delete",
  "fileSearchStores.importFile",
  "fileSearchStores.upload.start",
  "fileSearchStores.upload.chunk",
  "fileSearchStores.documents.list",
  "fileSearchStores.documents.get",
  "fileSearchStores.documents.delete",
  "operations.get",
  "interactions.create",
  "interactions.get",
  "interactions.cancel",
  "interactions.delete",
]);

/** Whether an exchange's answers count toward the figures and the budget. */
export function isCompared(exchange) {
  return COMPARED_OPERATIONS.has(exchange.operation);
}
