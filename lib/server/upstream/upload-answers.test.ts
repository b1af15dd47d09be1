/**
 * The upstream's answers to uploads (a resumable upload's finalize, a multipart upload, a
 * file search store upload) reach the client scrubbed like every other answer: the gateway's
 * real UpstreamClient against a local upstream that quotes the key it receives.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { testUpstreamBackend, testUpstreamSettings } from "@/lib/testing/upstream-backend";
import type { UpstreamBackend } from "./upstream-backend";

const KEY = "upload-answer-key-0123456789";
let server: http.Server;
let origin: string;
let data: TempData;
let backend: UpstreamBackend;
const context = {
  caller: { ownerId: "key:alice" },
  signal: new AbortController().signal,
  origin: "http://studio.test",
};

/** The key in every encoding the scrubber knows, and the upstream's own address. */
function leaky(key: string): string {
  return [
    `plain ${key}`,
    `upper ${key.toUpperCase()}`,
    `percent ${encodeURIComponent(key).replace(/-/g, "%2D")}`,
    `hex ${Buffer.from(key).toString("hex")}`,
    `base64 ${Buffer.from(`x${key}`).toString("base64")}`,
    `at ${origin}/v1beta/files/leaky`,
  ].join(", ");
}

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return [
    lower.includes(KEY.toLowerCase()) && "the key",
    lower.includes(Buffer.from(KEY).toString("hex")) && "hex",
    text.includes(Buffer.from(`x${KEY}`).toString("base64").slice(4, -4)) && "base64",
    lower.includes(encodeURIComponent(KEY).replace(/-/g, "%2d").toLowerCase()) && "percent",
    text.includes(origin) && "the upstream's address",
  ].filter((found): found is string => found !== false);
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const key = String(request.headers["x-goog-api-key"] ?? "");
    const url = new URL(request.url ?? "/", origin);
    request.resume();
    request.on("end", () => {
      const command = String(request.headers["x-goog-upload-command"] ?? "");
      const json = (body: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(200, { "content-type": "application/json", ...headers });
        response.end(JSON.stringify(body));
      };
      const file = {
        name: "files/leaky",
        displayName: leaky(key),
        uri: `${origin}/v1beta/files/leaky`,
      };
      if (command === "start") {
        response.writeHead(200, {
          "x-goog-upload-url": `${origin}${url.pathname}?upload_id=s1&upload_protocol=resumable`,
          "x-goog-upload-status": "active",
        });
        return response.end();
      }
      if (url.pathname.includes(":uploadToFileSearchStore"))
        return json(
          {
            name: "fileSearchStores/alicestore/upload/operations/op1",
            response: { documentName: leaky(key) },
          },
          { "x-goog-upload-status": "final" },
        );
      return json({ file }, command ? { "x-goog-upload-status": "final" } : {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  data = await tempData();
  backend = testUpstreamBackend(data.stores, testUpstreamSettings(origin, { apiKey: KEY }));
  await data.stores.ownership.record("fileSearchStore", "fileSearchStores/alicestore", "key:alice");
});

afterAll(async () => {
  await backend.client.close();
  server.close();
  await data.cleanup();
});

const bytes = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("hello"));
      controller.close();
    },
  });

describe("upload answers are scrubbed", () => {
  it("a resumable upload's final answer", async () => {
    const { uploadId } = await backend.startUpload({ declaredSize: 5, file: {} }, context);
    const answer = await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: true, offset: 0, body: bytes() },
      context,
    );
    expect(answer.status).toBe("final");
    expect(answer.file?.displayName).toContain("[redacted]");
    expect(leaks(JSON.stringify(answer))).toEqual([]);
  });

  it("a multipart upload's answer", async () => {
    const file = await backend.uploadFile({ file: {}, body: bytes() }, context);
    expect(file.displayName).toContain("[redacted]");
    expect(leaks(JSON.stringify(file))).toEqual([]);
  });

  it("a file search store upload's final answer", async () => {
    const { uploadId } = await backend.startFileSearchStoreUpload(
      "fileSearchStores/alicestore",
      { declaredSize: 5, document: {} },
      context,
    );
    const answer = await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: true, offset: 0, body: bytes() },
      context,
    );
    expect(answer.operation?.name).toBe("fileSearchStores/alicestore/upload/operations/op1");
    expect(JSON.stringify(answer)).toContain("[redacted]");
    expect(leaks(JSON.stringify(answer))).toEqual([]);
  });
});
