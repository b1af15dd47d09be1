/**
 * File search records as the service writes them (recorded, 2026): zero counts and sizes left
 * out, int64 as strings, times with microseconds, and the operation an upload answers (its
 * `response` typed `UploadToFileSearchStoreResponse`, no `done` in the upload's own answer).
 */
import type { DocumentRecord, StoreSummary } from "@/lib/db/stores/file-search-store-records";
import type {
  Document,
  DocumentOperationResponse,
  FileSearchOperation,
  FileSearchStore,
} from "@/lib/gemini/file-search-types";
import { formatTimestampDigits } from "@/lib/gemini/wire-time";

const RESPONSE_TYPE = "type.googleapis.com/google.ai.generativelanguage.v1main.";

export const STORE_PREFIX = "fileSearchStores/";

export function storeName(id: string): string {
  return `${STORE_PREFIX}${id}`;
}

export function documentName(storeId: string, id: string): string {
  return `${STORE_PREFIX}${storeId}/documents/${id}`;
}

function time(milliseconds: number): string {
  return formatTimestampDigits(milliseconds, 6);
}

export function toWireStore(store: StoreSummary): FileSearchStore {
  return {
    name: storeName(store.id),
    ...(store.displayName !== null ? { displayName: store.displayName } : {}),
    createTime: time(store.createTime),
    updateTime: time(store.updateTime),
    ...(store.activeDocuments > 0 ? { activeDocumentsCount: String(store.activeDocuments) } : {}),
    ...(store.sizeBytes > 0 ? { sizeBytes: String(store.sizeBytes) } : {}),
    embeddingModel: store.embeddingModel,
  };
}

export function toWireDocument(document: DocumentRecord): Document {
  return {
    name: documentName(document.storeId, document.id),
    ...(document.displayName !== null ? { displayName: document.displayName } : {}),
    ...(document.customMetadata?.length ? { customMetadata: document.customMetadata } : {}),
    updateTime: time(document.updateTime),
    createTime: time(document.createTime),
    state: document.state,
    ...(document.sizeBytes > 0 ? { sizeBytes: String(document.sizeBytes) } : {}),
    mimeType: document.mimeType,
  };
}

/** The operation's name: `.../upload/operations/{id}` for an upload, `.../operations/{id}` for an import. */
export function operationName(storeId: string, documentId: string, kind: "upload" | "import") {
  return `${STORE_PREFIX}${storeId}/${kind === "upload" ? "upload/" : ""}operations/${documentId}`;
}

export function operationResponse(
  document: DocumentRecord,
  kind: "upload" | "import",
): DocumentOperationResponse {
  return {
    "@type": `${RESPONSE_TYPE}${kind === "upload" ? "UploadToFileSearchStoreResponse" : "ImportFileResponse"}`,
    parent: storeName(document.storeId),
    documentName: documentName(document.storeId, document.id),
    ...(kind === "upload" ? { mimeType: document.mimeType } : {}),
    ...(kind === "upload" && document.sizeBytes > 0
      ? { sizeBytes: String(document.sizeBytes) }
      : {}),
  };
}

/** The operation as operations.get answers it: done, with its response. */
export function doneOperation(
  name: string,
  response: DocumentOperationResponse,
): FileSearchOperation {
  return { name, done: true, response };
}
