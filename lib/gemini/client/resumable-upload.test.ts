import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalBackend, type LocalBackend } from "@/lib/engine/local-backend";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { uploadHandler } from "@/lib/server/api/uploads";
import { errorResponse } from "@/lib/server/http/responses";
import { ApiError } from "../api-error";
import {
  sessionUrlFor,
  uploadResumable,
  UploadInterruptedError,
  type UploadProgress,
} from "./resumable-upload";
import { fetchTransport, isUploadAbort } from "./upload-transport";

/**
 * The client against the studio's real upload handler and local engine (a real SQLite file and
 * DATA_DIR), over a real HTTP server whose sockets the tests can cut mid-chunk.
 */

interface Fault {
  /** Cut the connection of the n-th upload request (1-based) after this many body bytes. */
  request: number;
  afterBytes: number;
}

let data: TempData;
let backend: LocalBackend;
let server: http.Server;
let baseUrl: string;
let uploadRequests = 0;
let faults: Fault[] = [];
const commands: string[] = [];

function bodyStream(
  request: http.IncomingMessage,
  cutAfter: number | null,
  socket: () => void,
): ReadableStream<Uint8Array> {
  if (cutAfter === null) return Readable.toWeb(request) as ReadableStream<Uint8Array>;
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      request.on("data", (piece: Buffer) => {
        const room = cutAfter - seen;
        if (room <= 0) return;
        const part = piece.subarray(0, room);
        seen += part.byteLength;
        controller.enqueue(new Uint8Array(part));
        if (seen >= cutAfter) {
          // Later, as a real reset would be: the bytes already queued are read first.
          setTimeout(() => {
            socket();
            controller.error(new Error("connection reset by the test"));
          }, 100);
        }
      });
      request.on("end", () => {
        if (seen < cutAfter) controller.close();
      });
    },
  });
}

beforeAll(async () => {
  data = await tempData();
  backend = createLocalBackend({ stores: data.stores, dataDir: data.dataDir, sweepIntervalMs: 0 });
  server = http.createServer(async (incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", baseUrl);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (typeof value === "string") headers.set(name, value);
    commands.push(headers.get("x-goog-upload-command") ?? "");
    let cutAfter: number | null = null;
    if (headers.get("x-goog-upload-command")?.startsWith("upload")) {
      uploadRequests++;
      cutAfter = faults.find((fault) => fault.request === uploadRequests)?.afterBytes ?? null;
    }
    const controller = new AbortController();
    const body =
      incoming.method === "POST"
        ? bodyStream(incoming, cutAfter, () => {
            controller.abort();
            incoming.socket.destroy();
          })
        : null;
    const request = new Request(url, {
      method: incoming.method,
      headers,
      body,
      duplex: "half",
      signal: controller.signal,
    } as RequestInit);
    let response: Response;
    try {
      response = await uploadHandler({
        request,
        url,
        params: {},
        caller: { ownerId: "tester" },
        backend,
        signal: controller.signal,
      });
    } catch (error) {
      response = errorResponse(error);
    }
    if (incoming.socket.destroyed) return;
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await data.cleanup();
});

function bytesOf(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

function serviceHash(bytes: Uint8Array): string {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

function storedBytes(fileName: string): Buffer {
  return fs.readFileSync(`${data.dataDir}/files/${fileName.replace("files/", "")}`);
}

const quickRetry = { retryDelayMs: () => 1, transport: fetchTransport() };

describe("uploadResumable", () => {
  it("uploads in chunks with rising progress and answers the file", async () => {
    faults = [];
    const bytes = bytesOf(100_000, 1);
    const progress: UploadProgress[] = [];
    const file = await uploadResumable({
      ...quickRetry,
      blob: new Blob([bytes]),
      mimeType: "text/plain",
      displayName: "notes.txt",
      startUrl: `${baseUrl}/upload/v1beta/files`,
      chunkBytes: 32_768,
      onProgress: (value) => progress.push(value),
    });
    expect(file.name).toMatch(/^files\/[a-z0-9-]+$/);
    expect(file.displayName).toBe("notes.txt");
    expect(file.sizeBytes).toBe("100000");
    expect(file.sha256Hash).toBe(serviceHash(bytes));
    expect(progress.map((value) => value.sentBytes)).toEqual([0, 32_768, 65_536, 98_304, 100_000]);
    expect(progress.every((value) => value.totalBytes === 100_000)).toBe(true);
  });

  it("resumes from the size the session reports after a connection is cut mid-chunk", async () => {
    // Chunk 2 is cut after 10,000 of its bytes reached the server: they are kept, and the
    // client must continue from 32,768 + 10,000 (not resend from 32,768, not skip to 65,536).
    uploadRequests = 0;
    faults = [{ request: 2, afterBytes: 10_000 }];
    commands.length = 0;
    const bytes = bytesOf(90_000, 2);
    const sessions: string[] = [];
    const received: (string | null)[] = [];
    const offsets: string[] = [];
    const file = await uploadResumable({
      ...quickRetry,
      blob: new Blob([bytes]),
      mimeType: "application/octet-stream",
      startUrl: `${baseUrl}/upload/v1beta/files`,
      chunkBytes: 32_768,
      onSession: (url) => sessions.push(url),
      transport: async (request) => {
        if (request.headers["X-Goog-Upload-Offset"])
          offsets.push(request.headers["X-Goog-Upload-Offset"]);
        const response = await fetchTransport()(request);
        if (request.headers["X-Goog-Upload-Command"] === "query")
          received.push(response.header("X-Goog-Upload-Size-Received"));
        return response;
      },
    });
    // A query that overtakes the dying request may still see 32768; the last one sees the kept bytes.
    expect(received.at(-1)).toBe("42768");
    expect(received.every((value) => value === "32768" || value === "42768")).toBe(true);
    // (An early query, or a transport that resends the cut request, may add a refused "32768".)
    expect(offsets.slice(0, 2)).toEqual(["0", "32768"]);
    expect(offsets.slice(-2)).toEqual(["42768", "75536"]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toContain("upload_id=");
    expect(commands).toContain("query");
    expect(commands.filter((command) => command === "upload, finalize")).toHaveLength(1);
    expect(file.sha256Hash).toBe(serviceHash(bytes));
    expect(Buffer.compare(storedBytes(file.name), Buffer.from(bytes))).toBe(0);
  });

  it("resumes a session it did not start, from its URL", async () => {
    uploadRequests = 0;
    faults = [];
    const bytes = bytesOf(50_000, 3);
    const controller = new AbortController();
    let sessionUrl = "";
    // Send the first chunk only, then stop without cancelling (as a closed tab would).
    const first = uploadResumable({
      ...quickRetry,
      blob: new Blob([bytes]),
      mimeType: "application/octet-stream",
      startUrl: `${baseUrl}/upload/v1beta/files`,
      chunkBytes: 20_000,
      onSession: (url) => (sessionUrl = url),
      onProgress: ({ sentBytes }) => {
        if (sentBytes >= 20_000) controller.abort();
      },
      signal: controller.signal,
      transport: async (request) => {
        if (request.headers["X-Goog-Upload-Command"] === "cancel")
          throw new Error("kept open on purpose");
        return fetchTransport()(request);
      },
    });
    await expect(first).rejects.toSatisfy(isUploadAbort);
    const progress: number[] = [];
    const file = await uploadResumable({
      ...quickRetry,
      blob: new Blob([bytes]),
      mimeType: "application/octet-stream",
      startUrl: `${baseUrl}/upload/v1beta/files`,
      sessionUrl,
      chunkBytes: 20_000,
      onProgress: ({ sentBytes }) => progress.push(sentBytes),
    });
    expect(progress[0]).toBe(0);
    expect(progress).toContain(20_000);
    expect(progress).not.toContain(10_000);
    expect(file.sha256Hash).toBe(serviceHash(bytes));
  });

  it("cancels: rejects with an AbortError and the session is gone", async () => {
    faults = [];
    const controller = new AbortController();
    let sessionUrl = "";
    const upload = uploadResumable({
      ...quickRetry,
      blob: new Blob([bytesOf(60_000, 4)]),
      mimeType: "application/octet-stream",
      startUrl: `${baseUrl}/upload/v1beta/files`,
      chunkBytes: 10_000,
      onSession: (url) => (sessionUrl = url),
      onProgress: ({ sentBytes }) => {
        if (sentBytes >= 30_000) controller.abort();
      },
      signal: controller.signal,
    });
    await expect(upload).rejects.toSatisfy(isUploadAbort);
    const query = await fetch(sessionUrl, {
      method: "POST",
      headers: { "X-Goog-Upload-Command": "query" },
    });
    expect(query.status).toBe(400);
    expect(((await query.json()) as { error: { message: string } }).error.message).toMatch(
      /cancelled/,
    );
  });

  it("refusals of the service reject with its ApiError, without retrying", async () => {
    const attempts: string[] = [];
    const refused = uploadResumable({
      retryDelayMs: () => 1,
      blob: new Blob([]),
      mimeType: "text/plain",
      startUrl: `${baseUrl}/upload/v1beta/files`,
      transport: async (request) => {
        attempts.push(request.headers["X-Goog-Upload-Command"]!);
        return fetchTransport()(request);
      },
    });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toThrow(/zero-byte/);
    expect(attempts).toEqual(["start"]);
  });

  it("gives up after repeated connection failures with a resumable error", async () => {
    let calls = 0;
    const failing = uploadResumable({
      retryDelayMs: () => 1,
      maxAttempts: 3,
      blob: new Blob([bytesOf(10, 5)]),
      mimeType: "text/plain",
      startUrl: `${baseUrl}/upload/v1beta/files`,
      transport: async () => {
        calls++;
        throw new (await import("./upload-transport")).UploadConnectionError("refused");
      },
    });
    await expect(failing).rejects.toBeInstanceOf(UploadInterruptedError);
    expect(calls).toBe(3);
  });
});

describe("sessionUrlFor", () => {
  it("keeps the path and query on the start URL's origin, or relative when the start was", () => {
    const given =
      "http://internal-name:3000/upload/v1beta/files?upload_id=abc&upload_protocol=resumable";
    expect(sessionUrlFor(given, "http://127.0.0.1:4000/upload/v1beta/files")).toBe(
      "http://127.0.0.1:4000/upload/v1beta/files?upload_id=abc&upload_protocol=resumable",
    );
    expect(sessionUrlFor(given, "/upload/v1beta/files")).toBe(
      "/upload/v1beta/files?upload_id=abc&upload_protocol=resumable",
    );
  });
});
