/**
 * The one interface both backends implement: the local engine (lib/engine) and the upstream
 * proxy (lib/server/upstream). One method per API operation. Requests arrive in their
 * canonical shape, read once at the edge by lib/gemini/validate's `read…`/`parse…` entry
 * points: the local engine adds the model's rules, the upstream checks ownership of every
 * resource the request names (lib/gemini/references, lib/gemini/resource-names) and forwards
 * the body as the client sent it (OperationContext.received). Every method may
 * throw ApiError. As long as the API is wide: one file, so both backends read one contract.
 */
import type { ApiVersion } from "../api-version-fields";
import type { UploadStart } from "../validate-upload";
import type { ForwardingFindings } from "../forwarding-read";
import type { Interaction, InteractionEvent, InteractionGetQuery } from "../interactions/types";
import type {
  AsyncBatchEmbedContentRequest,
  BatchEmbedContentsRequest,
  BatchEmbedContentsResponse,
  EmbedContentRequest,
  EmbedContentResponse,
} from "../embedding-types";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  OpenAIEmbeddingsResponse,
  OpenAIModel,
  OpenAIModelList,
} from "../openai/openai-types";
import type {
  Document,
  DocumentOptions,
  FileSearchOperation,
  FileSearchStore,
  FileSearchStoreCreate,
  ImportFileRequest,
  ListDocumentsResponse,
  ListFileSearchStoresResponse,
} from "../file-search-types";
import type {
  BatchGenerateContentRequest,
  BatchOperation,
  CachedContent,
  CachedContentCreate,
  CachedContentUpdate,
  CountTokensRequest,
  CountTokensResponse,
  GenerateContentRequest,
  File,
  GenerateContentResponse,
  ListCachedContentsResponse,
  ListBatchesResponse,
  ListFilesResponse,
  ListModelsResponse,
  Model,
  UsageMetadata,
} from "../types";

/**
 * Who is calling: files, caches and conversations belong to an owner (the workspace). The
 * person and the key say who acted within it, so usage and logs can be attributed.
 */
export interface Caller {
  /**
   * Stable owner id of the workspace acted on: `person:{id}` for a person (their sessions and
   * their keys alike, or the workspace an admin switched to), `key:{name}` for a key of
   * STUDIO_API_KEYS, `studio` for the shared workspace of the access code and the development
   * default (and the keys made in it).
   */
  ownerId: string;
  /** The person acting: signed in, or owner of the key. Absent in the single-person modes. */
  person?: CallerPerson;
  /** The API key the request carried; absent for browser sessions. */
  key?: CallerKey;
}

export interface CallerPerson {
  id: string;
  role: "admin" | "member";
}

export interface CallerKey {
  /** The key's id (a managed key's own; `env:{name}` for one of STUDIO_API_KEYS). */
  id: string;
  name: string;
  /** True for a key made in the studio (its limits and budgets apply); false for STUDIO_API_KEYS. */
  managed: boolean;
}

export interface PageQuery {
  pageSize?: number;
  pageToken?: string;
}

export interface OperationContext {
  caller: Caller;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /**
   * The request's body as the client sent it, when the backend forwards bodies (the gateway):
   * what it forwards, in place of the canonical request it checked. Absent for requests the
   * studio builds itself (a chat turn), which are forwarded in their canonical shape.
   */
  received?: ReceivedBody;
  /** The API version the request's path named; absent for requests the studio builds. */
  apiVersion?: ApiVersion;
}

/** A JSON body as received (lib/server/http/request-body's readOperationBody). */
export interface ReceivedBody {
  /** The bytes as they arrived, in their pieces. */
  bytes: Uint8Array[];
  size: number;
  /** What the forwarding read found besides the canonical request (lib/gemini/forwarding-read). */
  findings: ForwardingFindings;
}

/** Context of operations whose answers carry absolute URLs (file `uri`). */
export interface OriginOperationContext extends OperationContext {
  /** `scheme://host[:port]` the client used to reach us. */
  origin: string;
}

/** The start of a resumable upload: the `X-*-Upload-Header-*` values and the body's `file`. */
export interface UploadStartRequest {
  /** X-*-Upload-Header-Content-Length: the size the client announces, in bytes. */
  declaredSize?: number;
  /** X-*-Upload-Header-Content-Type, trimmed. */
  contentType?: string;
  /** What the start body `{"file": {...}}` chose for the new File. */
  file: UploadStart;
}

/** One request to an upload session with the `upload` and/or `finalize` command. */
export interface UploadChunkRequest {
  upload: boolean;
  finalize: boolean;
  /** X-*-Upload-Offset: bytes the client believes were already received. */
  offset?: number;
  /** Content-Length of this chunk when the client declared it. */
  contentLength?: number;
  /** The raw bytes, streamed: never parsed, never buffered whole. */
  body: ReadableStream<Uint8Array> | null;
}

/**
 * A single-request upload (`X-Goog-Upload-Protocol: multipart`): the metadata and the bytes
 * in one request, the bytes streamed.
 */
export interface FileUploadRequest {
  /** What the metadata part (`{"file": {...}}`, as a resumable start's body) chose for the new File. */
  file: UploadStart;
  /** Content-Type of the bytes part, when it had one. */
  contentType?: string;
  /** Most bytes the file can have: the request's Content-Length less what came before the bytes. */
  maxLength?: number;
  /**
   * The file's bytes, streamed: never buffered whole. It fails with the service's 400 when
   * the request turns out malformed or cut short; nothing may then be stored.
   */
  body: ReadableStream<Uint8Array>;
}

/** What an upload session answers: `X-*-Upload-Status`, the bytes received, and the file once final. */
export interface UploadStatus {
  status: "active" | "final" | "cancelled";
  sizeReceived: number;
  file?: File;
  /** A store upload's final answer: its operation, instead of a file. */
  operation?: FileSearchOperation;
}

/** The start of a store upload: the upload headers, and the document's options from the body. */
export interface FileSearchUploadStartRequest {
  declaredSize?: number;
  contentType?: string;
  document: DocumentOptions;
}

/**
 * A JSON answer passed on as it arrives, as text, instead of as a value: how the gateway
 * answers a generation too large to hold (images, audio). Each piece is ready to send.
 */
export interface PassedOnJson {
  passedOnJson: AsyncIterator<string>;
}

/**
 * A JSON answer passed on whole as the upstream wrote it (scrubbed, checked to be JSON), for
 * an operation whose answer the gateway does not read: a token count.
 */
export interface ForwardedJson {
  forwardedJson: string;
}

/** The query of `GET batches`: a page, and optionally a `filter` (`state=BATCH_STATE_...`). */
export interface BatchListQuery extends PageQuery {
  filter?: string;
}

/** A file's bytes for `files/{id}:download`, streamed: never held whole. */
export interface FileDownload {
  mimeType: string;
  /** Known for local files; the gateway passes the upstream's length on when it sends one. */
  sizeBytes?: number;
  body: ReadableStream<Uint8Array>;
}

/** An answer of the OpenAI-compatible endpoint: the engine's own, or the upstream's passed through. */
export type OpenAIAnswer<Value> = { value: Value } | { passedThrough: PassedThrough };

/** A chat completion: whole, or as chunks for a `stream: true` request. */
export type ChatCompletionAnswer =
  | OpenAIAnswer<ChatCompletion>
  | {
      chunks: AsyncIterable<ChatCompletionChunk>;
      /** The generation's usage once the chunks have ended (they carry it only when asked). */
      usage: () => UsageMetadata | undefined;
    };

export interface Backend {
  readonly mode: "local" | "upstream";
  listModels(query: PageQuery, context: OperationContext): Promise<ListModelsResponse>;
  getModel(model: string, context: OperationContext): Promise<Model>;
  countTokens(
    model: string,
    request: CountTokensRequest,
    context: OperationContext,
  ): Promise<CountTokensResponse | ForwardedJson>;
  generateContent(
    model: string,
    request: GenerateContentRequest,
    context: OperationContext,
  ): Promise<GenerateContentResponse | PassedOnJson>;
  /** Chunks carry text deltas; throwing after the first chunk is a mid-stream failure. */
  streamGenerateContent(
    model: string,
    request: GenerateContentRequest,
    context: OperationContext,
  ): AsyncIterable<GenerateContentResponse>;

  /** Opens a resumable upload; answers the opaque id the upload URL carries. */
  startUpload(
    request: UploadStartRequest,
    context: OperationContext,
  ): Promise<{ uploadId: string }>;
  /**
   * Sends bytes to (and/or finalizes) a session. The upload id is the capability: the
   * context's caller may be anonymous for these session calls, as with the service.
   */
  uploadChunk(
    uploadId: string,
    chunk: UploadChunkRequest,
    context: OriginOperationContext,
  ): Promise<UploadStatus>;
  queryUpload(uploadId: string, context: OriginOperationContext): Promise<UploadStatus>;
  /**
   * Who started the live upload session `uploadId`, or null when there is none: the session's
   * commands count against that owner's request rate, whoever sends them.
   */
  uploadSessionOwner(uploadId: string): Promise<string | null>;
  /** Stores a whole file sent in one request; answers the file (ACTIVE or PROCESSING). */
  uploadFile(request: FileUploadRequest, context: OriginOperationContext): Promise<File>;
  cancelUpload(uploadId: string, context: OperationContext): Promise<UploadStatus>;
  /** `name` is `files/{id}`. */
  getFile(name: string, context: OriginOperationContext): Promise<File>;
  listFiles(query: PageQuery, context: OriginOperationContext): Promise<ListFilesResponse>;
  deleteFile(name: string, context: OperationContext): Promise<void>;

  createCachedContent(
    request: CachedContentCreate,
    context: OperationContext,
  ): Promise<CachedContent>;
  listCachedContents(
    query: PageQuery,
    context: OperationContext,
  ): Promise<ListCachedContentsResponse>;
  /** `name` is `cachedContents/{id}`. */
  getCachedContent(name: string, context: OperationContext): Promise<CachedContent>;
  /** Only the expiration (ttl or expireTime) is updatable; the update mask was read at the edge. */
  updateCachedContent(
    name: string,
    update: CachedContentUpdate,
    context: OperationContext,
  ): Promise<CachedContent>;
  deleteCachedContent(name: string, context: OperationContext): Promise<void>;

  /** `models/{m}:embedContent`: one input's vector. */
  embedContent(
    model: string,
    request: EmbedContentRequest,
    context: OperationContext,
  ): Promise<EmbedContentResponse>;
  /** `models/{m}:batchEmbedContents`: a vector per request, in order. */
  batchEmbedContents(
    model: string,
    request: BatchEmbedContentsRequest,
    context: OperationContext,
  ): Promise<BatchEmbedContentsResponse>;
  /** `models/{m}:asyncBatchEmbedContent`: an embedding batch, a batch like any other (`batches/{id}`). */
  asyncBatchEmbedContent(
    model: string,
    request: AsyncBatchEmbedContentRequest,
    context: OperationContext,
  ): Promise<BatchOperation>;

  /**
   * `openai/chat/completions`. `body` is the JSON as the client sent it: the local engine reads
   * it as the service does (lib/gemini/openai/validate-openai) and translates it to its one
   * generation core and back (chunks when it asks to stream); the gateway checks the resources
   * it names and passes it and the upstream's answer through.
   */
  openaiChatCompletion(body: unknown, context: OperationContext): Promise<ChatCompletionAnswer>;
  /** `openai/embeddings`, `body` as for openaiChatCompletion. */
  openaiEmbeddings(
    body: unknown,
    context: OperationContext,
  ): Promise<OpenAIAnswer<OpenAIEmbeddingsResponse>>;
  /** `openai/models`. */
  openaiListModels(context: OperationContext): Promise<OpenAIAnswer<OpenAIModelList>>;
  /** `openai/models/{model}` (the id with or without `models/`). */
  openaiGetModel(model: string, context: OperationContext): Promise<OpenAIAnswer<OpenAIModel>>;

  /** `models/{m}:batchGenerateContent`. Answers the new batch's operation. */
  createBatch(
    model: string,
    request: BatchGenerateContentRequest,
    context: OperationContext,
  ): Promise<BatchOperation>;
  /** `name` is `batches/{id}`. */
  getBatch(name: string, context: OperationContext): Promise<BatchOperation>;
  listBatches(query: BatchListQuery, context: OperationContext): Promise<ListBatchesResponse>;
  cancelBatch(name: string, context: OperationContext): Promise<void>;
  deleteBatch(name: string, context: OperationContext): Promise<void>;
  /** `files/{id}:download?alt=media`: the bytes of one of the caller's generated files. */
  downloadFile(name: string, context: OperationContext): Promise<FileDownload>;

  createFileSearchStore(
    request: FileSearchStoreCreate,
    context: OperationContext,
  ): Promise<FileSearchStore>;
  listFileSearchStores(
    query: PageQuery,
    context: OperationContext,
  ): Promise<ListFileSearchStoresResponse>;
  /** `name` is `fileSearchStores/{id}`. */
  getFileSearchStore(name: string, context: OperationContext): Promise<FileSearchStore>;
  deleteFileSearchStore(name: string, force: boolean, context: OperationContext): Promise<void>;
  /** Opens a resumable upload of a document into store `storeName`; its chunks go to uploadChunk. */
  startFileSearchStoreUpload(
    storeName: string,
    request: FileSearchUploadStartRequest,
    context: OperationContext,
  ): Promise<{ uploadId: string }>;
  importFileToFileSearchStore(
    storeName: string,
    request: ImportFileRequest,
    context: OperationContext,
  ): Promise<FileSearchOperation>;
  listDocuments(
    storeName: string,
    query: PageQuery,
    context: OperationContext,
  ): Promise<ListDocumentsResponse>;
  /** `name` is `fileSearchStores/{id}/documents/{id}`. */
  getDocument(name: string, context: OperationContext): Promise<Document>;
  deleteDocument(name: string, force: boolean, context: OperationContext): Promise<void>;
  /** `fileSearchStores/{id}/operations/{id}` or `fileSearchStores/{id}/upload/operations/{id}`. */
  getFileSearchOperation(name: string, context: OperationContext): Promise<FileSearchOperation>;

  /**
   * `POST interactions` without `stream: true`: the ended interaction (begun, in the
   * background). `body` is the create body as the backend reads it, read once at the edge: its
   * JSON for the engine, which reads it strictly (lib/gemini/interactions/read-create); for the
   * gateway, which does not model this API, what it must know of it
   * (lib/gemini/interactions/envelope), the body itself being in `context.received`.
   */
  createInteraction(body: unknown, context: OperationContext): Promise<Interaction>;
  /** `POST interactions` with `stream: true`: its events; throwing before the first is an HTTP error. */
  streamCreateInteraction(
    body: unknown,
    context: OperationContext,
  ): AsyncIterable<InteractionEvent>;
  /** `GET interactions/{id}`; `id` as the client gave it. */
  getInteraction(
    id: string,
    query: InteractionGetQuery,
    context: OperationContext,
  ): Promise<Interaction>;
  /** `GET interactions/{id}?stream=true`: the stream from its start, or after `query.lastEventId`. */
  streamInteraction(
    id: string,
    query: InteractionGetQuery,
    context: OperationContext,
  ): AsyncIterable<InteractionEvent>;
  /** `POST interactions/{id}/cancel`: the interaction as the cancel left it. */
  cancelInteraction(id: string, context: OperationContext): Promise<Interaction>;
  deleteInteraction(id: string, context: OperationContext): Promise<void>;

  /**
   * A method the API surface does not model, which the operator lets the gateway forward
   * (GATEWAY_FORWARD_METHODS); only a backend that forwards has it. Its body, if any, is in
   * `context.received`.
   */
  forwardUnmodelled?(call: UnmodelledCall, context: OperationContext): Promise<PassedThrough>;
}

/** A method of the service the API surface does not model, as the client called it. */
export interface UnmodelledCall {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The version segment the client used: `v1beta`, `v1` or `v1alpha`. */
  version: string;
  /** The path after it, decoded: `models/gemini-2.5-flash:embedContent`. */
  path: string;
  /** The query's parameters, in order, without the client's own `key`. */
  query: [string, string][];
}

/** An upstream answer passed on as it arrives: its status, type and (scrubbed) body. */
export interface PassedThrough {
  status: number;
  contentType?: string;
  body: ReadableStream<Uint8Array>;
}
