/**
 * The file search resources of the API, named as `@google/genai`'s types.ts names them:
 * FileSearchStore, Document, CustomMetadata, ChunkingConfig and the long-running operations
 * an upload or an import answers. Counts and sizes are int64, so strings on the wire.
 */

export interface FileSearchStore {
  name: string;
  displayName?: string;
  createTime: string;
  updateTime: string;
  activeDocumentsCount?: string;
  pendingDocumentsCount?: string;
  failedDocumentsCount?: string;
  sizeBytes?: string;
  embeddingModel?: string;
}

export interface ListFileSearchStoresResponse {
  fileSearchStores?: FileSearchStore[];
  nextPageToken?: string;
}

export interface CustomMetadata {
  key: string;
  stringValue?: string;
  numericValue?: number;
  stringListValue?: { values?: string[] };
}

export interface ChunkingConfig {
  whiteSpaceConfig?: { maxTokensPerChunk?: number; maxOverlapTokens?: number };
}

export type DocumentState = "STATE_PENDING" | "STATE_ACTIVE" | "STATE_FAILED";

export interface Document {
  name: string;
  displayName?: string;
  customMetadata?: CustomMetadata[];
  updateTime: string;
  createTime: string;
  state: DocumentState;
  sizeBytes?: string;
  mimeType?: string;
}

export interface ListDocumentsResponse {
  documents?: Document[];
  nextPageToken?: string;
}

/** `POST fileSearchStores`: the new store's chosen fields. */
export interface FileSearchStoreCreate {
  displayName?: string;
  embeddingModel?: string;
}

/** What a document is made with, from an upload's start body or an import's body. */
export interface DocumentOptions {
  displayName?: string;
  mimeType?: string;
  customMetadata?: CustomMetadata[];
  chunkingConfig?: ChunkingConfig;
}

/** `POST fileSearchStores/{id}:importFile`. */
export interface ImportFileRequest extends DocumentOptions {
  fileName: string;
}

/**
 * The result of an upload (`UploadToFileSearchStoreResponse`) or an import
 * (`ImportFileResponse`), with the `@type` the service gives it.
 */
export interface DocumentOperationResponse {
  "@type": string;
  parent: string;
  documentName: string;
  mimeType?: string;
  sizeBytes?: string;
}

/** A long-running operation of a store (`UploadToFileSearchStoreOperation`, `ImportFileOperation`). */
export interface FileSearchOperation {
  name: string;
  done?: boolean;
  response?: DocumentOperationResponse;
  error?: { code: number; message: string; status?: string };
}
