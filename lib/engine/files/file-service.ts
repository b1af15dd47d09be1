/**
 * The files API of the local engine: resumable and single-request (multipart) uploads, the PROCESSING → ACTIVE/FAILED
 * lifecycle, get/list/delete with 48 h expiry and per-owner access, and the lookup the
 * generation and counting paths use for `fileData.fileUri`. Metadata in SQLite, bytes
 * under DATA_DIR. Differs knowingly: `uri` is built from the origin of each request.
 */
import { createHash } from "node:crypto";
import { isExternalUri } from "@/lib/gemini/schemas/rules/model-capability-rules";
import fs from "node:fs/promises";
import path from "node:path";
import type { FileRecord, FileStore } from "@/lib/db/stores/file-store";
import { ApiError } from "@/lib/gemini/api-error";
import { fileDenied } from "@/lib/gemini/resource-errors";
import type { Caller, FileDownload, UploadChunkRequest } from "@/lib/gemini/backend/contract";
import { fileNameOfUri } from "@/lib/gemini/references";
import type { File, ListFilesResponse } from "@/lib/gemini/types";
import {
  EXPIRY_DIGITS,
  formatDuration,
  formatTimestampDigits,
  STAMP_DIGITS,
} from "@/lib/gemini/wire-time";
import type { ProbedMedia } from "../media/probe";
import { keysetPage } from "@/lib/gemini/page-token";
import { PAGE_LIMITS } from "@/lib/gemini/page-limits";
import { openFileBytes } from "./file-bytes";
import { FileProcessor, type MediaProber, type ProcessingPlan } from "./file-processor";
import { hashFileRange, serviceSha256 } from "./part-file";
import {
  DEFAULT_FILE_QUOTA_BYTES,
  FILE_LIFETIME_MS,
  UploadSessions,
  type UploadState,
  type WholeUploadInput,
} from "./upload-sessions";
import type { UploadStartInput } from "./upload-start";

/** How long a finalize waits for a quick probe (images, text, PDF) so it can answer ACTIVE at once. */
const QUICK_PROBE_WAIT_MS = 2_000;

/** What the engine hands over to become a GENERATED file. */
export interface GeneratedFileInput {
  id: string;
  ownerId: string;
  displayName: string | null;
  mimeType: string;
  /** Where the finished bytes are now; they are linked in, the caller removes this name. */
  sourcePath: string;
}

export interface FileServiceOptions {
  store: FileStore;
  dataDir: string;
  probe: MediaProber;
  isMediaProblem: (error: unknown) => boolean;
  now?: () => number;
  quotaBytes?: number;
  maxFileBytes?: number;
  probeTimeoutMs?: number;
  onError?: (message: string, error: unknown) => void;
  /** How a file is processed when the emulator's controls say otherwise. */
  processingPlan?: (file: { ownerId: string; mimeType: string }) => ProcessingPlan | undefined;
}

/** What generation and token counting need to know about a referenced file. */
export interface ResolvedFile {
  mimeType: string;
  displayName?: string;
  /** The lifecycle step's findings. */
  probed: ProbedMedia;
  /** Where the bytes are, for engines that read them (text files). */
  path: string;
  sizeBytes: number;
}

/**
 * A medium at an http(s) URL outside the Files API, which current models accept and fetch
 * themselves. The engine is offline: it knows only the URL (and the part's MIME type).
 */
export interface RemoteFile {
  remote: true;
  uri: string;
  mimeType: string;
}

/** The id of the file a reference names (any spelling lib/gemini/references knows); null when it names none we could hold. */
export function fileIdFrom(reference: string): string | null {
  const id = fileNameOfUri(reference)?.slice("files/".length) ?? null;
  return id !== null && /^[a-z0-9](?:[a-z0-9-]{0,62})$/.test(id) ? id : null;
}

function isAudioOrVideo(mimeType: string): boolean {
  return /^(audio|video)\//i.test(mimeType);
}

function videoDurationSeconds(probe: unknown): number | undefined {
  const seconds = (probe as ProbedMedia | null)?.durationSeconds;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0
    ? seconds
    : undefined;
}

/** The File resource as the wire carries it. */
export function toWireFile(file: FileRecord, origin: string): File {
  const wire: File = {
    name: `files/${file.id}`,
    ...(file.displayName ? { displayName: file.displayName } : {}),
    mimeType: file.mimeType,
    sizeBytes: String(file.sizeBytes),
    createTime: formatTimestampDigits(file.createTime, STAMP_DIGITS),
    updateTime: formatTimestampDigits(file.updateTime, STAMP_DIGITS),
    expirationTime: formatTimestampDigits(file.expireTime, EXPIRY_DIGITS),
    sha256Hash: file.sha256Hash,
    uri: `${origin}/v1beta/files/${file.id}`,
    state: file.state,
    source: file.source,
  };
  if (file.source === "GENERATED")
    wire.downloadUri = `${origin}/download/v1beta/files/${file.id}:download?alt=media`;
  if (file.error) wire.error = file.error;
  if (file.state === "ACTIVE" && /^video\//i.test(file.mimeType)) {
    const seconds = videoDurationSeconds(file.probe);
    if (seconds !== undefined)
      wire.videoMetadata = { videoDuration: formatDuration(seconds * 1000) };
  }
  return wire;
}

export class FileService {
  readonly store: FileStore;
  readonly uploads: UploadSessions;
  readonly processor: FileProcessor;
  private readonly now: () => number;
  private readonly probe: MediaProber;

  constructor(options: FileServiceOptions) {
    this.now = options.now ?? Date.now;
    this.probe = options.probe;
    this.store = options.store;
    this.uploads = new UploadSessions({
      store: this.store,
      dataDir: options.dataDir,
      now: this.now,
      quotaBytes: options.quotaBytes ?? DEFAULT_FILE_QUOTA_BYTES,
      maxFileBytes: options.maxFileBytes,
      onFinalized: (file) => this.processor.enqueue(file.id),
    });
    this.processor = new FileProcessor({
      store: this.store,
      filePath: (id) => this.uploads.filePath(id),
      probe: options.probe,
      isMediaProblem: options.isMediaProblem,
      now: this.now,
      onError: options.onError,
      ...(options.probeTimeoutMs !== undefined ? { probeTimeoutMs: options.probeTimeoutMs } : {}),
      ...(options.processingPlan ? { processingPlan: options.processingPlan } : {}),
    });
  }

  /** Start-up: sweep what expired or was left half-done, and re-probe files a stop left PROCESSING. */
  async recover(): Promise<void> {
    await this.uploads.dropInterruptedWholeUploads();
    await this.sweep();
    for (const id of await this.store.processingFileIds()) this.processor.enqueue(id);
  }

  /** Deletes expired files (rows and bytes), expired upload sessions, and bytes nothing refers to. */
  async sweep(): Promise<void> {
    const now = this.now();
    for (const id of await this.store.expiredFileIds(now)) {
      if (await this.store.deleteFile(id)) await fs.rm(this.uploads.filePath(id), { force: true });
    }
    await this.uploads.sweep();
    let entries: string[] = [];
    try {
      entries = await fs.readdir(this.uploads.filesDir);
    } catch {
      return;
    }
    const referenced = await this.store.referencedFileIds();
    for (const entry of entries) {
      if (referenced.has(entry)) continue;
      await fs.rm(path.join(this.uploads.filesDir, entry), { force: true });
    }
  }

  stop(): void {
    this.processor.stop();
  }

  async startUpload(input: UploadStartInput): Promise<{ uploadId: string }> {
    const session = await this.uploads.start(input);
    return { uploadId: session.id };
  }

  /**
   * One chunk. The final chunk answers the new file: images, text and documents usually
   * already ACTIVE (their probe is quick, waited for briefly); audio and video PROCESSING,
   * since their probe runs in the background while clients poll.
   */
  async uploadChunk(
    uploadId: string,
    input: UploadChunkRequest,
    signal?: AbortSignal,
  ): Promise<UploadState> {
    const state = await this.uploads.chunk(uploadId, input, signal);
    if (state.status === "final" && state.file && !isAudioOrVideo(state.file.mimeType)) {
      await this.processor.waitFor(state.file.id, QUICK_PROBE_WAIT_MS);
      return { ...state, file: (await this.store.getFile(state.file.id)) ?? state.file };
    }
    return state;
  }

  /** A whole file in one request (multipart); answered like a final chunk (see uploadChunk). */
  async uploadWhole(
    input: WholeUploadInput,
    body: ReadableStream<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<FileRecord> {
    const file = await this.uploads.storeWhole(input, body, signal);
    if (!isAudioOrVideo(file.mimeType)) await this.processor.waitFor(file.id, QUICK_PROBE_WAIT_MS);
    return (await this.store.getFile(file.id)) ?? file;
  }

  queryUpload(uploadId: string): Promise<UploadState> {
    return this.uploads.query(uploadId);
  }

  cancelUpload(uploadId: string): Promise<UploadState> {
    return this.uploads.cancel(uploadId);
  }

  /** A live file the caller owns, or the service's 403. */
  async requireFile(reference: string, caller: Caller): Promise<FileRecord> {
    const id = fileIdFrom(reference);
    if (id === null) throw fileDenied(reference.replace(/^.*files\//, "").slice(0, 80));
    const file = await this.store.getFile(id);
    if (!file || file.ownerId !== caller.ownerId || file.expireTime <= this.now())
      throw fileDenied(id);
    return file;
  }

  async getFile(name: string, caller: Caller, origin: string): Promise<File> {
    return toWireFile(await this.requireFile(name, caller), origin);
  }

  /** The caller's live files, newest first, with keyset page tokens. */
  async listFiles(
    query: { pageSize?: number; pageToken?: string },
    caller: Caller,
    origin: string,
  ): Promise<ListFilesResponse> {
    const page = await keysetPage(
      query,
      PAGE_LIMITS.files,
      `files:${caller.ownerId}`,
      (limit, after) => this.store.listFiles(caller.ownerId, this.now(), limit, after),
    );
    const response: ListFilesResponse = {};
    if (page.rows.length > 0) response.files = page.rows.map((file) => toWireFile(file, origin));
    if (page.nextPageToken) response.nextPageToken = page.nextPageToken;
    return response;
  }

  async deleteFile(name: string, caller: Caller): Promise<void> {
    const file = await this.requireFile(name, caller);
    if (await this.store.deleteFile(file.id))
      await fs.rm(this.uploads.filePath(file.id), { force: true });
  }

  /**
   * Opens a file's bytes for `files/{id}:download`: the caller's own live file, and only a
   * GENERATED one (the service downloads only what it made; uploads cannot be downloaded).
   */
  async download(name: string, caller: Caller): Promise<FileDownload> {
    const file = await this.requireFile(name, caller);
    if (file.source !== "GENERATED") {
      throw new ApiError(
        400,
        "FAILED_PRECONDITION",
        `Only generated files can be downloaded; files/${file.id} was uploaded (its source is UPLOADED).`,
        [
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [
              { field: "name", description: "is an uploaded file, not a generated one" },
            ],
          },
        ],
      );
    }
    let body: ReadableStream<Uint8Array>;
    try {
      body = await openFileBytes(this.uploads.filePath(file.id));
    } catch {
      throw fileDenied(file.id);
    }
    return { mimeType: file.mimeType, sizeBytes: file.sizeBytes, body };
  }

  /**
   * Readies finished bytes to become the owner's ACTIVE, GENERATED file (48 h like any
   * file): hashed, probed and linked into place. The caller stores the returned record (in
   * its own transaction), or calls discardGenerated; bytes nothing records are swept.
   */
  async prepareGenerated(input: GeneratedFileInput): Promise<FileRecord> {
    const { size } = await fs.stat(input.sourcePath);
    const sha256Hash = serviceSha256(
      await hashFileRange(createHash("sha256"), input.sourcePath, 0, size),
    );
    // Decoded text stays on disk, as for uploads: it is read again when a request uses the file.
    const { text: _text, ...probe } = await this.probe(input.sourcePath, input.mimeType);
    const now = this.now();
    const target = this.uploads.filePath(input.id);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rm(target, { force: true });
    await fs.link(input.sourcePath, target);
    return {
      id: input.id,
      ownerId: input.ownerId,
      displayName: input.displayName,
      mimeType: input.mimeType,
      sizeBytes: size,
      sha256Hash,
      state: "ACTIVE",
      source: "GENERATED",
      error: null,
      probe,
      createTime: now,
      updateTime: now,
      expireTime: now + FILE_LIFETIME_MS,
    };
  }

  /** Removes the bytes of a prepared file that was not stored after all. */
  async discardGenerated(id: string): Promise<void> {
    if (!(await this.store.getFile(id))) await fs.rm(this.uploads.filePath(id), { force: true });
  }

  /**
   * What a request's `fileData.fileUri` refers to, for the caller: 403 when missing,
   * expired or not theirs; 400 while it is not ACTIVE. Text files are decoded again from
   * disk (their text is not kept in the database). An outside URL is a RemoteFile.
   */
  async resolveFileForCaller(
    fileUri: string,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<ResolvedFile | RemoteFile> {
    // Validation already refused outside URLs for models that cannot read them.
    if (isExternalUri(fileUri)) return { remote: true, uri: fileUri, mimeType: "" };
    const file = await this.requireFile(fileUri, caller);
    if (file.state !== "ACTIVE") {
      throw new ApiError(
        400,
        "FAILED_PRECONDITION",
        `The File ${file.id} is not in an ACTIVE state and usage is not allowed.`,
      );
    }
    const filePath = this.uploads.filePath(file.id);
    let probed = file.probe as ProbedMedia;
    if (probed.kind === "text") {
      try {
        probed = await this.probe(filePath, file.mimeType, signal);
      } catch {
        throw fileDenied(file.id);
      }
    }
    return {
      mimeType: file.mimeType,
      ...(file.displayName ? { displayName: file.displayName } : {}),
      probed,
      path: filePath,
      sizeBytes: file.sizeBytes,
    };
  }
}
