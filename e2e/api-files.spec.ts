import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { File as GenaiFile, GoogleGenAI } from "@google/genai";
import { api, sdkClient } from "./support/api";
import {
  DEVELOPMENT_KEY,
  keyedServer,
  localServer,
  STUDIO_KEYS,
  type ServerInfo,
} from "./support/servers";

interface ErrorBody {
  error: { code: number; message: string; status: string };
}
interface WireFile {
  name: string;
  displayName?: string;
  mimeType: string;
  sizeBytes: string;
  sha256Hash: string;
  uri: string;
  state: string;
  createTime: string;
  expirationTime: string;
  error?: { code: number; message: string };
}

/** sha256Hash as the service spells it: base64 of the lower-case hex digest string. */
function serviceHash(bytes: Uint8Array): string {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

function textBytes(length: number): Buffer {
  const line = "All work and no play makes a dull upload test. 0123456789\n";
  return Buffer.from(line.repeat(Math.ceil(length / line.length)).slice(0, length), "utf8");
}

function wavBytes(seconds: number, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write("WAVEfmt ", 8, "ascii");
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples; index++)
    buffer.writeInt16LE(Math.round(Math.sin(index / 3) * 6000), 44 + index * 2);
  return buffer;
}

async function untilActive(
  ai: GoogleGenAI,
  name: string,
): Promise<{ file: GenaiFile; states: string[] }> {
  const states: string[] = [];
  for (let attempt = 0; attempt < 200; attempt++) {
    const file = await ai.files.get({ name });
    states.push(String(file.state));
    if (file.state !== "PROCESSING") return { file, states };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} stayed PROCESSING`);
}

/** Step 1 of the spec's upload, raw, with the X-Svc- spelling and ?key=. */
async function startRaw(
  options: {
    length: number | string;
    type?: string;
    body?: unknown;
    key?: string;
    server?: ServerInfo;
    headers?: Record<string, string>;
    path?: string;
  } = { length: 1 },
): Promise<Response> {
  const server = options.server ?? localServer;
  const key = options.key ?? DEVELOPMENT_KEY;
  return fetch(
    `${server.baseUrl}${options.path ?? "/upload/v1beta/files"}?key=${encodeURIComponent(key)}`,
    {
      method: "POST",
      headers: {
        "X-Svc-Upload-Protocol": "resumable",
        "X-Svc-Upload-Command": "start",
        "X-Svc-Upload-Header-Content-Length": String(options.length),
        "X-Svc-Upload-Header-Content-Type": options.type ?? "text/plain",
        "Content-Type": "application/json",
        ...options.headers,
      },
      body: JSON.stringify(options.body ?? { file: { display_name: "raw upload" } }),
    },
  );
}

async function startUrl(options: Parameters<typeof startRaw>[0]): Promise<string> {
  const response = await startRaw(options);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers.get("x-svc-upload-url")!;
}

async function sendChunk(
  url: string,
  bytes: Uint8Array,
  offset: number,
  command: string,
  extra: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(url, {
    method: extra.method ?? "POST",
    headers: {
      "X-Svc-Upload-Offset": String(offset),
      "X-Svc-Upload-Command": command,
      ...extra.headers,
    },
    body: new Uint8Array(bytes),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
  };
}

function errorOf(body: unknown): ErrorBody["error"] {
  return (body as ErrorBody).error;
}

test.describe("files through the official SDK", () => {
  test("upload a small file, get it until ACTIVE, find it in the list, delete it", async () => {
    const ai = sdkClient();
    const bytes = textBytes(1234);
    const uploaded = await ai.files.upload({
      file: new Blob([new Uint8Array(bytes)]),
      config: { mimeType: "text/plain", displayName: "small notes" },
    });
    expect(uploaded.name).toMatch(/^files\/[a-z0-9]{12}$/);
    expect(uploaded.displayName).toBe("small notes");
    expect(uploaded.sizeBytes).toBe("1234");
    expect(uploaded.sha256Hash).toBe(serviceHash(bytes));
    expect(uploaded.uri).toBe(`${localServer.baseUrl}/v1beta/files/${uploaded.name!.slice(6)}`);
    const { file } = await untilActive(ai, uploaded.name!);
    expect(file.state).toBe("ACTIVE");
    expect(Date.parse(file.expirationTime!) - Date.parse(file.createTime!)).toBe(48 * 3_600_000);

    const names: string[] = [];
    for await (const listed of await ai.files.list({ config: { pageSize: 2 } }))
      names.push(listed.name!);
    expect(names).toContain(uploaded.name);
    expect(new Set(names).size).toBe(names.length);

    await ai.files.delete({ name: uploaded.name! });
    await expect(ai.files.get({ name: uploaded.name! })).rejects.toThrow(
      /You do not have permission to access the File/,
    );
  });

  test("upload a file over 8 MiB in several chunks; the stored bytes hash the same", async () => {
    const ai = sdkClient();
    const bytes = textBytes(8 * 1024 * 1024 * 2 + 12_345);
    const filePath = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-upload-")),
      "big.txt",
    );
    fs.writeFileSync(filePath, bytes);
    const uploaded = await ai.files.upload({ file: filePath, config: { mimeType: "text/plain" } });
    expect(uploaded.sizeBytes).toBe(String(bytes.length));
    expect(uploaded.sha256Hash).toBe(serviceHash(bytes));
    const { file } = await untilActive(ai, uploaded.name!);
    expect(file.state).toBe("ACTIVE");
    const stored = fs.readFileSync(
      path.join(localServer.dataDir, "files", uploaded.name!.slice("files/".length)),
    );
    expect(stored.equals(bytes)).toBe(true);
    await ai.files.delete({ name: uploaded.name! });
    fs.rmSync(path.dirname(filePath), { recursive: true, force: true });
  });

  test("audio stays PROCESSING while probed, then becomes ACTIVE", async () => {
    const ai = sdkClient();
    const uploaded = await ai.files.upload({
      file: new Blob([new Uint8Array(wavBytes(2))]),
      config: { mimeType: "audio/wav", displayName: "tone.wav" },
    });
    expect(uploaded.state).toBe("PROCESSING");
    const { file } = await untilActive(ai, uploaded.name!);
    expect(file.state).toBe("ACTIVE");
  });

  test("corrupt media ends FAILED with an error", async () => {
    const ai = sdkClient();
    const uploaded = await ai.files.upload({
      file: new Blob([Buffer.from("definitely not a PNG")]),
      config: { mimeType: "image/png" },
    });
    const { file } = await untilActive(ai, uploaded.name!);
    expect(file.state).toBe("FAILED");
    expect(file.error?.message).toMatch(/image/);
  });
});

test.describe("the spec's upload steps, raw", () => {
  test("start, send with upload-finalize, get: X-Svc headers and ?key=", async () => {
    const bytes = textBytes(5000);
    const start = await startRaw({
      length: bytes.length,
      type: "text/plain",
      body: { file: { display_name: "spec steps" } },
    });
    expect(start.status).toBe(200);
    expect(await start.text()).toBe("");
    const url = start.headers.get("x-svc-upload-url")!;
    expect(url).toMatch(
      new RegExp(
        `^${localServer.baseUrl}/upload/v1beta/files\\?upload_id=[A-Za-z0-9_-]{40,}&upload_protocol=resumable$`,
      ),
    );
    expect(start.headers.get("x-goog-upload-url")).toBe(url);
    expect(start.headers.get("x-svc-upload-status")).toBe("active");
    expect(start.headers.get("x-goog-upload-status")).toBe("active");
    expect(start.headers.get("x-svc-upload-chunk-granularity")).toBe("8388608");
    expect(start.headers.get("x-goog-upload-chunk-granularity")).toBe("8388608");

    // Step 2 carries no key: the upload URL is its own credential.
    const upload = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Length": String(bytes.length),
        "X-Svc-Upload-Offset": "0",
        "X-Svc-Upload-Command": "upload, finalize",
      },
      body: new Uint8Array(bytes),
    });
    expect(upload.status).toBe(200);
    expect(upload.headers.get("x-svc-upload-status")).toBe("final");
    expect(upload.headers.get("x-goog-upload-status")).toBe("final");
    const { file } = (await upload.json()) as { file: WireFile };
    expect(file).toMatchObject({
      displayName: "spec steps",
      mimeType: "text/plain",
      sizeBytes: "5000",
      sha256Hash: serviceHash(bytes),
    });
    expect(["PROCESSING", "ACTIVE"]).toContain(file.state);
    expect(file.uri).toBe(`${localServer.baseUrl}/v1beta/files/${file.name.slice(6)}`);

    const got = await fetch(`${localServer.baseUrl}/v1beta/${file.name}?key=${DEVELOPMENT_KEY}`);
    expect(got.status).toBe(200);
    expect(((await got.json()) as WireFile).name).toBe(file.name);
  });

  test("several chunks with PUT, query and the /upload/v1 alias", async () => {
    const bytes = textBytes(3000);
    const url = await startUrl({ length: bytes.length, path: "/upload/v1/files" });
    expect(url).toContain("/upload/v1/files?upload_id=");
    const first = await sendChunk(url, bytes.subarray(0, 1000), 0, "upload", { method: "PUT" });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-goog-upload-status")).toBe("active");
    expect(first.headers.get("x-svc-upload-size-received")).toBe("1000");
    const query = await fetch(url, {
      method: "POST",
      headers: { "X-Goog-Upload-Command": "query" },
    });
    expect(query.status).toBe(200);
    expect(query.headers.get("x-goog-upload-status")).toBe("active");
    expect(query.headers.get("x-goog-upload-size-received")).toBe("1000");
    expect(query.headers.get("x-svc-upload-size-received")).toBe("1000");
    await sendChunk(url, bytes.subarray(1000, 2000), 1000, "upload");
    const last = await sendChunk(url, bytes.subarray(2000), 2000, "upload, finalize", {
      method: "PUT",
    });
    expect(last.status).toBe(200);
    expect((last.body as { file: WireFile }).file.sha256Hash).toBe(serviceHash(bytes));
  });

  test("a chunk sent as application/json (as the SDK does) is stored raw, never parsed", async () => {
    const bytes = Buffer.from("{ this is not json, and must not be parsed", "utf8");
    const url = await startUrl({ length: bytes.length });
    const final = await sendChunk(url, bytes, 0, "upload, finalize", {
      headers: { "Content-Type": "application/json" },
    });
    expect(final.status).toBe(200);
    expect((final.body as { file: WireFile }).file.sha256Hash).toBe(serviceHash(bytes));
  });
});

test.describe("upload errors", () => {
  test("a wrong offset is a clear 400 and the session stays usable", async () => {
    const bytes = textBytes(200);
    const url = await startUrl({ length: 200 });
    await sendChunk(url, bytes.subarray(0, 100), 0, "upload");
    const wrong = await sendChunk(url, bytes.subarray(100), 150, "upload, finalize");
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong.body)).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    expect(errorOf(wrong.body).message).toContain("has received 100 bytes");
    const right = await sendChunk(url, bytes.subarray(100), 100, "upload, finalize");
    expect(right.status).toBe(200);
    expect((right.body as { file: WireFile }).file.sha256Hash).toBe(serviceHash(bytes));
  });

  test("more bytes than declared are refused and never stored", async () => {
    const url = await startUrl({ length: 10 });
    const over = await sendChunk(url, textBytes(25), 0, "upload, finalize");
    expect(over.status).toBe(400);
    expect(errorOf(over.body).message).toContain("more bytes than declared");
    const query = await fetch(url, {
      method: "POST",
      headers: { "X-Svc-Upload-Command": "query" },
    });
    expect(query.headers.get("x-svc-upload-size-received")).toBe("0");
  });

  test("finalize twice, an unknown session and a cancelled session are 400", async () => {
    const bytes = textBytes(50);
    const url = await startUrl({ length: 50 });
    expect((await sendChunk(url, bytes, 0, "upload, finalize")).status).toBe(200);
    const twice = await sendChunk(url, bytes, 0, "upload, finalize");
    expect(twice.status).toBe(400);
    expect(errorOf(twice.body).message).toContain("already finalized");

    const unknown = await sendChunk(
      `${localServer.baseUrl}/upload/v1beta/files?upload_id=made-up&upload_protocol=resumable`,
      bytes,
      0,
      "upload, finalize",
    );
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown.body).message).toContain("Unknown upload session");

    const cancelUrl = await startUrl({ length: 50 });
    await sendChunk(cancelUrl, bytes.subarray(0, 20), 0, "upload");
    const cancel = await fetch(cancelUrl, {
      method: "POST",
      headers: { "X-Goog-Upload-Command": "cancel" },
    });
    expect(cancel.status).toBe(200);
    expect(cancel.headers.get("x-goog-upload-status")).toBe("cancelled");
    const after = await sendChunk(cancelUrl, bytes.subarray(20), 20, "upload, finalize");
    expect(after.status).toBe(400);
    expect(errorOf(after.body).message).toContain("cancelled");
  });

  test("a zero-byte upload, a malformed length, an unknown protocol and an unknown command are refused", async () => {
    const zero = await startRaw({ length: 0 });
    expect(zero.status).toBe(400);
    expect(((await zero.json()) as ErrorBody).error.message).toContain(
      "zero-byte files cannot be uploaded",
    );
    const malformed = await startRaw({ length: "12abc" });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as ErrorBody).error.message).toContain(
      "whole number of bytes",
    );
    const tooBig = await startRaw({ length: 3 * 1024 * 1024 * 1024 });
    expect(tooBig.status).toBe(400);
    expect(((await tooBig.json()) as ErrorBody).error.message).toContain("too large");
    const unknownProtocol = await startRaw({
      length: 10,
      headers: { "X-Svc-Upload-Protocol": "raw" },
    });
    expect(unknownProtocol.status).toBe(400);
    expect(((await unknownProtocol.json()) as ErrorBody).error.message).toContain(
      "use resumable or multipart",
    );
    const url = await startUrl({ length: 10 });
    const unknownCommand = await sendChunk(url, textBytes(10), 0, "upload, explode");
    expect(unknownCommand.status).toBe(400);
    expect(errorOf(unknownCommand.body).message).toContain("not understood");
    const disagree = await startRaw({
      length: 10,
      headers: { "X-Goog-Upload-Header-Content-Length": "11" },
    });
    expect(disagree.status).toBe(400);
  });

  test("a path-like display name is kept as a label and never becomes a path", async () => {
    const name = "../../../etc/passwd";
    const bytes = textBytes(64);
    const url = await startUrl({ length: 64, body: { file: { displayName: name } } });
    const final = await sendChunk(url, bytes, 0, "upload, finalize");
    const file = (final.body as { file: WireFile }).file;
    expect(file.displayName).toBe(name);
    const id = file.name.slice("files/".length);
    expect(id).toMatch(/^[a-z0-9]+$/);
    expect(fs.readFileSync(path.join(localServer.dataDir, "files", id)).equals(bytes)).toBe(true);
    expect(fs.existsSync(path.join(localServer.dataDir, "etc"))).toBe(false);
  });

  test("a file name that is not files/{id} is refused at start", async () => {
    const response = await startRaw({ length: 5, body: { file: { name: "files/../escape" } } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.message).toContain("name");
  });
});

test.describe("files belong to the key that uploaded them", () => {
  test("another key gets 403 on get, delete and use, and does not see it listed", async () => {
    const alice = sdkClient(keyedServer, STUDIO_KEYS.alice);
    const bob = sdkClient(keyedServer, STUDIO_KEYS.bob);
    const uploaded = await alice.files.upload({
      file: new Blob([new Uint8Array(textBytes(100))]),
      config: { mimeType: "text/plain" },
    });
    const id = uploaded.name!.slice("files/".length);
    const expected = `You do not have permission to access the File ${id} or it may not exist.`;

    const get = await api(`/v1beta/${uploaded.name}`, {
      server: keyedServer,
      key: STUDIO_KEYS.bob,
    });
    expect(get.status).toBe(403);
    expect((get.body as ErrorBody).error).toMatchObject({
      code: 403,
      status: "PERMISSION_DENIED",
      message: expected,
    });
    const remove = await api(`/v1beta/${uploaded.name}`, {
      method: "DELETE",
      server: keyedServer,
      key: STUDIO_KEYS.bob,
    });
    expect(remove.status).toBe(403);
    const names: string[] = [];
    for await (const file of await bob.files.list()) names.push(file.name!);
    expect(names).not.toContain(uploaded.name);

    const count = await api("/v1beta/models/gemini-2.5-flash:countTokens", {
      method: "POST",
      server: keyedServer,
      key: STUDIO_KEYS.bob,
      body: {
        contents: [{ parts: [{ file_data: { file_uri: uploaded.uri, mime_type: "text/plain" } }] }],
      },
    });
    expect(count.status).toBe(403);
    expect((count.body as ErrorBody).error.message).toBe(expected);

    const own = await api("/v1beta/models/gemini-2.5-flash:countTokens", {
      method: "POST",
      server: keyedServer,
      key: STUDIO_KEYS.alice,
      body: {
        contents: [{ parts: [{ file_data: { file_uri: uploaded.uri, mime_type: "text/plain" } }] }],
      },
    });
    expect(own.status).toBe(200);
    expect((own.body as { totalTokens: number }).totalTokens).toBeGreaterThan(10);
    await alice.files.delete({ name: uploaded.name! });
  });

  test("an upload start needs a key; a wrong key on a session URL is refused", async () => {
    const anonymous = await fetch(`${keyedServer.baseUrl}/upload/v1beta/files`, {
      method: "POST",
      headers: {
        "X-Goog-Upload-Protocol": "resumable",
        "X-Goog-Upload-Command": "start",
        "X-Goog-Upload-Header-Content-Length": "5",
      },
    });
    expect(anonymous.status).toBe(403);
    const url = await startUrl({ length: 5, server: keyedServer, key: STUDIO_KEYS.alice });
    const wrongKey = await fetch(url, {
      method: "POST",
      headers: {
        "x-goog-api-key": "not-a-key-of-this-studio",
        "X-Goog-Upload-Command": "upload, finalize",
        "X-Goog-Upload-Offset": "0",
      },
      body: "hello",
    });
    expect(wrongKey.status).toBe(400);
    expect(((await wrongKey.json()) as ErrorBody).error.message).toContain("API key not valid");
  });
});
