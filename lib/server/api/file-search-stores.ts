import "server-only";
import {
  checkResourceIds,
  parseFileSearchStoreCreate,
  parseImportFile,
  readForce,
} from "@/lib/gemini/validate-file-search";
import { readPageQuery } from "../http/page-query";
import { readJsonBody } from "../http/request-body";
import { jsonResponse } from "../http/responses";
import type { RequestContext } from "./request-context";

/** `fileSearchStores/{id}` of the path. */
function storeName(context: RequestContext): string {
  return checkResourceIds(`fileSearchStores/${context.params.store}`);
}

function documentName(context: RequestContext): string {
  return checkResourceIds(`${storeName(context)}/documents/${context.params.document}`);
}

export async function createFileSearchStoreHandler(context: RequestContext): Promise<Response> {
  const request = parseFileSearchStoreCreate(await readJsonBody(context.request));
  return jsonResponse(await context.backend.createFileSearchStore(request, context));
}

export async function listFileSearchStoresHandler(context: RequestContext): Promise<Response> {
  const query = readPageQuery(context.url);
  return jsonResponse(await context.backend.listFileSearchStores(query, context));
}

export async function getFileSearchStoreHandler(context: RequestContext): Promise<Response> {
  return jsonResponse(await context.backend.getFileSearchStore(storeName(context), context));
}

export async function deleteFileSearchStoreHandler(context: RequestContext): Promise<Response> {
  const force = readForce(context.url);
  await context.backend.deleteFileSearchStore(storeName(context), force, context);
  return jsonResponse({});
}

export async function importFileHandler(context: RequestContext): Promise<Response> {
  const request = parseImportFile(await readJsonBody(context.request));
  return jsonResponse(
    await context.backend.importFileToFileSearchStore(storeName(context), request, context),
  );
}

export async function listDocumentsHandler(context: RequestContext): Promise<Response> {
  const query = readPageQuery(context.url);
  return jsonResponse(await context.backend.listDocuments(storeName(context), query, context));
}

export async function getDocumentHandler(context: RequestContext): Promise<Response> {
  return jsonResponse(await context.backend.getDocument(documentName(context), context));
}

export async function deleteDocumentHandler(context: RequestContext): Promise<Response> {
  const force = readForce(context.url);
  await context.backend.deleteDocument(documentName(context), force, context);
  return jsonResponse({});
}

/** `fileSearchStores/{id}/operations/{id}` and `.../upload/operations/{id}`. */
export async function getFileSearchOperationHandler(context: RequestContext): Promise<Response> {
  const upload = context.params.upload ? "upload/" : "";
  const name = checkResourceIds(
    `${storeName(context)}/${upload}operations/${context.params.operation}`,
  );
  return jsonResponse(await context.backend.getFileSearchOperation(name, context));
}
