import "server-only";
import type { OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { UpstreamUploadStore } from "@/lib/db/stores/upstream-upload-store";
import { ApiError } from "@/lib/gemini/api-error";
import { randomBytes } from "node:crypto";
import type {
  Backend,
  BatchListQuery,
  FileDownload,
  FileUploadRequest,
  OperationContext,
  OriginOperationContext,
  PageQuery,
  PassedOnJson,
  UploadChunkRequest,
  UploadStartRequest,
  UploadStatus,
} from "@/lib/gemini/backend/contract";
import type { ReferencingRequest } from "@/lib/gemini/references";
import {
  assertCacheQuota,
  cachedInputOf,
  utf8Length,
  type CacheQuota,
} from "@/lib/gemini/backend/quotas";
import type {
  BatchGenerateContentRequest,
  BatchOperation,
  CachedContent,
  CachedContentCreate,
  CachedContentUpdate,
  CountTokensRequest,
  CountTokensResponse,
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
import { assertOwner, type OwnedKind } from "../persistence/ownership";
import { cachedContentDenied, fileDenied } from "@/lib/gemini/resource-errors";
import { decodePageToken, encodePageToken, invalidPageToken } from "@/lib/gemini/page-token";
import { fileNameOfUri } from "@/lib/gemini/references";
import { goneReferences, saysGone, type NamedResource } from "./gone-resources";
import { checkReferences } from "./request-references";
import { readUpstreamEvents } from "./sse-reader";
import {
  readBodyText,
  UpstreamClient,
  webStreamOf,
  type UpstreamResponse,
} from "./upstream-client";
import { malformedUpstream } from "./upstream-errors";

/**
 * The gateway: the Backend interface answered by forwarding each operation to the configured
 * upstream with the server's key. It parses only what it must know: names of created
 * caches and files (ownership), references to them in requests (permission), and stream
 * events (to pass each on the moment it is complete).
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

const API = "/v1beta";
/** A bytes part's Content-Type worth passing on (type/subtype, optional parameters, one line). */
const MEDIA_TYPE = /^[\w!#$&^.+-]{1,127}\/[\w!#$&^.+-]{1,127}(?:\s*;[^\r\n]{0,200})?$/;
const UPLOAD_API = "/upload/v1beta/files";
/** Files live 48 hours upstream: the expiry of a file whose answer gives none. */
const FILE_LIFETIME_MS = 48 * 3_600_000;
/** Upstream page sizes used while filtering lists down to one owner's items (the service's maxima). */
const UPSTREAM_PAGE = { file: 100, cachedContent: 1000, batch: 100 } as const;
/** Upstream pages read for one list call before answering with what was found so far. */
const MAX_PAGES_PER_LIST = 20;

/** `models/x`, `cachedContents/x`, `files/x`, `batches/x`: the only names ever put in an upstream path. */
function resourcePath(
  name: string,
  collection: "models" | "cachedContents" | "files" | "batches",
): string {
  const match = new RegExp(`^${collection}/([A-Za-z0-9][A-Za-z0-9._-]*)$`).exec(name);
  if (!match) throw ApiError.invalidArgument(`Invalid resource name "${name.slice(0, 80)}".`);
  return `${API}/${collection}/${match[1]}`;
}

interface OwnedPagePosition {
  upstreamToken: string | null;
  skip: number;
}

function ownedPosition(value: unknown): OwnedPagePosition {
  if (!Array.isArray(value) || value.length !== 2) throw invalidPageToken();
  const [upstreamToken, skip] = value as unknown[];
  if (
    (upstreamToken !== null && typeof upstreamToken !== "string") ||
    !Number.isInteger(skip) ||
    (skip as number) < 0
  )
    throw invalidPageToken();
  return { upstreamToken: upstreamToken as string | null, skip: skip as number };
}

function header(response: UpstreamResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function uploadStatusOf(value: string | undefined): UploadStatus["status"] {
  const status = (value ?? "").toLowerCase();
  if (status === "final") return "final";
  if (status === "cancelled") return "cancelled";
  return "active";
}

/** Epoch ms of an upstream RFC 3339 time, or null when absent or unreadable. */
function upstreamTime(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

/**
 * When a resource the upstream just answered with ends, on this server's clock: the time left
 * is read in the upstream's own clock (its expiry less the answer's `updateTime`, the upstream's
 * "now" of that answer), so a clock that differs between the two never ends a record early or
 * late. Null when the answer gives no expiry.
 */
function upstreamDeadline(expiry: unknown, answeredAt: unknown): number | null {
  const end = upstreamTime(expiry);
  if (end === null) return null;
  const reference = upstreamTime(answeredAt);
  return reference === null ? end : Date.now() + Math.max(0, end - reference);
}

function pageQuery(query: PageQuery): Record<string, string | undefined> {
  return {
    pageSize: query.pageSize === undefined ? undefined : String(query.pageSize),
    pageToken: query.pageToken,
  };
}

export class UpstreamBackend implements Backend {
  readonly mode = "upstream" as const;
  readonly client: UpstreamClient;
  readonly ownership: OwnershipStore;
  readonly uploadSessions: UpstreamUploadStore;

  constructor(private readonly dependencies: UpstreamBackendDependencies) {
    this.client = dependencies.client ?? new UpstreamClient(dependencies.settings);
    this.ownership = dependencies.ownership;
    this.uploadSessions = dependencies.uploadSessions;
  }

  private get settings(): UpstreamSettings {
    return this.dependencies.settings;
  }

  /**
   * Sends `input.request` once its cache and file references are checked against the caller
   * and written for the upstream; when the upstream answers that one of them is gone, its
   * record ends with the answer.
   */
  private async withReferences<Input extends ReferencingRequest, Answer>(
    input: Input,
    context: OperationContext,
    send: (request: Input["request"]) => Promise<Answer>,
  ): Promise<Answer> {
    const named = await checkReferences(input, {
      ownerId: context.caller.ownerId,
      ownership: this.ownership,
      upstreamBaseUrl: this.settings.baseUrl,
    });
    try {
      return await send(input.request);
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

  /** A file's record lasts until its `expirationTime` (48 hours when the answer gives none). */
  private async recordFile(file: File, ownerId: string): Promise<void> {
    await this.ownership.record("file", file.name, ownerId, {
      expiresAt:
        upstreamDeadline(file.expirationTime, file.updateTime ?? file.createTime) ??
        Date.now() + FILE_LIFETIME_MS,
    });
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
  ): Promise<CountTokensResponse> {
    const target = `${resourcePath(model, "models")}:countTokens`;
    return this.withReferences({ operation: "countTokens", request }, context, (json) =>
      this.client.json<CountTokensResponse>({
        method: "POST",
        target,
        json,
        signal: context.signal,
        safety: "idempotent",
      }),
    );
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
      (json) =>
        this.client.jsonOrPassedOn<GenerateContentResponse>({
          method: "POST",
          target,
          json,
          signal: context.signal,
          safety: "idempotent",
        }),
    );
    return "value" in answer ? answer.value : { passedOnJson: answer.pieces };
  }

  async *streamGenerateContent(
    model: string,
    request: GenerateContentRequest,
    context: OperationContext,
  ): AsyncGenerator<GenerateContentResponse> {
    const target = `${resourcePath(model, "models")}:streamGenerateContent`;
    // Retried only until the upstream answers 200: after that, chunks may have reached the client.
    const response = await this.withReferences(
      { operation: "generateContent", request },
      context,
      (json) =>
        this.client.open({
          method: "POST",
          target,
          query: { alt: "sse" },
          json,
          signal: context.signal,
          safety: "idempotent",
        }),
    );
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

  /** A file as the client sees it: its `uri` on the studio, like the local engine's. */
  private clientFile(file: File, context: OriginOperationContext): File {
    const name = typeof file.name === "string" ? fileNameOfUri(file.name) : null;
    if (name === null) return file;
    const local: File = { ...file, uri: `${context.origin}/v1beta/${name}` };
    if (file.downloadUri !== undefined)
      local.downloadUri = `${context.origin}/download/v1beta/${name}:download?alt=media`;
    return local;
  }

  /**
   * One page of the caller's own items: upstream pages are read in order and filtered to the
   * names recorded for the caller; the page token remembers the upstream page and the
   * position in it where the next page starts.
   */
  private async listOwned<T extends { name: string }>(
    kind: OwnedKind,
    collection: "files" | "cachedContents" | "batches",
    query: PageQuery & { filter?: string },
    context: OperationContext,
    /** The list's field in the upstream answer, when it is not the collection's name (`operations`). */
    itemsKey: string = collection,
  ): Promise<{ items: T[]; nextPageToken?: string }> {
    const wanted = query.pageSize ?? 10;
    // Where in the upstream's list the next page starts: its page token (null: the first) and
    // how many of that page's items were looked at. Bound to the caller and the list.
    const scope = `owned:${collection}:${context.caller.ownerId}`;
    let position = query.pageToken
      ? ownedPosition(decodePageToken(query.pageToken, scope))
      : { upstreamToken: null, skip: 0 };
    const token = (next: OwnedPagePosition) =>
      encodePageToken([next.upstreamToken, next.skip], scope);
    const items: T[] = [];
    for (let pages = 0; pages < MAX_PAGES_PER_LIST; pages++) {
      const page = await this.client.json<Record<string, unknown>>({
        method: "GET",
        target: `${API}/${collection}`,
        query: {
          pageSize: String(UPSTREAM_PAGE[kind]),
          pageToken: position.upstreamToken ?? undefined,
          filter: query.filter,
        },
        signal: context.signal,
        safety: "idempotent",
      });
      const raw = Array.isArray(page[itemsKey]) ? (page[itemsKey] as T[]) : [];
      const upstreamNext =
        typeof page.nextPageToken === "string" && page.nextPageToken !== ""
          ? page.nextPageToken
          : null;
      const owners = await this.ownership.ownersOf(
        raw
          .slice(position.skip)
          .filter((item) => typeof item?.name === "string")
          .map((item) => ({ kind, name: item.name })),
      );
      for (let index = position.skip; index < raw.length; index++) {
        const item = raw[index]!;
        if (
          typeof item?.name !== "string" ||
          owners.get(`${kind}:${item.name}`) !== context.caller.ownerId
        )
          continue;
        items.push(item);
        if (items.length === wanted) {
          const rest =
            index + 1 < raw.length
              ? { upstreamToken: position.upstreamToken, skip: index + 1 }
              : upstreamNext
                ? { upstreamToken: upstreamNext, skip: 0 }
                : null;
          return rest ? { items, nextPageToken: token(rest) } : { items };
        }
      }
      if (!upstreamNext) return { items };
      position = { upstreamToken: upstreamNext, skip: 0 };
    }
    return { items, nextPageToken: token(position) };
  }

  async startUpload(
    request: UploadStartRequest,
    context: OperationContext,
  ): Promise<{ uploadId: string }> {
    const headers: Record<string, string> = {
      "x-goog-upload-protocol": "resumable",
      "x-goog-upload-command": "start",
    };
    if (request.declaredSize !== undefined)
      headers["x-goog-upload-header-content-length"] = String(request.declaredSize);
    if (request.contentType !== undefined)
      headers["x-goog-upload-header-content-type"] = request.contentType;
    // A start only opens a session; an unused one expires, so a retry cannot duplicate a file.
    const response = await this.client.open({
      method: "POST",
      target: UPLOAD_API,
      json: { file: request.file },
      headers,
      signal: context.signal,
      safety: "idempotent",
    });
    await response.body.dump().catch(() => undefined);
    const upstreamUrl = header(response, "x-goog-upload-url");
    if (!upstreamUrl || !this.client.isUpstreamUrl(upstreamUrl)) {
      throw malformedUpstream("an upload session URL outside its own origin");
    }
    return { uploadId: await this.uploadSessions.create(context.caller.ownerId, upstreamUrl) };
  }

  private async session(uploadId: string) {
    const session = await this.uploadSessions.find(uploadId);
    if (!session) throw ApiError.notFound("The upload session does not exist or has expired.");
    return session;
  }

  async uploadChunk(
    uploadId: string,
    chunk: UploadChunkRequest,
    context: OriginOperationContext,
  ): Promise<UploadStatus> {
    const session = await this.session(uploadId);
    // Until the upstream answers, what it holds is unknown (a query then asks it).
    await this.uploadSessions.setReceived(session.id, null);
    const command = [chunk.upload ? "upload" : null, chunk.finalize ? "finalize" : null]
      .filter(Boolean)
      .join(", ");
    const headers: Record<string, string> = { "x-goog-upload-command": command };
    if (chunk.offset !== undefined) headers["x-goog-upload-offset"] = String(chunk.offset);
    let sent = 0;
    let body: AsyncIterable<Uint8Array> | undefined;
    if (chunk.body) {
      const reader = chunk.body.getReader();
      body = (async function* count() {
        let finished = false;
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) {
              finished = true;
              return;
            }
            sent += value.byteLength;
            yield value;
          }
        } finally {
          // The upstream stopped listening: stop reading the client's bytes too.
          if (!finished) await reader.cancel().catch(() => undefined);
        }
      })();
      if (chunk.contentLength !== undefined)
        headers["content-length"] = String(chunk.contentLength);
    } else {
      headers["content-length"] = "0";
    }
    const response = await this.client.open({
      method: "POST",
      target: session.upstreamUrl,
      body,
      headers,
      signal: context.signal,
      safety: "never",
    });
    return this.uploadAnswer(session, response, (chunk.offset ?? 0) + sent, context);
  }

  private async uploadAnswer(
    session: { id: string; ownerId: string },
    response: UpstreamResponse,
    fallbackReceived: number,
    context: OriginOperationContext,
  ): Promise<UploadStatus> {
    const status = uploadStatusOf(header(response, "x-goog-upload-status"));
    const receivedHeader = Number(header(response, "x-goog-upload-size-received"));
    const text = await readBodyText(response.body, 16 * 1024 * 1024);
    const sizeReceived =
      Number.isFinite(receivedHeader) &&
      header(response, "x-goog-upload-size-received") !== undefined
        ? receivedHeader
        : fallbackReceived;
    if (status === "active") await this.uploadSessions.setReceived(session.id, sizeReceived);
    if (status !== "final") return { status, sizeReceived };
    const file = await this.recordUploadedFile(text, session.ownerId);
    await this.uploadSessions.delete(session.id);
    return {
      status,
      sizeReceived: Number(file.sizeBytes ?? sizeReceived),
      file: this.clientFile(file, context),
    };
  }

  /** The file of a finished upload's answer `{"file": {...}}`, recorded as the owner's. */
  private async recordUploadedFile(text: string, ownerId: string): Promise<File> {
    let file: File | undefined;
    try {
      file = text.trim() ? ((JSON.parse(text) as { file?: File }).file ?? undefined) : undefined;
    } catch {
      throw malformedUpstream("an upload answer that is not JSON");
    }
    if (!file || typeof file.name !== "string")
      throw malformedUpstream("a finished upload without its file");
    await this.recordFile(file, ownerId);
    return file;
  }

  /**
   * A multipart upload, forwarded as one: a multipart body of our own framing (the client's
   * metadata, then its bytes streamed as they arrive, never held whole), so the upstream
   * sees nothing of the client's request but these. When the client's body turns out
   * malformed the upstream request is cut off before its closing boundary (the upstream
   * stores nothing) and the client gets the 400.
   */
  async uploadFile(request: FileUploadRequest, context: OriginOperationContext): Promise<File> {
    const boundary = `genstudio-${randomBytes(18).toString("hex")}`;
    const mediaType =
      request.contentType && MEDIA_TYPE.test(request.contentType)
        ? request.contentType
        : "application/octet-stream";
    const head =
      `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n` +
      `${JSON.stringify({ file: request.file })}\r\n` +
      `--${boundary}\r\nContent-Type: ${mediaType}\r\n\r\n`;
    const reader = request.body.getReader();
    let clientFailure: unknown;
    const body = (async function* multipart() {
      yield Buffer.from(head, "utf8");
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read().catch((error: unknown) => {
            clientFailure = error;
            throw error;
          });
          if (done) break;
          yield value;
        }
        finished = true;
      } finally {
        // The upstream stopped listening: stop reading the client's bytes too.
        if (!finished && clientFailure === undefined) await reader.cancel().catch(() => undefined);
      }
      yield Buffer.from(`\r\n--${boundary}--`, "utf8");
    })();
    let response: UpstreamResponse;
    try {
      response = await this.client.open({
        method: "POST",
        target: UPLOAD_API,
        body,
        headers: {
          "x-goog-upload-protocol": "multipart",
          "content-type": `multipart/related; boundary=${boundary}`,
        },
        signal: context.signal,
        safety: "never",
      });
    } catch (error) {
      throw clientFailure instanceof ApiError ? clientFailure : error;
    }
    const text = await readBodyText(response.body, 16 * 1024 * 1024);
    return this.clientFile(await this.recordUploadedFile(text, context.caller.ownerId), context);
  }

  async uploadSessionOwner(uploadId: string): Promise<string | null> {
    return (await this.uploadSessions.find(uploadId))?.ownerId ?? null;
  }

  /**
   * The session's status: answered from what the gateway knows (the bytes the upstream
   * confirmed) without an upstream call, unless a chunk is under way or broke off.
   */
  async queryUpload(uploadId: string, context: OriginOperationContext): Promise<UploadStatus> {
    const session = await this.session(uploadId);
    if (session.sizeReceived !== null)
      return { status: "active", sizeReceived: session.sizeReceived };
    const response = await this.client.open({
      method: "POST",
      target: session.upstreamUrl,
      headers: { "x-goog-upload-command": "query", "content-length": "0" },
      signal: context.signal,
      safety: "idempotent",
    });
    return this.uploadAnswer(session, response, 0, context);
  }

  async cancelUpload(uploadId: string, context: OperationContext): Promise<UploadStatus> {
    const session = await this.session(uploadId);
    const response = await this.client.open({
      method: "POST",
      target: session.upstreamUrl,
      headers: { "x-goog-upload-command": "cancel", "content-length": "0" },
      signal: context.signal,
      safety: "idempotent",
    });
    await response.body.dump().catch(() => undefined);
    await this.uploadSessions.delete(session.id);
    return {
      status: "cancelled",
      sizeReceived: Number(header(response, "x-goog-upload-size-received") ?? 0) || 0,
    };
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
    return this.clientFile(file, context);
  }

  async listFiles(query: PageQuery, context: OriginOperationContext): Promise<ListFilesResponse> {
    const page = await this.listOwned<File>("file", "files", query, context);
    const files = page.items.map((file) => this.clientFile(file, context));
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
    // The quota is checked before anything goes upstream; the size is the cached input as sent.
    const sizeBytes = utf8Length(JSON.stringify(cachedInputOf(request)));
    const quota = this.dependencies.cacheQuota;
    if (quota)
      assertCacheQuota(
        await this.ownership.usage("cachedContent", context.caller.ownerId),
        sizeBytes,
        quota,
      );
    // No idempotency key exists upstream, so a create is retried only if it never left.
    const created = await this.withReferences(
      { operation: "createCachedContent", request },
      context,
      (json) =>
        this.client.json<CachedContent>({
          method: "POST",
          target: `${API}/cachedContents`,
          json,
          signal: context.signal,
          safety: "create",
        }),
    );
    if (typeof created?.name !== "string")
      throw malformedUpstream("a created cached content without a name");
    // The record lasts as long as the cache; without an expireTime, until deleted or found gone.
    await this.ownership.record("cachedContent", created.name, context.caller.ownerId, {
      expiresAt: upstreamDeadline(created.expireTime, created.updateTime ?? created.createTime),
      sizeBytes,
    });
    return created;
  }

  async listCachedContents(
    query: PageQuery,
    context: OperationContext,
  ): Promise<ListCachedContentsResponse> {
    const page = await this.listOwned<CachedContent>(
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

  async createBatch(
    model: string,
    request: BatchGenerateContentRequest,
    context: OperationContext,
  ): Promise<BatchOperation> {
    // The input file and every reference of the inline requests: the caller's, or 403.
    const target = `${resourcePath(model, "models")}:batchGenerateContent`;
    // Creating a batch is not idempotent upstream: retried only when it never left.
    const created = await this.withReferences(
      { operation: "batchGenerateContent", request },
      context,
      (json) =>
        this.client.json<BatchOperation>({
          method: "POST",
          target,
          json,
          signal: context.signal,
          safety: "create",
        }),
    );
    if (typeof created?.name !== "string" || !/^batches\/[^/]+$/.test(created.name))
      throw malformedUpstream("a created batch without a name");
    await this.ownership.record("batch", created.name, context.caller.ownerId);
    return created;
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
    const page = await this.listOwned<BatchOperation>(
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
      mimeType: header(response, "content-type") ?? "application/octet-stream",
      ...(Number.isSafeInteger(length) && length >= 0 ? { sizeBytes: length } : {}),
      body: webStreamOf(response.body),
    };
  }
}

/** The upstream backend for this process's configuration. */
export function createUpstreamBackend(dependencies: UpstreamBackendDependencies): UpstreamBackend {
  return new UpstreamBackend(dependencies);
}
