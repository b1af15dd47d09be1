/**
 * Slow clients, against a production server of this spec's own with short limits (the
 * defaults in scripts/connection-guard.cjs are 20 s, 500 B/s and 60 s): headers trickled in
 * and bodies trickled below the minimum rate are cut with the service's 408 body, a reader
 * that stops reading is cut once its writes stall, an honest slow upload above the rate is
 * not, and nobody else waits while any of this goes on.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { errorBodyProblems } from "./support/fuzz/oracle.mjs";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";

test.describe.configure({ mode: "serial", timeout: 120_000 });

const KEY = "genstudio-dev-key";
const LIMITS = { headersMs: 4000, graceMs: 4000, minRate: 1000, stallMs: 5000 };
let server: OwnServer;

test.beforeAll(async () => {
  server = await startOwnServer({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-slow-")),
    env: {
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      STUDIO_HEADERS_TIMEOUT_MS: String(LIMITS.headersMs),
      STUDIO_BODY_GRACE_MS: String(LIMITS.graceMs),
      STUDIO_BODY_MIN_BYTES_PER_SECOND: String(LIMITS.minRate),
      STUDIO_WRITE_STALL_TIMEOUT_MS: String(LIMITS.stallMs),
    },
  });
  // Warm the routes the tests time, so a first compile is not taken for starvation.
  await othersMeanwhile(3);
});

test.afterAll(async () => {
  await server?.stop("SIGTERM");
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

interface Trickle {
  /** Everything the server sent before it closed, and when it closed (ms after connecting, and `performance.now()`). */
  done: Promise<{ text: string; closedAfterMs: number; closedAt: number }>;
  stop(): void;
}

/** A raw connection that sends `head` and then one piece of `drip` every `everyMs`. */
function trickle(head: string, drip: () => string, everyMs: number): Trickle {
  const socket = net.connect(server.port, "127.0.0.1");
  const started = performance.now();
  let text = "";
  socket.on("data", (chunk) => (text += chunk.toString()));
  socket.write(head);
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(drip());
  }, everyMs);
  const done = new Promise<Awaited<Trickle["done"]>>((resolve) => {
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      const closedAt = performance.now();
      resolve({ text, closedAfterMs: closedAt - started, closedAt });
    });
  });
  return { done, stop: () => socket.destroy() };
}

/** Ordinary requests made one after another while something else goes on: their latencies, and when the last was answered. */
async function othersMeanwhile(
  count: number,
): Promise<{ latencies: number[]; lastAnsweredAt: number }> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index++) {
    const begun = performance.now();
    const response = await fetch(`${server.baseUrl}/v1beta/models/gemini-2.5-flash`, {
      headers: { "x-goog-api-key": KEY },
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(200);
    await response.text();
    latencies.push(performance.now() - begun);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { latencies, lastAnsweredAt: performance.now() };
}

function expectTimeoutAnswer(text: string): void {
  const [head, body] = text.split("\r\n\r\n");
  expect(head).toMatch(/^HTTP\/1\.1 408 /);
  expect(errorBodyProblems(body ?? "", 408)).toEqual([]);
}

/**
 * Every trickling client is cut by its timeout (not before it, and long before the 20 s
 * default) with a 408 body, and others were all served while every one of them was still held.
 */
async function expectAllCutOthersServed(
  label: string,
  slow: Trickle[],
  limitMs: number,
): Promise<void> {
  const others = await othersMeanwhile(10);
  const results = await Promise.all(slow.map((item) => item.done));
  for (const result of results) {
    expectTimeoutAnswer(result.text);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(limitMs - 100);
    expect(result.closedAfterMs).toBeLessThan(limitMs * 2 + 2000);
  }
  const closed = results.map((result) => result.closedAfterMs);
  console.log(
    `${label}: ${results.length} cut after ${Math.round(Math.min(...closed))}-${Math.round(Math.max(...closed))} ms; others meanwhile max ${Math.round(Math.max(...others.latencies))} ms`,
  );
  expect(others.lastAnsweredAt, "others waited for the slow clients to be cut").toBeLessThan(
    Math.min(...results.map((result) => result.closedAt)),
  );
}

test("headers trickled in are cut by the headers timeout with a 408 body; others are served meanwhile", async () => {
  const slow = Array.from({ length: 100 }, (_, index) =>
    trickle(
      `POST /v1beta/models/gemini-2.5-flash:countTokens HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`,
      () => `X-Slow-${index}: ${Date.now()}\r\n`,
      300,
    ),
  );
  await expectAllCutOthersServed("slow headers", slow, LIMITS.headersMs);
});

test("a body trickled below the minimum rate is cut with a 408 body; others are served meanwhile", async () => {
  const declared = 100_000;
  const slow = Array.from({ length: 100 }, () =>
    trickle(
      `POST /v1beta/models/gemini-2.5-flash:countTokens HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nx-goog-api-key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{"contents":"`,
      () => "a",
      200,
    ),
  );
  await expectAllCutOthersServed("slow bodies", slow, LIMITS.graceMs);
});

test("an honest slow upload above the minimum rate is not cut", async () => {
  const bytes = Buffer.alloc(240_000, 0x61);
  const started = await fetch(`${server.baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      "x-goog-api-key": KEY,
      "X-Goog-Upload-Protocol": "resumable",
      "X-Goog-Upload-Command": "start",
      "X-Goog-Upload-Header-Content-Length": String(bytes.length),
      "X-Goog-Upload-Header-Content-Type": "text/plain",
      "content-type": "application/json",
    },
    body: "{}",
  });
  const url = new URL(started.headers.get("x-goog-upload-url")!);
  // 20 KB/s for 12 s: well past the grace, well above the minimum rate.
  let sent = 0;
  const upload = trickle(
    `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Goog-Upload-Command: upload, finalize\r\nX-Goog-Upload-Offset: 0\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
    () => {
      const piece = bytes.subarray(sent, sent + 2000).toString();
      sent += 2000;
      return piece;
    },
    100,
  );
  const result = await upload.done;
  expect(result.text).toMatch(/^HTTP\/1\.1 200 /);
  // The answer is chunked; the file's hash is in it whole.
  expect(result.text).toContain(
    `"sha256Hash": "${Buffer.from(createHash("sha256").update(bytes).digest("hex")).toString("base64")}"`,
  );
  expect(result.closedAfterMs).toBeGreaterThan(LIMITS.graceMs + 2000);
});

test("a reader that stops reading is cut once its writes stall; others are served meanwhile", async () => {
  const headers = { "x-goog-api-key": KEY, "content-type": "application/json" };
  const created = (await (
    await fetch(`${server.baseUrl}/api/conversations`, {
      method: "POST",
      headers,
      body: JSON.stringify({ title: "big", settings: { model: "models/gemini-2.5-flash" } }),
    })
  ).json()) as { id: string };
  for (let index = 0; index < 4; index++) {
    const text = `${index} ${"a long answer ".repeat(600_000)}`;
    const answer = await fetch(`${server.baseUrl}/api/conversations/${created.id}/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        messages: [{ id: `m${index}`, role: "user", content: { role: "user", parts: [{ text }] } }],
      }),
    });
    expect(answer.status).toBe(200);
  }
  const whole = (
    await (await fetch(`${server.baseUrl}/api/conversations/${created.id}`, { headers })).text()
  ).length;
  expect(whole).toBeGreaterThan(30_000_000);

  // Ask for it and read nothing until well past the stall timeout, then read what is left.
  const socket = net.connect(server.port, "127.0.0.1");
  socket.write(
    `GET /api/conversations/${created.id} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nx-goog-api-key: ${KEY}\r\n\r\n`,
  );
  socket.pause();
  const others = await othersMeanwhile(20);
  await new Promise((resolve) => setTimeout(resolve, LIMITS.stallMs + 2000));
  let received = 0;
  const ended = await new Promise<string>((resolve) => {
    socket.on("data", (chunk: Buffer) => (received += chunk.length));
    socket.on("end", () => resolve("end"));
    socket.on("error", (error) => resolve(`error ${(error as NodeJS.ErrnoException).code}`));
    socket.on("close", () => resolve("close"));
    socket.resume();
    setTimeout(() => resolve("still open"), 15_000);
  });
  socket.destroy();
  console.log(
    `stalled reader: cut (${ended}) after ${Math.round(received / 1048576)} of ${Math.round(whole / 1048576)} MB; others meanwhile max ${Math.round(Math.max(...others.latencies))} ms`,
  );
  expect(ended).not.toBe("still open");
  expect(received, "the stalled response was not cut: it arrived whole").toBeLessThan(whole);
  // Nobody waited for the stalled reader to be cut.
  expect(Math.max(...others.latencies)).toBeLessThan(LIMITS.stallMs);
  // A reader that does read gets all of it.
  expect(
    (await (await fetch(`${server.baseUrl}/api/conversations/${created.id}`, { headers })).text())
      .length,
  ).toBe(whole);
});
