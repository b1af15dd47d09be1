import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type {
  FileSearchUploadStartRequest,
  OperationContext,
  PageQuery,
} from "@/lib/gemini/backend/contract";
import type {
  Document,
  FileSearchOperation,
  FileSearchStore,
  FileSearchStoreCreate,
  ImportFileRequest,
  ListDocumentsResponse,
  ListFileSearchStoresResponse,
} from "@/lib/gemini/file-search-types";
import { fileDenied, fileSearchStoreDenied } from "@/lib/gemini/resource-errors";
import { saysGone } from "./gone-resources";
import { listOwned } from "./owned-lists";
import type { UpstreamClient } from "./upstream-client";
import { malformedUpstream } from "./upstream-errors";
import { API, pageQuery, resourcePath } from "./upstream-resources";
import type { UpstreamUploads } from "./upstream-uploads";

/**
 * File search stores through the gateway, as caches and files are: a created store is recorded
 * as its creator's, and every operation on a store, its documents, its uploads, imports and
 * operations is sent upstream only for the store's owner (anything else is the service's 403
 * for a store). Lists are filtered to the caller's stores. A document or an operation belongs
 * to the store its name starts with; an import's file must be the caller's too.
 */

const ID = "[A-Za-z0-9][A-Za-z0-9._-]*";
const STORE_CHILD = new RegExp(
  `^fileSearchStores/(${ID})/((?:upload/)?operations|documents)/(${ID})$`,
);

export class UpstreamFileSearch {
  constructor(
    private readonly client: UpstreamClient,
    private readonly ownership: OwnershipStore,
    private readonly uploads: UpstreamUploads,
  ) {}

  /** The store's upstream path once the caller is its owner; the service's 403 otherwise. */
  private async ownedStore(name: string, context: OperationContext): Promise<string> {
    if (!(await this.ownership.owns("fileSearchStore", name, context.caller.ownerId)))
      throw fileSearchStoreDenied();
    return resourcePath(name, "fileSearchStores");
  }

  /** A document's or operation's upstream path, once the caller owns the store it is in. */
  private async ownedChild(name: string, context: OperationContext): Promise<string> {
    const match = STORE_CHILD.exec(name);
    if (!match) throw fileSearchStoreDenied();
    const store = await this.ownedStore(`fileSearchStores/${match[1]}`, context);
    return `${store}/${match[2]}/${match[3]}`;
  }

  /** Sends a request about store `name`; an answer saying the store is gone ends its record. */
  private async onStore<Answer>(name: string, send: () => Promise<Answer>): Promise<Answer> {
    try {
      return await send();
    } catch (error) {
      if (saysGone(error, { kind: "fileSearchStore", name }))
        await this.ownership.forget("fileSearchStore", name);
      throw error;
    }
  }

  private get(
    target: string,
    context: OperationContext,
    query?: Record<string, string | undefined>,
  ) {
    return this.client.json<unknown>({
      method: "GET",
      target,
      ...(query ? { query } : {}),
      signal: context.signal,
      safety: "idempotent",
    });
  }

  async create(
    request: FileSearchStoreCreate,
    context: OperationContext,
  ): Promise<FileSearchStore> {
    // No idempotency key exists upstream, so a create is retried only if it never left.
    const created = await this.client.json<FileSearchStore>({
      method: "POST",
      target: `${API}/fileSearchStores`,
      json: request,
      signal: context.signal,
      safety: "create",
    });
    if (typeof created?.name !== "string")
      throw malformedUpstream("a created file search store without a name");
    await this.ownership.record("fileSearchStore", created.name, context.caller.ownerId);
    return created;
  }

  async list(query: PageQuery, context: OperationContext): Promise<ListFileSearchStoresResponse> {
    const page = await listOwned<FileSearchStore>(
      { client: this.client, ownership: this.ownership },
      "fileSearchStore",
      "fileSearchStores",
      query,
      context,
    );
    return {
      ...(page.items.length ? { fileSearchStores: page.items } : {}),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  }

  async getStore(name: string, context: OperationContext): Promise<FileSearchStore> {
    const target = await this.ownedStore(name, context);
    return this.onStore(name, () => this.get(target, context) as Promise<FileSearchStore>);
  }

  async deleteStore(name: string, force: boolean, context: OperationContext): Promise<void> {
    const target = await this.ownedStore(name, context);
    await this.onStore(name, () =>
      this.client.json({
        method: "DELETE",
        target,
        query: force ? { force: "true" } : {},
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    await this.ownership.forget("fileSearchStore", name);
  }

  async startUpload(
    storeName: string,
    request: FileSearchUploadStartRequest,
    context: OperationContext,
  ): Promise<{ uploadId: string }> {
    const target = await this.ownedStore(storeName, context);
    return this.uploads.startStoreUpload(target, request, context);
  }

  async importFile(
    storeName: string,
    request: ImportFileRequest,
    context: OperationContext,
  ): Promise<FileSearchOperation> {
    const target = await this.ownedStore(storeName, context);
    if (!(await this.ownership.owns("file", request.fileName, context.caller.ownerId)))
      throw fileDenied(request.fileName);
    return this.onStore(storeName, () =>
      this.client.json<FileSearchOperation>({
        method: "POST",
        target: `${target}:importFile`,
        json: request,
        signal: context.signal,
        safety: "create",
      }),
    );
  }

  async listDocuments(
    storeName: string,
    query: PageQuery,
    context: OperationContext,
  ): Promise<ListDocumentsResponse> {
    const target = await this.ownedStore(storeName, context);
    return this.onStore(
      storeName,
      () =>
        this.get(
          `${target}/documents`,
          context,
          pageQuery(query),
        ) as Promise<ListDocumentsResponse>,
    );
  }

  async getDocument(name: string, context: OperationContext): Promise<Document> {
    return (await this.get(await this.ownedChild(name, context), context)) as Document;
  }

  async deleteDocument(name: string, force: boolean, context: OperationContext): Promise<void> {
    const target = await this.ownedChild(name, context);
    await this.client.json({
      method: "DELETE",
      target,
      query: force ? { force: "true" } : {},
      signal: context.signal,
      safety: "idempotent",
    });
  }

  async getOperation(name: string, context: OperationContext): Promise<FileSearchOperation> {
    return (await this.get(await this.ownedChild(name, context), context)) as FileSearchOperation;
  }
}
