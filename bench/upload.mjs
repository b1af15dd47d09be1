#!/usr/bin/env node
// Resumable upload benchmark (bench/README.md, "Upload").
//
//   node bench/upload.mjs [--size-mib 1024] [--mode chunks|stream|both]
//
// Starts the production build (`node scripts/start.mjs`, run `npm run build` first) on a free
// port with a fresh DATA_DIR, uploads `size` bytes through the resumable protocol and reports
// throughput and the server's resident memory (RSS of its process group, sampled every 50 ms)
// before and during the upload. Modes: `chunks` sends 8 MiB chunks as the official SDK does;
// `stream` sends the whole file as one streamed `upload, finalize` request. The bytes are
// made and hashed before timing (8 distinct 8 MiB blocks repeated). Run from the repository root.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { freePort } from "../e2e/support/fuzz/own-server.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index < 0 || args[index + 1] === undefined ? fallback : args[index + 1];
};
const sizeBytes = Math.round(Number(option("size-mib", "1024")) * 1024 * 1024);
const mode = option("mode", "both");
const KEY = "genstudio-dev-key";
const CHUNK = 8 * 1024 * 1024;

async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-upload-"));
  const port = await freePort();
  const {
    GEMINI_API_KEY: _gemini,
    GOOGLE_API_KEY: _google,
    STUDIO_API_KEYS: _keys,
    STUDIO_ACCESS_CODE: _code,
    ...environment
  } = process.env;
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...environment,
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(`${baseUrl}/api/session`)).ok) return { child, baseUrl, dataDir };
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server did not start");
}

/** Resident memory of every process in the server's process group, in bytes. */
function groupRss(groupId) {
  let total = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== groupId) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${entry}/status`, "utf8"));
      if (rss) total += Number(rss[1]) * 1024;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

function sampler(groupId) {
  let peak = 0;
  const samples = [];
  const timer = setInterval(() => {
    const rss = groupRss(groupId);
    samples.push(rss);
    peak = Math.max(peak, rss);
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return { peak, samples };
    },
  };
}

/**
 * The file is BLOCKS distinct 8 MiB blocks repeated: made and hashed before the clock starts,
 * so the figures measure the upload, not the client making bytes.
 */
const BLOCKS = 8;
const blocks = Array.from({ length: BLOCKS }, (_, block) => {
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (let index = 0; index < CHUNK; index += 4)
    buffer.writeUInt32LE(Math.imul((block * CHUNK + index) ^ 0x9e3779b9, 0x85ebca6b) >>> 0, index);
  return buffer;
});

/** Bytes of the file at [offset, offset + length), within one block (no copy). */
function bytesAt(offset, length) {
  const block = blocks[Math.floor(offset / CHUNK) % BLOCKS];
  const within = offset % CHUNK;
  if (within + length > CHUNK) throw new Error("a slice must stay within one block");
  return block.subarray(within, within + length);
}

function expectedHash() {
  const hash = createHash("sha256");
  for (let offset = 0; offset < sizeBytes; offset += CHUNK)
    hash.update(bytesAt(offset, Math.min(CHUNK, sizeBytes - offset)));
  return Buffer.from(hash.digest("hex"), "utf8").toString("base64");
}

async function start(baseUrl, displayName) {
  const response = await fetch(`${baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      "x-goog-api-key": KEY,
      "X-Goog-Upload-Protocol": "resumable",
      "X-Goog-Upload-Command": "start",
      "X-Goog-Upload-Header-Content-Length": String(sizeBytes),
      "X-Goog-Upload-Header-Content-Type": "application/octet-stream",
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ file: { displayName } }),
  });
  if (response.status !== 200)
    throw new Error(`start failed: ${response.status} ${await response.text()}`);
  return response.headers.get("x-goog-upload-url");
}

/** One POST to the session URL with a body written piece by piece (node:http, no buffering). */
function post(url, headers, length, writeBody) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: "POST", headers: { ...headers, "Content-Length": String(length) } },
      (response) => {
        const parts = [];
        response.on("data", (part) => parts.push(part));
        response.on("end", () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            text: Buffer.concat(parts).toString("utf8"),
          }),
        );
      },
    );
    request.on("error", reject);
    writeBody(request).then(() => request.end(), reject);
  });
}

function write(request, buffer) {
  return new Promise((resolve) =>
    request.write(buffer) ? resolve() : request.once("drain", resolve),
  );
}

async function uploadInChunks(url) {
  let last;
  for (let offset = 0; offset < sizeBytes; offset += CHUNK) {
    const length = Math.min(CHUNK, sizeBytes - offset);
    const body = bytesAt(offset, length);
    const command = offset + length >= sizeBytes ? "upload, finalize" : "upload";
    last = await post(
      url,
      {
        "X-Goog-Upload-Command": command,
        "X-Goog-Upload-Offset": String(offset),
        "Content-Type": "application/json",
      },
      length,
      (request) => write(request, body),
    );
    if (last.status !== 200)
      throw new Error(`chunk at ${offset} failed: ${last.status} ${last.text}`);
  }
  return last;
}

async function uploadAsOneStream(url) {
  return post(
    url,
    { "X-Goog-Upload-Command": "upload, finalize", "X-Goog-Upload-Offset": "0" },
    sizeBytes,
    async (request) => {
      for (let offset = 0; offset < sizeBytes; offset += 1024 * 1024) {
        await write(request, bytesAt(offset, Math.min(1024 * 1024, sizeBytes - offset)));
      }
    },
  );
}

const mebibytes = (bytes) => (bytes / 1024 / 1024).toFixed(1);

async function run(server, label, upload, expected) {
  const url = await start(server.baseUrl, `bench ${label}`);
  const baseline = groupRss(server.child.pid);
  const samples = sampler(server.child.pid);
  const began = performance.now();
  const result = await upload(url);
  const seconds = (performance.now() - began) / 1000;
  const { peak } = samples.stop();
  if (result.status !== 200) throw new Error(`${label}: ${result.status} ${result.text}`);
  const file = JSON.parse(result.text).file;
  if (file.sha256Hash !== expected || file.sizeBytes !== String(sizeBytes))
    throw new Error(`${label}: the stored file does not match what was sent`);
  console.log(
    `${label.padEnd(7)} ${mebibytes(sizeBytes)} MiB in ${seconds.toFixed(2)} s = ${(sizeBytes / 1024 / 1024 / seconds).toFixed(0)} MiB/s; ` +
      `server RSS ${mebibytes(baseline)} MiB before, peak ${mebibytes(peak)} MiB, growth ${mebibytes(peak - baseline)} MiB`,
  );
  await fetch(`${server.baseUrl}/v1beta/${file.name}`, {
    method: "DELETE",
    headers: { "x-goog-api-key": KEY },
  });
}

// Before the server: hashing 2 GiB takes long enough for a kept-alive connection to time out.
const expected = expectedHash();
const server = await startServer();
try {
  // Warm-up: load the upload route and the database before measuring.
  const warm = await start(server.baseUrl, "warm-up");
  await post(warm, { "X-Goog-Upload-Command": "cancel" }, 0, async () => undefined);
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; uploading ${mebibytes(sizeBytes)} MiB`,
  );
  if (mode === "chunks" || mode === "both") await run(server, "chunks", uploadInChunks, expected);
  if (mode === "stream" || mode === "both")
    await run(server, "stream", uploadAsOneStream, expected);
} finally {
  process.kill(-server.child.pid, "SIGKILL");
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
