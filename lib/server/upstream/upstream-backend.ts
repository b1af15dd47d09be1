import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { UpstreamUploadStore } from "@/lib/db/stores/upstream-upload-store";
import type {
  Backend,
  BatchListQuery,
  FileDownload,
  FileUploadRequest,
  ForwardedJson,
  OperationContext,
  FileSearchUploadStartRequest,
  OriginOperationContext,
  PageQuery,
  PassedOnJson,
  UnmodelledCall,
  UploadChunkRequest,
  UploadStartRequest,
} from "@/lib/gemini/backend/contract";
import type { ReferencingRequest } from "@/lib/gemini/references";
import { assertCacheQuota, cachedInputOf, type CacheQuota } from "@/lib/gemini/backend/quotas";
import { jsonTextWithSize } from "@/lib/runtime/json-stringify-in-slices";
import type {
  BatchGenerateContentRequest,
  BatchOperation,
  CachedContent,
  CachedContentCreate,
  CachedContentUpdate,
  CountTokensRequest,
  File,
  GenerateContentRequest,
  GenerateContentResponse,
  ListBatchesResponse,
  ListCachedContentsResponse,
  ListFilesResponse,
  ListModelsResponse,
  Model,
} from "@/lib/gemini/types";
import type { UpstreamSettings } from "../config/env";
import { assertOwner } from "../persistence/ownership";
import { cachedContentDenied, fileDenied } from "@/lib/gemini/resource-errors";
import { fileNameOfUri } from "@/lib/gemini/references";
import { goneReferences, saysGone, type NamedResource } from "./gone-resources";
import { listOwned } from "./owned-lists";
import { assertOwnsAll, checkReferences, type ForwardBody } from "./request-references";
import { resourceNameOf, unreadInputFile } from "./batch-file-scan";
import { readUpstreamEvents } from "./sse-reader";
import { UpstreamClient, webStreamOf, type UpstreamResponse } from "./upstream-client";
import { markStage } from "../observability/request-stages";
import { malformedUpstream } from "./upstream-errors";
import {
  API,
  clientFile,
  FILE_LIFETIME_MS,
  header,
  pageQuery,
  resourcePath,
  upstreamDeadline,
} from "./upstream-resources";
import { UpstreamUploads } from "./upstream-uploads";
import { UpstreamFileSearch } from "./upstream-file-search";
import { UpstreamOpenAI } from "./upstream-openai";
import { forwardUnmodelled } from "./unmodelled-methods";
import type { FileSearchStoreCreate, ImportFileRequest } from "@/lib/gemini/file-search-types";
import type {
  AsyncBatchEmbedContentRequest,
  BatchEmbedContentsRequest,
  BatchEmbedContentsResponse,
  EmbedContentRequest,
  EmbedContentResponse,
} from "@/lib/gemini/embedding-types";
import type { OpenAIModel, OpenAIModelList } from "@/lib/gemini/openai/openai-types";
import type { OpenAIEnvelope } from "@/lib/gemini/openai/openai-envelope";
import type { InteractionGetQuery } from "@/lib/gemini/interactions/types";
import type { InteractionEnvelope } from "@/lib/gemini/interactions/envelope";
import { UpstreamInteractions } from "./upstream-interactions";

/**
 * The gateway: the Backend interface answered by forwarding each operation to the configured
 * upstream with the server's key. It parses only what it must know: names of created
 * caches and files (ownership), references to them in requests (permission), and stream
 * events (to pass each on the moment it is complete). Uploads are upstream-uploads.ts, lists
 * filtered to the caller's own items owned-lists.ts, names and times upstream-resources.ts.
 * Long as the contract is: one method per Backend operation, each its forward with the
 * ownership check before and the record after, read side by side.
 */

export interface UpstreamBackendDependencies {
  settings: UpstreamSettings;
  /** Who created which file and cache through the gateway. */
  ownership: OwnershipStore;
  /** Our upload ids → the upstream's session URLs. */
  uploadSessions: UpstreamUploadStore;
  /** Cached contents per owner and their bytes (lib/gemini/backend/quotas); absent: none. */
  cacheQuota?: CacheQuota;
  /** For tests: a pre-built client (its own dispatcher). */
  client?: UpstreamClient;
}

export class UpstreamBackend implements Backend {
  readonly mode = "upstream" as const;
  readonly client: UpstreamClient;
  readonly ownership: OwnershipStore;
  readonly uploadSessions: UpstreamUploadStore;
  /** Resumable and multipart uploads (upstream-uploads.ts); the Backend's upload operations. */
  private readonly uploads: UpstreamUploads;
  /** File search stores, their documents and operations (upstream-file-search.ts). */
  private readonly fileSearch: UpstreamFileSearch;
  /** The OpenAI-compatible endpoint, forwarded and passed through (upstream-openai.ts). */
  private readonly openai: UpstreamOpenAI;
  /** The Interactions API (upstream-interactions.ts). */
  private readonly interactions: UpstreamInteractions;

  constructor(private readonly dependencies: UpstreamBackendDependencies) {
    this.client = dependencies.client ?? new UpstreamClient(dependencies.settings);
    this.ownership = dependencies.ownership;
    this.uploadSessions = dependencies.uploadSessions;
    this.uploads = new UpstreamUploads(this.client, this.uploadSessions, this.ownership);
    this.fileSearch = new UpstreamFileSearch(this.client, this.ownership, this.uploads);
    this.openai = new UpstreamOpenAI(this.client, this.ownership);
    this.interactions = new UpstreamInteractions(
      this.client,
      this.ownership,
      dependencies.settings,
    );
  }

  private get settings(): UpstreamSettings {
    return this.dependencies.settings;
  }

  /**
   * Sends a request once every resource it names is checked against the caller
   * (request-references.ts): the body as the client sent it when the handler read it for
   * forwarding (`context.received`), else the canonical request. When the upstream answers
   * that one of the resources is gone, its record ends with the answer.
   */
  private async withReferences<Answer>(
    input: ReferencingRequest,
    context: OperationContext,
    send: (body: ForwardBody) => Promise<Answer>,
  ): Promise<Answer> {
    const { named, body } = await checkReferences(input, context.received, {
      ownerId: context.caller.ownerId,
      ownership: this.ownership,
      upstreamBaseUrl: this.settings.baseUrl,
    });
    markStage("references checked");
    try {
      return await send(body);
    } catch (error) {
      for (const gone of goneReferences(error, named)) await this.forgetGone(gone);
      throw error;
    }
  }

  /** Runs an operation on `resource` itself; an answer saying it is gone ends its record. */
  private async onOwned<Answer>(
    resource: NamedResource,
    send: () => Promise<Answer>,
  ): Promise<Answer> {
    try {
      return await send();
    } catch (error) {
      if (saysGone(error, resource)) await this.forgetGone(resource);
      throw error;
    }
  }

  private async forgetGone(resource: NamedResource): Promise<void> {
    await this.ownership.forget(resource.kind, resource.name);
  }

  async listModels(query: PageQuery, context: OperationContext): Promise<ListModelsResponse> {
    return this.client.json<ListModelsResponse>({
      method: "GET",
      target: `${API}/models`,
      query: pageQuery(query),
      signal: context.signal,
      safety: "idempotent",
    });
  }

  async getModel(model: string, context: OperationContext): Promise<Model> {
    return this.client.json<Model>({
      method: "GET",
      target: resourcePath(model, "models"),
      signal: context.signal,
      safety: "idempotent",
    });
  }

  async countTokens(
    model: string,
    request: CountTokensRequest,
    context: OperationContext,
  ): Promise<ForwardedJson> {
    // The count is passed on as the upstream wrote it: nothing in it is the gateway's to read.
    const target = `${resourcePath(model, "models")}:countTokens`;
    const text = await this.withReferences({ operation: "countTokens", request }, context, (body) =>
      this.client.jsonText({
        method: "POST",
        target,
        ...body,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    return { forwardedJson: text };
  }

  async generateContent(
    model: string,
    request: GenerateContentRequest,
    context: OperationContext,
  ): Promise<GenerateContentResponse | PassedOnJson> {
    // An answer that fits the buffer reaches the client only once whole, so its retry is
    // invisible; a longer one is passed on as it arrives and never held whole.
    const target = `${resourcePath(model, "models")}:generateContent`;
    const answer = await this.withReferences(
      { operation: "generateContent", request },
      context,
      (body) =>
        this.client.jsonOrPassedOn<GenerateContentResponse>({
          method: "POST",
          target,
          ...body,
          signal: context.signal,
          safety: "idempotent",
        }),
    );
    return "value" in answer ? answer.value : { passedOnJson: answer.pieces };
  }

  streamGenerateContent(
    model: string,
    request: GenerateContentRequest,
    context: OperationContext,
  ): AsyncGenerator<GenerateContentResponse> {
    // Retried only until the upstream answers 200: after that, chunks may have reached the client.
    return this.upstreamEvents({
      open: () => {
        const target = `${resourcePath(model, "models")}:streamGenerateContent`;
        return this.withReferences({ operation: "generateContent", request }, context, (body) =>
          this.client.open({
            method: "POST",
            target,
            query: { alt: "sse" },
            ...body,
            held: true,
            signal: context.signal,
            safety: "idempotent",
          }),
        );
      },
    });
  }

  /**
   * The chunks of a stream that `call.open` opens on the first `next()`. The opener (which holds
   * the request, parsed and as received, and its context) is let go once the call is open: a
   * generator keeps its arguments for as long as it lives, and a held stream lives for minutes.
   */
  private async *upstreamEvents(call: {
    open: (() => Promise<UpstreamResponse>) | null;
  }): AsyncGenerator<GenerateContentResponse> {
    let open = call.open;
    call.open = null;
    const opening = open!();
    open = null;
    const response = await opening;
    try {
      yield* readUpstreamEvents(response.body, {
        scrub: this.client.scrub,
        timeouts: this.settings,
      });
    } finally {
      // Ends the upstream exchange at once when the client went away or the stream failed.
      if (!response.body.destroyed) response.body.destroy();
    }
  }

  startUpload(request: UploadStartRequest, context: OperationContext) {
    return this.uploads.startUpload(request, context);
  }

  uploadChunk(uploadId: string, chunk: UploadChunkRequest, context: OriginOperationContext) {
    return this.uploads.uploadChunk(uploadId, chunk, context);
  }

  uploadFile(request: FileUploadRequest, context: OriginOperationContext) {
    return this.uploads.uploadFile(request, context);
  }

  uploadSessionOwner(uploadId: string) {
    return this.uploads.uploadSessionOwner(uploadId);
  }

  queryUpload(uploadId: string, context: OriginOperationContext) {
    return this.uploads.queryUpload(uploadId, context);
  }

  cancelUpload(uploadId: string, context: OperationContext) {
    return this.uploads.cancelUpload(uploadId, context);
  }

  async getFile(name: string, context: OriginOperationContext): Promise<File> {
    const path = resourcePath(name, "files");
    await assertOwner(this.ownership, "file", name, context.caller.ownerId);
    const file = await this.onOwned({ kind: "file", name }, () =>
      this.client.json<File>({
        method: "GET",
        target: path,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    return clientFile(file, context);
  }

  async listFiles(query: PageQuery, context: OriginOperationContext): Promise<ListFilesResponse> {
    const page = await listOwned<File>(this, "file", "files", query, context);
    const files = page.items.map((file) => clientFile(file, context));
    return {
      ...(files.length ? { files } : {}),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  }

  async deleteFile(name: string, context: OperationContext): Promise<void> {
    const path = resourcePath(name, "files");
    if (!(await this.ownership.owns("file", name, context.caller.ownerId))) throw fileDenied(name);
    await this.onOwned({ kind: "file", name }, () =>
      this.client.json({
        method: "DELETE",
        target: path,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    await this.ownership.forget("file", name);
  }

  async createCachedContent(
    request: CachedContentCreate,
    context: OperationContext,
  ): Promise<CachedContent> {
    // The quota's place is reserved before anything goes upstream (counted and recorded in
    // one transaction); the size is the cached input as sent.
    const { bytes: sizeBytes } = await jsonTextWithSize(cachedInputOf(request));
    const quota = this.dependencies.cacheQuota;
    const ownerId = context.caller.ownerId;
    const reservation = quota
      ? await this.ownership.reserve("cachedContent", ownerId, sizeBytes, {
          admit: (usage) => assertCacheQuota(usage, sizeBytes, quota),
        })
      : null;
    let created: CachedContent;
    try {
      // No idempotency key exists upstream, so a create is retried only if it never left.
      created = await this.withReferences(
        { operation: "createCachedContent", request },
        context,
        (body) =>
          this.client.json<CachedContent>({
            method: "POST",
            target: `${API}/cachedContents`,
            ...body,
            signal: context.signal,
            safety: "create",
          }),
      );
      if (typeof created?.name !== "string")
        throw malformedUpstream("a created cached content without a name");
    } catch (error) {
      if (reservation) await this.ownership.forget("cachedContent", reservation);
      throw error;
    }
    // The record lasts as long as the cache; without an expireTime, until deleted or found gone.
    const lifetime = {
      expiresAt: upstreamDeadline(created.expireTime, created.updateTime ?? created.createTime),
      sizeBytes,
    };
    if (reservation)
      await this.ownership.settle("cachedContent", reservation, created.name, ownerId, lifetime);
    else await this.ownership.record("cachedContent", created.name, ownerId, lifetime);
    return created;
  }

  async listCachedContents(
    query: PageQuery,
    context: OperationContext,
  ): Promise<ListCachedContentsResponse> {
    const page = await listOwned<CachedContent>(
      this,
      "cachedContent",
      "cachedContents",
      query,
      context,
    );
    return {
      ...(page.items.length ? { cachedContents: page.items } : {}),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  }

  async getCachedContent(name: string, context: OperationContext): Promise<CachedContent> {
    const path = resourcePath(name, "cachedContents");
    if (!(await this.ownership.owns("cachedContent", name, context.caller.ownerId)))
      throw cachedContentDenied();
    return this.onOwned({ kind: "cachedContent", name }, () =>
      this.client.json<CachedContent>({
        method: "GET",
        target: path,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
  }

  async updateCachedContent(
    name: string,
    update: CachedContentUpdate,
    context: OperationContext,
  ): Promise<CachedContent> {
    const path = resourcePath(name, "cachedContents");
    if (!(await this.ownership.owns("cachedContent", name, context.caller.ownerId)))
      throw cachedContentDenied();
    // Setting an expiration twice leaves the same state: safe to retry.
    const updated = await this.onOwned({ kind: "cachedContent", name }, () =>
      this.client.json<CachedContent>({
        method: "PATCH",
        target: path,
        json: update,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    const expiresAt = upstreamDeadline(updated?.expireTime, updated?.updateTime);
    if (expiresAt !== null) await this.ownership.setExpiry("cachedContent", name, expiresAt);
    return updated;
  }

  async deleteCachedContent(name: string, context: OperationContext): Promise<void> {
    const path = resourcePath(name, "cachedContents");
    if (!(await this.ownership.owns("cachedContent", name, context.caller.ownerId)))
      throw cachedContentDenied();
    await this.onOwned({ kind: "cachedContent", name }, () =>
      this.client.json({
        method: "DELETE",
        target: path,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    await this.ownership.forget("cachedContent", name);
  }

  /** The batch's results File, once it has one, becomes its owner's (the upstream made it for the batch). */
  private async adoptResults(operation: BatchOperation, ownerId: string): Promise<BatchOperation> {
    const file = operation.response?.responsesFile ?? operation.metadata?.output?.responsesFile;
    const name = typeof file === "string" ? fileNameOfUri(file) : null;
    // Recorded once (a later read must not move the file's expiry), 48 hours like any file.
    if (name !== null && !(await this.ownership.owns("file", name, ownerId)))
      await this.ownership.record("file", name, ownerId, {
        expiresAt: Date.now() + FILE_LIFETIME_MS,
      });
    return operation;
  }

  async embedContent(
    model: string,
    request: EmbedContentRequest,
    context: OperationContext,
  ): Promise<EmbedContentResponse> {
    const target = `${resourcePath(model, "models")}:embedContent`;
    return this.withReferences({ operation: "embedContent", request }, context, (body) =>
      this.client.json<EmbedContentResponse>({
        method: "POST",
        target,
        ...body,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
  }

  async batchEmbedContents(
    model: string,
    request: BatchEmbedContentsRequest,
    context: OperationContext,
  ): Promise<BatchEmbedContentsResponse> {
    const target = `${resourcePath(model, "models")}:batchEmbedContents`;
    return this.withReferences({ operation: "batchEmbedContents", request }, context, (body) =>
      this.client.json<BatchEmbedContentsResponse>({
        method: "POST",
        target,
        ...body,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
  }

  async createBatch(
    model: string,
    request: BatchGenerateContentRequest,
    context: OperationContext,
  ): Promise<BatchOperation> {
    return this.createOwnedBatch(
      `${resourcePath(model, "models")}:batchGenerateContent`,
      { operation: "batchGenerateContent", request },
      context,
    );
  }

  async asyncBatchEmbedContent(
    model: string,
    request: AsyncBatchEmbedContentRequest,
    context: OperationContext,
  ): Promise<BatchOperation> {
    return this.createOwnedBatch(
      `${resourcePath(model, "models")}:asyncBatchEmbedContent`,
      { operation: "asyncBatchEmbedContent", request },
      context,
    );
  }

  /** Creates a batch of either kind upstream and records it as the caller's. */
  private async createOwnedBatch(
    target: string,
    input: Extract<
      ReferencingRequest,
      { operation: "batchGenerateContent" | "asyncBatchEmbedContent" }
    >,
    context: OperationContext,
  ): Promise<BatchOperation> {
    // The input file and every reference of the inline requests: the caller's, or 403; and
    // every resource the input file's lines name, as read when it was uploaded.
    const inputFile = input.request.batch.inputConfig.fileName;
    if (inputFile !== undefined) await this.checkInputFile(inputFile, context);
    // Creating a batch is not idempotent upstream: retried only when it never left.
    const created = await this.withReferences(input, context, (body) =>
      this.client.json<BatchOperation>({
        method: "POST",
        target,
        ...body,
        signal: context.signal,
        safety: "create",
      }),
    );
    if (typeof created?.name !== "string" || !/^batches\/[^/]+$/.test(created.name))
      throw malformedUpstream("a created batch without a name");
    await this.ownership.record("batch", created.name, context.caller.ownerId);
    return created;
  }

  /**
   * A batch's input file: the caller's, read as it was uploaded through the gateway
   * (batch-file-scan.ts), and naming nothing but the caller's own resources. A file the
   * gateway did not read (uploaded elsewhere or before, of another type, its reading cut off)
   * cannot be checked, so no batch runs from it: the service lets nobody download an upload.
   */
  private async checkInputFile(name: string, context: OperationContext): Promise<void> {
    const ownerId = context.caller.ownerId;
    const mentions = await this.ownership.mentionsOf("file", name, ownerId);
    if (mentions === null) {
      if (!(await this.ownership.owns("file", name, ownerId))) throw fileDenied(name);
      throw unreadInputFile(name);
    }
    await assertOwnsAll(mentions.map(resourceNameOf), { ownerId, ownership: this.ownership });
  }

  async getBatch(name: string, context: OperationContext): Promise<BatchOperation> {
    const path = resourcePath(name, "batches");
    await assertOwner(this.ownership, "batch", name, context.caller.ownerId);
    const operation = await this.onOwned({ kind: "batch", name }, () =>
      this.client.json<BatchOperation>({
        method: "GET",
        target: path,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    return this.adoptResults(operation, context.caller.ownerId);
  }

  async listBatches(
    query: BatchListQuery,
    context: OperationContext,
  ): Promise<ListBatchesResponse> {
    const page = await listOwned<BatchOperation>(
      this,
      "batch",
      "batches",
      query,
      context,
      "operations",
    );
    const operations: BatchOperation[] = [];
    for (const operation of page.items)
      operations.push(await this.adoptResults(operation, context.caller.ownerId));
    return {
      ...(operations.length ? { operations } : {}),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  }

  async cancelBatch(name: string, context: OperationContext): Promise<void> {
    const path = resourcePath(name, "batches");
    await assertOwner(this.ownership, "batch", name, context.caller.ownerId);
    // Cancelling twice leaves the same state: safe to retry.
    await this.onOwned({ kind: "batch", name }, () =>
      this.client.json({
        method: "POST",
        target: `${path}:cancel`,
        json: {},
        signal: context.signal,
        safety: "idempotent",
      }),
    );
  }

  async deleteBatch(name: string, context: OperationContext): Promise<void> {
    const path = resourcePath(name, "batches");
    await assertOwner(this.ownership, "batch", name, context.caller.ownerId);
    await this.onOwned({ kind: "batch", name }, () =>
      this.client.json({
        method: "DELETE",
        target: path,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    await this.ownership.forget("batch", name);
  }

  /** The bytes of a generated file, passed through as the upstream sends them, never held whole. */
  async downloadFile(name: string, context: OperationContext): Promise<FileDownload> {
    const path = resourcePath(name, "files");
    await assertOwner(this.ownership, "file", name, context.caller.ownerId);
    const response = await this.onOwned({ kind: "file", name }, () =>
      this.client.open({
        method: "GET",
        target: `/download${path}:download`,
        query: { alt: "media" },
        signal: context.signal,
        safety: "idempotent",
      }),
    );
    const length = Number(header(response, "content-length"));
    return {
      // A header the upstream wrote is scrubbed like its bodies.
      mimeType: this.client.scrub.text(
        header(response, "content-type") ?? "application/octet-stream",
      ),
      ...(Number.isSafeInteger(length) && length >= 0 ? { sizeBytes: length } : {}),
      body: webStreamOf(response.body),
    };
  }

  createFileSearchStore(request: FileSearchStoreCreate, context: OperationContext) {
    return this.fileSearch.create(request, context);
  }

  listFileSearchStores(query: PageQuery, context: OperationContext) {
    return this.fileSearch.list(query, context);
  }

  getFileSearchStore(name: string, context: OperationContext) {
    return this.fileSearch.getStore(name, context);
  }

  deleteFileSearchStore(name: string, force: boolean, context: OperationContext) {
    return this.fileSearch.deleteStore(name, force, context);
  }

  startFileSearchStoreUpload(
    storeName: string,
    request: FileSearchUploadStartRequest,
    context: OperationContext,
  ) {
    return this.fileSearch.startUpload(storeName, request, context);
  }

  importFileToFileSearchStore(
    storeName: string,
    request: ImportFileRequest,
    context: OperationContext,
  ) {
    return this.fileSearch.importFile(storeName, request, context);
  }

  listDocuments(storeName: string, query: PageQuery, context: OperationContext) {
    return this.fileSearch.listDocuments(storeName, query, context);
  }

  getDocument(name: string, context: OperationContext) {
    return this.fileSearch.getDocument(name, context);
  }

  deleteDocument(name: string, force: boolean, context: OperationContext) {
    return this.fileSearch.deleteDocument(name, force, context);
  }

  getFileSearchOperation(name: string, context: OperationContext) {
    return this.fileSearch.getOperation(name, context);
  }

  openaiChatCompletion(body: unknown, context: OperationContext) {
    // The envelope as the gateway reads it (lib/gemini/openai/openai-envelope): a stream is held.
    const streams = (body as OpenAIEnvelope | null)?.stream === true;
    return this.openai.post("chat/completions", context, { held: streams });
  }

  openaiEmbeddings(_body: unknown, context: OperationContext) {
    return this.openai.post("embeddings", context);
  }

  openaiListModels(context: OperationContext) {
    return this.openai.get<OpenAIModelList>("models", context);
  }

  openaiGetModel(model: string, context: OperationContext) {
    return this.openai.get<OpenAIModel>(`models/${encodeURIComponent(model)}`, context);
  }

  createInteraction(body: unknown, context: OperationContext) {
    return this.interactions.create(body as InteractionEnvelope, context);
  }

  streamCreateInteraction(body: unknown, context: OperationContext) {
    return this.interactions.streamCreate(body as InteractionEnvelope, context);
  }

  getInteraction(id: string, query: InteractionGetQuery, context: OperationContext) {
    return this.interactions.get(id, query, context);
  }

  streamInteraction(id: string, query: InteractionGetQuery, context: OperationContext) {
    return this.interactions.stream(id, query, context);
  }

  cancelInteraction(id: string, context: OperationContext) {
    return this.interactions.cancel(id, context);
  }

  deleteInteraction(id: string, context: OperationContext) {
    return this.interactions.delete(id, context);
  }

  forwardUnmodelled(call: UnmodelledCall, context: OperationContext) {
    return forwardUnmodelled(this.client, this.ownership, call, context);
  }
}

/** The upstream backend for this process's configuration. */
export function createUpstreamBackend(dependencies: UpstreamBackendDependencies): UpstreamBackend {
  return new UpstreamBackend(dependencies);
}
