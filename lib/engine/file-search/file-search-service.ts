/**
 * File search stores in the local engine (fileSearchStores, their documents, uploads, imports
 * and operations), per owner. A document's bytes arrive by the files' own resumable upload
 * (a session mapped to the store; the file it makes is read, kept as the document's text and
 * dropped) or from an existing file of the owner. Documents are searchable when the upload or
 * import answers, so every operation is done at once. Knowingly different: only text is kept
 * for retrieval (other types are stored without text); no embedding model runs.
 */
import fs from "node:fs/promises";
import type {
  DocumentRecord,
  FileSearchStoreRecords,
} from "@/lib/db/stores/file-search-store-records";
import type { FileRecord } from "@/lib/db/stores/file-store";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller, PageQuery } from "@/lib/gemini/backend/contract";
import type {
  Document,
  DocumentOptions,
  FileSearchOperation,
  FileSearchStore,
  FileSearchStoreCreate,
  ImportFileRequest,
  ListDocumentsResponse,
  ListFileSearchStoresResponse,
} from "@/lib/gemini/file-search-types";
import { keysetPage } from "@/lib/gemini/page-token";
import { PAGE_LIMITS } from "@/lib/gemini/page-limits";
import { fileSearchStoreDenied } from "@/lib/gemini/resource-errors";
import type { GenerateContentRequest } from "@/lib/gemini/types";
import { derivedResourceId, isResourceId } from "@/lib/gemini/validate-file-search";
import type { FileService } from "../files/file-service";
import { randomResourceId } from "../files/random-id";
import type { StoreDocument } from "../tools/file-search";
import {
  doneOperation,
  operationName,
  operationResponse,
  STORE_PREFIX,
  toWireDocument,
  toWireStore,
} from "./wire";

const DEFAULT_EMBEDDING_MODEL = "models/gemini-embedding-001";
const RANDOM_SUFFIX = 12;
/** Text a document keeps for retrieval: what a type of text (or JSON, XML, ...) holds. */
const TEXT_TYPE = /^(?:text\/|application\/(?:json|xml|x-yaml|yaml|javascript|x-sh|sql)\b)/i;

export interface FileSearchServiceOptions {
  store: FileSearchStoreRecords;
  files: FileService;
  now?: () => number;
}

function notFound(what: string): ApiError {
  return ApiError.notFound(`Requested entity was not found: ${what.slice(0, 200)}`);
}

export class FileSearchService {
  private readonly now: () => number;

  constructor(private readonly options: FileSearchServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  private get records(): FileSearchStoreRecords {
    return this.options.store;
  }

  /** The caller's store named `fileSearchStores/{id}`, or the service's 403. */
  private async requireStore(name: string, caller: Caller) {
    const id = name.startsWith(STORE_PREFIX) ? name.slice(STORE_PREFIX.length) : null;
    const store = id !== null && isResourceId(id) ? await this.records.getStore(id) : undefined;
    if (!store || store.ownerId !== caller.ownerId) throw fileSearchStoreDenied();
    return store;
  }

  async create(request: FileSearchStoreCreate, caller: Caller): Promise<FileSearchStore> {
    const now = this.now();
    const record = {
      id: derivedResourceId(request.displayName, () => randomResourceId(RANDOM_SUFFIX)),
      ownerId: caller.ownerId,
      displayName: request.displayName ?? null,
      embeddingModel: request.embeddingModel ?? DEFAULT_EMBEDDING_MODEL,
      createTime: now,
      updateTime: now,
    };
    await this.records.insertStore(record);
    return toWireStore({ ...record, activeDocuments: 0, sizeBytes: 0 });
  }

  async get(name: string, caller: Caller): Promise<FileSearchStore> {
    return toWireStore(await this.requireStore(name, caller));
  }

  async list(query: PageQuery, caller: Caller): Promise<ListFileSearchStoresResponse> {
    const page = await keysetPage(
      query,
      PAGE_LIMITS.fileSearchStores,
      `fileSearchStores:${caller.ownerId}`,
      (limit, after) => this.records.listStores(caller.ownerId, limit, after),
    );
    const response: ListFileSearchStoresResponse = {};
    if (page.rows.length > 0) response.fileSearchStores = page.rows.map(toWireStore);
    if (page.nextPageToken) response.nextPageToken = page.nextPageToken;
    return response;
  }

  /** Deletes a store; one that holds documents only with `force`, as the service. */
  async delete(name: string, force: boolean, caller: Caller): Promise<void> {
    const store = await this.requireStore(name, caller);
    if (!force && (await this.records.countDocuments(store.id)) > 0) {
      throw new ApiError(
        400,
        "FAILED_PRECONDITION",
        `Cannot delete non-empty FileSearchStore ${name}: delete its documents first, or set force.`,
      );
    }
    await this.records.deleteStore(store.id);
  }

  /** Maps a files upload session (already started for the caller) to the store it fills. */
  async attachUpload(
    storeName: string,
    uploadId: string,
    options: DocumentOptions,
    caller: Caller,
  ): Promise<void> {
    const store = await this.requireStore(storeName, caller);
    await this.records.insertUpload(uploadId, store.id, options, this.now());
  }

  /** Checks the store before an upload session is opened for it. */
  async assertStore(storeName: string, caller: Caller): Promise<void> {
    await this.requireStore(storeName, caller);
  }

  /**
   * After an upload session finished with `file`: when the session fills a store, the file
   * becomes the store's document (and is dropped as a file); answers the upload's operation,
   * or null for a plain file upload.
   */
  async finishUpload(uploadId: string, file: FileRecord): Promise<FileSearchOperation | null> {
    const upload = await this.records.getUpload(uploadId);
    if (!upload) return null;
    if (!(await this.records.getStore(upload.storeId))) {
      // The store was deleted while its document was on its way: nothing is kept.
      await this.records.deleteUpload(uploadId);
      await this.options.files.deleteFile(`files/${file.id}`, { ownerId: file.ownerId });
      throw fileSearchStoreDenied();
    }
    const options = {
      ...upload.options,
      displayName: upload.options.displayName ?? file.displayName ?? undefined,
    };
    const document = await this.addDocument(upload.storeId, file, options);
    await this.records.deleteUpload(uploadId);
    await this.options.files.deleteFile(`files/${file.id}`, { ownerId: file.ownerId });
    const name = operationName(upload.storeId, document.id, "upload");
    const response = operationResponse(document, "upload");
    await this.records.insertOperation(name, upload.storeId, response, this.now());
    // The upload's own answer carries no `done` (recorded); operations.get says done.
    return { name, response };
  }

  /** `fileSearchStores/{id}:importFile`: one of the caller's files becomes a document. */
  async importFile(
    storeName: string,
    request: ImportFileRequest,
    caller: Caller,
  ): Promise<FileSearchOperation> {
    const store = await this.requireStore(storeName, caller);
    const file = await this.options.files.requireFile(request.fileName, caller);
    const document = await this.addDocument(store.id, file, {
      ...request,
      displayName: request.displayName ?? file.displayName ?? undefined,
    });
    const name = operationName(store.id, document.id, "import");
    const response = operationResponse(document, "import");
    await this.records.insertOperation(name, store.id, response, this.now());
    return doneOperation(name, response);
  }

  private async addDocument(
    storeId: string,
    file: FileRecord,
    options: DocumentOptions,
  ): Promise<DocumentRecord> {
    const mimeType = options.mimeType ?? file.mimeType;
    const bytes = await fs.readFile(this.options.files.uploads.filePath(file.id));
    const text = TEXT_TYPE.test(mimeType) ? bytes.toString("utf8") : "";
    const now = this.now();
    const document: DocumentRecord = {
      storeId,
      id: derivedResourceId(options.displayName, () => randomResourceId(RANDOM_SUFFIX)),
      displayName: options.displayName ?? null,
      mimeType,
      sizeBytes: bytes.byteLength,
      customMetadata: options.customMetadata ?? null,
      state: "STATE_ACTIVE",
      createTime: now,
      updateTime: now,
    };
    await this.records.insertDocument(document, text);
    return document;
  }

  /** `fileSearchStores/{id}/(upload/)operations/{id}` of one of the caller's stores. */
  async getOperation(name: string, caller: Caller): Promise<FileSearchOperation> {
    const storeId = /^fileSearchStores\/([^/]+)\//.exec(name)?.[1] ?? "";
    await this.requireStore(`${STORE_PREFIX}${storeId}`, caller);
    const operation = await this.records.getOperation(name);
    if (!operation) throw notFound(`operation ${JSON.stringify(name)}`);
    return doneOperation(name, operation.response as FileSearchOperation["response"] & object);
  }

  private async requireDocument(name: string, caller: Caller): Promise<DocumentRecord> {
    const match = /^(fileSearchStores\/[^/]+)\/documents\/([^/]+)$/.exec(name);
    const store = await this.requireStore(match?.[1] ?? "", caller);
    const document = match ? await this.records.getDocument(store.id, match[2]!) : undefined;
    // The service's words (python-genai's recorded tests); its status is not recorded.
    if (!document) throw ApiError.notFound("Documents does not exist.");
    return document;
  }

  async listDocuments(
    storeName: string,
    query: PageQuery,
    caller: Caller,
  ): Promise<ListDocumentsResponse> {
    const store = await this.requireStore(storeName, caller);
    const page = await keysetPage(
      query,
      PAGE_LIMITS.documents,
      `documents:${store.id}`,
      (limit, after) => this.records.listDocuments(store.id, limit, after),
    );
    const response: ListDocumentsResponse = {};
    if (page.rows.length > 0) response.documents = page.rows.map(toWireDocument);
    if (page.nextPageToken) response.nextPageToken = page.nextPageToken;
    return response;
  }

  async getDocument(name: string, caller: Caller): Promise<Document> {
    return toWireDocument(await this.requireDocument(name, caller));
  }

  /** Deletes a document (its chunks go with it; `force` is accepted, as the service's). */
  async deleteDocument(name: string, caller: Caller): Promise<void> {
    const document = await this.requireDocument(name, caller);
    await this.records.deleteDocument(document.storeId, document.id);
  }

  /** Every store a request's tools name must be the caller's, else the service's 403. */
  async assertStoresOf(
    request: Pick<GenerateContentRequest, "tools">,
    caller: Caller,
  ): Promise<void> {
    for (const tool of request.tools ?? [])
      for (const name of tool.fileSearch?.fileSearchStoreNames ?? [])
        await this.requireStore(name, caller);
  }

  /** The named stores' documents for retrieval; the service's 403 for a store not the caller's. */
  async documentsFor(names: readonly string[], caller: Caller): Promise<StoreDocument[]> {
    const ids: string[] = [];
    for (const name of new Set(names)) ids.push((await this.requireStore(name, caller)).id);
    return (await this.records.searchableDocuments(ids)).map((document) => ({
      store: `${STORE_PREFIX}${document.storeId}`,
      title: document.displayName ?? document.id,
      text: document.text,
    }));
  }

  /** Drops store upload mappings whose sessions have expired. */
  async sweep(sessionLifetimeMs: number): Promise<void> {
    await this.records.deleteUploadsBefore(this.now() - sessionLifetimeMs);
  }
}
