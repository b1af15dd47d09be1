/**
 * Persistence across restarts: these tests start their own servers (the production build,
 * `node scripts/start.mjs`) on a free port and a fresh DATA_DIR, stop or kill them, and start
 * them again on the same data.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { GoogleGenAI } from "@google/genai";
import { DEVELOPMENT_KEY } from "./support/servers";

test.describe.configure({ mode: "serial", timeout: 180_000 });

interface OwnServer {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

async function startOwnServer(dataDir: string, port: number): Promise<OwnServer> {
  const {
    GEMINI_API_KEY: _key,
    GOOGLE_API_KEY: _google,
    STUDIO_API_KEYS: _keys,
    STUDIO_ACCESS_CODE: _code,
    ...environment
  } = process.env;
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: process.cwd(),
    env: {
      ...environment,
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    // Its own process group, so the server and the Next child it spawns can be killed together.
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    try {
      if ((await fetch(`${baseUrl}/api/session`)).ok) return { child, baseUrl, exited };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not start: ${stderr}`);
}

async function stopOwnServer(server: OwnServer, signal: NodeJS.Signals): Promise<void> {
  try {
    process.kill(-server.child.pid!, signal);
  } catch {
    // already gone
  }
  await server.exited;
  // The Next child is in the same group; give the kernel a moment to release the port.
  await new Promise((resolve) => setTimeout(resolve, 300));
}

function serviceHash(bytes: Uint8Array): string {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

function pattern(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let index = 0; index < length; index++) bytes[index] = (index * 7 + (index >> 9)) & 0xff;
  return bytes;
}

async function startUpload(baseUrl: string, length: number, type = "text/plain"): Promise<string> {
  const response = await fetch(`${baseUrl}/upload/v1beta/files?key=${DEVELOPMENT_KEY}`, {
    method: "POST",
    headers: {
      "X-Goog-Upload-Protocol": "resumable",
      "X-Goog-Upload-Command": "start",
      "X-Goog-Upload-Header-Content-Length": String(length),
      "X-Goog-Upload-Header-Content-Type": type,
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ file: { displayName: "resumed" } }),
  });
  expect(response.status).toBe(200);
  return response.headers.get("x-goog-upload-url")!;
}

/** The upload URL on another server (the SDK does the same: it keeps only path and query). */
function onServer(uploadUrl: string, baseUrl: string): string {
  const url = new URL(uploadUrl);
  return `${baseUrl}${url.pathname}${url.search}`;
}

async function query(url: string): Promise<{ status: string | null; received: number }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "X-Goog-Upload-Command": "query" },
  });
  expect(response.status).toBe(200);
  return {
    status: response.headers.get("x-goog-upload-status"),
    received: Number(response.headers.get("x-goog-upload-size-received")),
  };
}

async function chunk(
  url: string,
  bytes: Uint8Array,
  offset: number,
  command: string,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "X-Goog-Upload-Command": command, "X-Goog-Upload-Offset": String(offset) },
    body: new Uint8Array(bytes),
  });
}

test("a restart keeps ACTIVE files, live caches and resumable uploads", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-restart-"));
  const port = await freePort();
  let server = await startOwnServer(dataDir, port);
  try {
    let ai = new GoogleGenAI({ apiKey: DEVELOPMENT_KEY, httpOptions: { baseUrl: server.baseUrl } });
    const text = Buffer.from("Persistence is the point of this little file.\n".repeat(40));
    const file = await ai.files.upload({
      file: new Blob([new Uint8Array(text)]),
      config: { mimeType: "text/plain", displayName: "kept.txt" },
    });
    for (
      let attempt = 0;
      attempt < 100 && (await ai.files.get({ name: file.name! })).state === "PROCESSING";
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cache = await ai.caches.create({
      model: "gemini-2.5-flash",
      config: {
        contents: [
          {
            role: "user",
            parts: [{ text: "The archive remembers every entry it was given. ".repeat(150) }],
          },
        ],
        ttl: "3600s",
      },
    });
    const partial = pattern(3 * 1024 * 1024 + 17);
    const uploadUrl = await startUpload(server.baseUrl, partial.length);
    expect((await chunk(uploadUrl, partial.subarray(0, 1024 * 1024), 0, "upload")).status).toBe(
      200,
    );

    await stopOwnServer(server, "SIGTERM");
    server = await startOwnServer(dataDir, port);
    ai = new GoogleGenAI({ apiKey: DEVELOPMENT_KEY, httpOptions: { baseUrl: server.baseUrl } });

    const again = await ai.files.get({ name: file.name! });
    expect(again).toMatchObject({
      name: file.name,
      state: "ACTIVE",
      displayName: "kept.txt",
      sha256Hash: serviceHash(text),
    });
    const cacheAgain = await ai.caches.get({ name: cache.name! });
    expect(cacheAgain).toMatchObject({
      name: cache.name,
      expireTime: cache.expireTime,
      usageMetadata: cache.usageMetadata,
    });

    const url = onServer(uploadUrl, server.baseUrl);
    expect(await query(url)).toEqual({ status: "active", received: 1024 * 1024 });
    expect(
      (await chunk(url, partial.subarray(1024 * 1024, 2 * 1024 * 1024), 1024 * 1024, "upload"))
        .status,
    ).toBe(200);
    const final = await chunk(
      url,
      partial.subarray(2 * 1024 * 1024),
      2 * 1024 * 1024,
      "upload, finalize",
    );
    expect(final.status).toBe(200);
    const finished = (
      (await final.json()) as { file: { name: string; sha256Hash: string; sizeBytes: string } }
    ).file;
    expect(finished.sha256Hash).toBe(serviceHash(partial));
    expect(finished.sizeBytes).toBe(String(partial.length));

    const listed: string[] = [];
    for await (const item of await ai.files.list()) listed.push(item.name!);
    expect(listed.sort()).toEqual([file.name!, finished.name].sort());
  } finally {
    await stopOwnServer(server, "SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("kill -9 during an upload: no partial file ACTIVE, and the session resumes after restart", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-kill-"));
  const port = await freePort();
  let server = await startOwnServer(dataDir, port);
  try {
    const bytes = pattern(24 * 1024 * 1024);
    const firstChunk = 8 * 1024 * 1024;
    const uploadUrl = await startUpload(server.baseUrl, bytes.length);
    expect((await chunk(uploadUrl, bytes.subarray(0, firstChunk), 0, "upload")).status).toBe(200);

    // The second chunk trickles in; the server is killed while it is half received.
    const uploadsDir = path.join(dataDir, "uploads");
    const partFile = () => fs.readdirSync(uploadsDir).find((entry) => entry.endsWith(".part"));
    const request = http.request(uploadUrl, {
      method: "POST",
      headers: {
        "X-Goog-Upload-Command": "upload, finalize",
        "X-Goog-Upload-Offset": String(firstChunk),
        "Content-Length": String(bytes.length - firstChunk),
      },
    });
    const outcome = new Promise<string>((resolve) => {
      request.on("error", (error) => resolve(`error: ${error.message}`));
      request.on("response", (response) => resolve(`status ${response.statusCode}`));
    });
    let sent = firstChunk;
    while (sent < firstChunk + 6 * 1024 * 1024) {
      request.write(bytes.subarray(sent, sent + 256 * 1024));
      sent += 256 * 1024;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (let attempt = 0; attempt < 200; attempt++) {
      const name = partFile();
      if (name && fs.statSync(path.join(uploadsDir, name)).size > firstChunk + 2 * 1024 * 1024)
        break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await stopOwnServer(server, "SIGKILL");
    expect(await outcome).toMatch(/^error/);

    server = await startOwnServer(dataDir, port);
    const listed = await fetch(`${server.baseUrl}/v1beta/files?key=${DEVELOPMENT_KEY}`);
    expect(await listed.json()).toEqual({});
    expect(
      fs.existsSync(path.join(dataDir, "files")) ? fs.readdirSync(path.join(dataDir, "files")) : [],
    ).toEqual([]);

    const url = onServer(uploadUrl, server.baseUrl);
    const state = await query(url);
    expect(state).toEqual({ status: "active", received: firstChunk });
    const final = await chunk(
      url,
      bytes.subarray(state.received),
      state.received,
      "upload, finalize",
    );
    expect(final.status).toBe(200);
    const file = (
      (await final.json()) as { file: { name: string; sha256Hash: string; state: string } }
    ).file;
    expect(file.sha256Hash).toBe(serviceHash(bytes));
    expect(
      fs.readFileSync(path.join(dataDir, "files", file.name.slice("files/".length))).equals(bytes),
    ).toBe(true);
  } finally {
    await stopOwnServer(server, "SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
