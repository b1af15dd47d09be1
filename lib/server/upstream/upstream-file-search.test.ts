import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import { testUpstreamBackend, testUpstreamSettings } from "@/lib/testing/upstream-backend";
import type { UpstreamBackend } from "./upstream-backend";

/**
 * The gateway's file search stores in front of a stand-in upstream that answers as the
 * recorded service does: a created store is its creator's, every operation on a store, its
 * documents, uploads, imports and operations reaches the upstream only for the owner, lists
 * are filtered to the caller's stores, and a store upload answers the upstream's operation.
 */

const origin = "http://studio.example";
const as = (ownerId: string) => ({
  caller: { ownerId },
  signal: new AbortController().signal,
  origin,
});
const alice = as("key:alice");
const bob = as("key:bob");
const STORE_DENIED = {
  httpStatus: 403,
  rpcStatus: "PERMISSION_DENIED",
  message: "FileSearchStore not found (or permission denied)",
};

interface Seen {
  method: string;
  url: string;
  body: string;
}

function fakeUpstream(seen: Seen[]): http.Server {
  let stores = 0;
  return http.createServer((request, response) => {
    let body = "";
    request.on("data", (piece: Buffer) => (body += piece.toString()));
    request.on("end", () => {
      const url = request.url ?? "/";
      seen.push({ method: request.method ?? "GET", url, body });
      const port = (request.socket.address() as AddressInfo).port;
      const json = (value: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(200, { "content-type": "application/json", ...headers });
        response.end(JSON.stringify(value));
      };
      if (request.method === "POST" && url === "/v1beta/fileSearchStores")
        return json({
          name: `fileSearchStores/store-${++stores}`,
          createTime: "2026-05-30T00:29:02.920778Z",
        });
      if (url === "/v1beta/fileSearchStores?pageSize=20")
        return json({
          fileSearchStores: [1, 2, 3].map((n) => ({ name: `fileSearchStores/store-${n}` })),
        });
      if (url.startsWith("/upload/") && !url.includes("upload_id")) {
        response.writeHead(200, {
          "x-goog-upload-status": "active",
          "x-goog-upload-url": `http://127.0.0.1:${port}${url}?upload_id=up1&upload_protocol=resumable`,
        });
        return response.end();
      }
      if (url.includes("upload_id=up1"))
        return json(
          {
            name: "fileSearchStores/store-1/upload/operations/doc-1",
            response: { documentName: "fileSearchStores/store-1/documents/doc-1" },
          },
          { "x-goog-upload-status": "final" },
        );
      json({ name: url });
    });
  });
}

describe.each(testDatabaseKinds())("gateway file search stores ($dialect)", (kind) => {
  const seen: Seen[] = [];
  let server: http.Server;
  let data: TestDatabase;
  let backend: UpstreamBackend;

  beforeAll(async () => {
    server = fakeUpstream(seen);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    data = await kind.open();
    backend = testUpstreamBackend(
      data.stores,
      testUpstreamSettings(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });

  afterAll(async () => {
    await backend.client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await data.cleanup();
  });

  it("records a created store as its creator's and lists only the caller's", async () => {
    const first = await backend.createFileSearchStore({ displayName: "a" }, alice);
    await backend.createFileSearchStore({ displayName: "b" }, bob);
    expect(first.name).toBe("fileSearchStores/store-1");
    const listed = await backend.listFileSearchStores({ pageSize: 10 }, alice);
    expect(listed.fileSearchStores?.map((store) => store.name)).toEqual([first.name]);
  });

  it("refuses another's store, its documents and operations before anything goes upstream", async () => {
    const before = seen.length;
    const store = "fileSearchStores/store-1";
    // Each is called only when awaited: an eager rejection would go unhandled meanwhile.
    const refusals: (() => Promise<unknown>)[] = [
      () => backend.getFileSearchStore(store, bob),
      () => backend.deleteFileSearchStore(store, true, bob),
      () => backend.listDocuments(store, {}, bob),
      () => backend.getDocument(`${store}/documents/doc-1`, bob),
      () => backend.deleteDocument(`${store}/documents/doc-1`, true, bob),
      () => backend.getFileSearchOperation(`${store}/upload/operations/doc-1`, bob),
      () => backend.getFileSearchOperation(`${store}/operations/doc-1`, bob),
      () => backend.startFileSearchStoreUpload(store, { document: {} }, bob),
      () => backend.importFileToFileSearchStore(store, { fileName: "files/x" }, bob),
      () => backend.getFileSearchStore("fileSearchStores/never-made", alice),
    ];
    for (const [index, refusal] of refusals.entries())
      await expect(refusal(), `refusal ${index}`).rejects.toMatchObject(STORE_DENIED);
    expect(seen.length).toBe(before);
  });

  it("passes the owner's calls on, and a store upload's final answer as its operation", async () => {
    const store = "fileSearchStores/store-1";
    await backend.getFileSearchStore(store, alice);
    await backend.getDocument(`${store}/documents/doc-1`, alice);
    await backend.getFileSearchOperation(`${store}/upload/operations/doc-1`, alice);
    const { uploadId } = await backend.startFileSearchStoreUpload(
      store,
      { contentType: "text/plain", document: { displayName: "notes.txt" } },
      alice,
    );
    expect(uploadId).not.toContain("up1");
    const final = await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: true, offset: 0, body: null },
      alice,
    );
    expect(final.operation?.name).toBe(`${store}/upload/operations/doc-1`);
    expect(final.file).toBeUndefined();
    await expect(
      backend.importFileToFileSearchStore(store, { fileName: "files/notmine" }, alice),
    ).rejects.toMatchObject({ httpStatus: 403 });
    // The import of a file not the caller's never left.
    expect(seen.slice(-5).map((item) => `${item.method} ${item.url.split("?")[0]}`)).toEqual([
      `GET /v1beta/${store}`,
      `GET /v1beta/${store}/documents/doc-1`,
      `GET /v1beta/${store}/upload/operations/doc-1`,
      `POST /upload/v1beta/${store}:uploadToFileSearchStore`,
      `POST /upload/v1beta/${store}:uploadToFileSearchStore`,
    ]);
    expect(JSON.parse(seen.at(-2)!.body)).toEqual({ displayName: "notes.txt" });
  });

  it("forgets a deleted store", async () => {
    const store = "fileSearchStores/store-1";
    await backend.deleteFileSearchStore(store, true, alice);
    expect(seen.at(-1)).toMatchObject({ method: "DELETE", url: `/v1beta/${store}?force=true` });
    await expect(backend.getFileSearchStore(store, alice)).rejects.toMatchObject(STORE_DENIED);
  });
});
