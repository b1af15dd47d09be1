#!/usr/bin/env node
/**
 * Browser benchmark of the upload panel: one large file (200 MB by default) dropped
 * on the Files page in Debian's chromium and uploaded with the studio's resumable protocol
 * (8 MiB chunks over XMLHttpRequest). Samples the file's progress bar (aria-valuenow, real
 * bytes sent) every 50 ms inside the page, and reports the time, the throughput, whether
 * progress only ever rose, the longest stall, and the time from the last byte to ACTIVE.
 * The file is a valid WAV of pseudo-random samples made in the page; the script makes the
 * same bytes in Node and checks the stored file's size and SHA-256 against them.
 *
 *   npm run build && node bench/browser-upload.mjs [--size-mb 200] [--base-url http://127.0.0.1:3000]
 *
 * Without --base-url it starts the built studio itself (local engine, fresh DATA_DIR, free
 * port) and also reports the server's peak resident memory.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const sizeBytes = Math.round((Number(option("size-mb", "200")) * 1_000_000) / 2) * 2;
const seed = 20_250_101;

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** The Next server process under scripts/start.mjs (for its resident memory), if found. */
function serverProcessId(parentId) {
  try {
    const children = fs
      .readFileSync(`/proc/${parentId}/task/${parentId}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return Number(children[0]) || null;
  } catch {
    return null;
  }
}

function peakResidentMegabytes(processId) {
  try {
    const status = fs.readFileSync(`/proc/${processId}/status`, "utf8");
    const kilobytes = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return Math.round(kilobytes / 1024);
  } catch {
    return null;
  }
}

async function startServer() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-upload-"));
  const {
    GEMINI_API_KEY: _key,
    GOOGLE_API_KEY: _google,
    STUDIO_API_KEYS: _keys,
    STUDIO_ACCESS_CODE: _code,
    ...environment
  } = process.env;
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...environment,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/api/session`, 60_000);
  return {
    baseUrl,
    serverId: () => serverProcessId(child.pid),
    stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        child.kill("SIGTERM");
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The WAV bytes (44-byte header, then samples from a linear congruential generator). Same code runs in the page. */
function fillWav(bytes, seedValue) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (offset, text) => {
    for (let index = 0; index < text.length; index++)
      bytes[offset + index] = text.charCodeAt(index);
  };
  const dataBytes = bytes.length - 44;
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 16000, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  let state = seedValue >>> 0;
  for (let index = 44; index < bytes.length; index++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

function serviceSha256(bytes) {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

const server = option("base-url")
  ? { baseUrl: option("base-url"), serverId: () => null, stop() {} }
  : await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.baseUrl}/files`);
  const dropZone = page.getByTestId("drop-zone-files-page");
  await dropZone.waitFor();
  const name = `bench-${sizeBytes}.wav`;

  const made = Date.now();
  const dataTransfer = await page.evaluateHandle(
    ({ name, size, seedValue, fill }) => {
      const fillWav = new Function(`return (${fill})`)();
      const transfer = new DataTransfer();
      transfer.items.add(
        new File([fillWav(new Uint8Array(size), seedValue)], name, { type: "audio/wav" }),
      );
      return transfer;
    },
    { name, size: sizeBytes, seedValue: seed, fill: fillWav.toString() },
  );
  const makeMs = Date.now() - made;

  // Sampling runs in the page (a 50 ms interval), so a busy test process cannot skew it.
  await page.evaluate((fileName) => {
    const samples = [];
    window.__uploadSamples = samples;
    window.__uploadStart = performance.now();
    const timer = setInterval(() => {
      const card = [...document.querySelectorAll("li[data-status]")].find((item) =>
        item.getAttribute("aria-label")?.startsWith(`${fileName}, `),
      );
      if (!card) return;
      const status = card.getAttribute("data-status");
      const bar = card.querySelector('[role="progressbar"]');
      samples.push({
        t: performance.now() - window.__uploadStart,
        status,
        sent: bar ? Number(bar.getAttribute("aria-valuenow")) : null,
      });
      if (status === "active" || status === "failed" || status === "interrupted")
        clearInterval(timer);
    }, 50);
  }, name);
  await dropZone.dispatchEvent("dragenter", { dataTransfer });
  await dropZone.dispatchEvent("drop", { dataTransfer });
  await dataTransfer.dispose();

  const card = page.getByRole("listitem", { name: new RegExp(`^${name.replace(/\./g, "\\.")}, `) });
  await card
    .and(
      page.locator('[data-status="active"], [data-status="failed"], [data-status="interrupted"]'),
    )
    .waitFor({ timeout: 30 * 60_000 });
  const samples = await page.evaluate(() => window.__uploadSamples);
  const finalStatus = samples.at(-1)?.status;

  const uploading = samples.filter(
    (sample) => sample.status === "uploading" && sample.sent !== null,
  );
  let decreases = 0;
  let longestStall = 0;
  let lastChange = uploading[0]?.t ?? 0;
  for (let index = 1; index < uploading.length; index++) {
    if (uploading[index].sent < uploading[index - 1].sent) decreases++;
    if (uploading[index].sent !== uploading[index - 1].sent) {
      longestStall = Math.max(longestStall, uploading[index].t - lastChange);
      lastChange = uploading[index].t;
    }
  }
  const firstAfter = (fraction) =>
    samples.find(
      (sample) =>
        (sample.status !== "uploading" ? sizeBytes : (sample.sent ?? 0)) >= fraction * sizeBytes,
    )?.t;
  const bytesDone = samples.find((sample) => sample.status !== "uploading")?.t;
  const activeAt = samples.find((sample) => sample.status === "active")?.t;
  const distinct = new Set(uploading.map((sample) => sample.sent)).size;

  const listed = await page.evaluate(async (fileName) => {
    const response = await fetch("/v1beta/files?pageSize=100");
    return (
      ((await response.json()).files ?? []).find((file) => file.displayName === fileName) ?? null
    );
  }, name);
  const expected = serviceSha256(fillWav(new Uint8Array(sizeBytes), seed));
  const serverId = server.serverId();

  const seconds = (bytesDone ?? 0) / 1000;
  console.log(
    JSON.stringify(
      {
        sizeBytes,
        finalStatus,
        makeFileInPageMs: makeMs,
        uploadSeconds: Number(seconds.toFixed(2)),
        throughputMBps: seconds > 0 ? Number((sizeBytes / 1e6 / seconds).toFixed(1)) : null,
        lastByteToActiveMs:
          activeAt !== undefined && bytesDone !== undefined
            ? Math.round(activeAt - bytesDone)
            : null,
        progressSamples: uploading.length,
        distinctProgressValues: distinct,
        progressDecreases: decreases,
        longestStallMs: Math.round(longestStall),
        secondsAt: {
          "25%": firstAfter(0.25) / 1000,
          "50%": firstAfter(0.5) / 1000,
          "75%": firstAfter(0.75) / 1000,
          "100%": firstAfter(1) / 1000,
        },
        storedSizeMatches: listed?.sizeBytes === String(sizeBytes),
        storedSha256Matches: listed?.sha256Hash === expected,
        serverPeakResidentMB: serverId ? peakResidentMegabytes(serverId) : null,
      },
      null,
      2,
    ),
  );
  if (finalStatus !== "active" || decreases > 0 || listed?.sha256Hash !== expected)
    process.exitCode = 1;
} finally {
  await browser.close();
  server.stop();
}
