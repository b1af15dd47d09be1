/**
 * The Backend's file search operations in the local engine, each calling FileSearchService
 * with the caller's rights; a store upload's session is a files upload session (its chunks,
 * query and cancel are the files' own) mapped to the store.
 */
import type { Backend } from "@/lib/gemini/backend/contract";
import type { FileService } from "../files/file-service";
import type { FileSearchService } from "./file-search-service";

export type FileSearchBackendOperations = Pick<
  Backend,
  | "createFileSearchStore"
  | "listFileSearchStores"
  | "getFileSearchStore"
  | "deleteFileSearchStore"
  | "startFileSearchStoreUpload"
  | "importFileToFileSearchStore"
  | "listDocuments"
  | "getDocument"
  | "deleteDocument"
  | "getFileSearchOperation"
>;

export function fileSearchOperations(
  fileSearch: FileSearchService,
  files: FileService,
): FileSearchBackendOperations {
  return {
    createFileSearchStore: (request, context) => fileSearch.create(request, context.caller),
    listFileSearchStores: (query, context) => fileSearch.list(query, context.caller),
    getFileSearchStore: (name, context) => fileSearch.get(name, context.caller),
    deleteFileSearchStore: (name, force, context) => fileSearch.delete(name, force, context.caller),
    async startFileSearchStoreUpload(storeName, request, context) {
      await fileSearch.assertStore(storeName, context.caller);
      const { uploadId } = await files.startUpload({
        ownerId: context.caller.ownerId,
        declaredSize: request.declaredSize,
        mimeType: request.contentType || request.document.mimeType,
        ...(request.document.displayName !== undefined
          ? { displayName: request.document.displayName }
          : {}),
      });
      await fileSearch.attachUpload(storeName, uploadId, request.document, context.caller);
      return { uploadId };
    },
    importFileToFileSearchStore: (storeName, request, context) =>
      fileSearch.importFile(storeName, request, context.caller),
    listDocuments: (storeName, query, context) =>
      fileSearch.listDocuments(storeName, query, context.caller),
    getDocument: (name, context) => fileSearch.getDocument(name, context.caller),
    deleteDocument: (name, _force, context) => fileSearch.deleteDocument(name, context.caller),
    getFileSearchOperation: (name, context) => fileSearch.getOperation(name, context.caller),
  };
}
