/**
 * The chain: the official SDK talks to the studio in upstream mode, which forwards to a
 * second instance running the local engine. Everything the SDK does must work through the
 * chain, and give what the upstream gives when called directly; ownership is the gateway's
 * own (two studio keys, one upstream project).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { GoogleGenAI, type GoogleGenAI as Client } from "@google/genai";
import {
  GATEWAY_KEYS,
  UPSTREAM_KEY,
  chainUpstreamServer,
  gatewayServer as gateway,
} from "./support/servers";
import {
  gatewayClient,
  recordResponses,
  responsesLeakingSecrets,
  streamRaw,
  streamTexts,
} from "./support/gateway";

const MODEL = "gemini-2.5-flash";
/** No thinking: every output token is text, so short answers are never empty. */
const TEXT_MODEL = "gemini-2.0-flash";
const FILE_DENIED = (id: string) =>
  `You do not have permission to access the File ${id} or it may not exist.`;
const CACHE_DENIED = "CachedContent not found (or permission denied)";

let alice: Client;
let bob: Client;
/** The upstream called directly, to compare with what comes through the gateway. */
let direct: Client;

function serviceHash(bytes: Uint8Array): string {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

function textBytes(length: number): Buffer {
  const line = "Bytes that cross the gateway twice, in 8 MiB chunks. 0123456789\n";
  return Buffer.from(line.repeat(Math.ceil(length / line.length)).slice(0, length), "utf8");
}

async function untilActive(client: Client, name: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    const file = await client.files.get({ name });
    if (file.state !== "PROCESSING") return file;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} stayed PROCESSING`);
}

async function rejection(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    const status = (error as { status?: number }).status ?? 0;
    const body = String((error as Error).message);
    const parsed = /\{[\s\S]*\}/.exec(body);
    let message = body;
    try {
      message =
        (JSON.parse(parsed?.[0] ?? "{}") as { error?: { message?: string } }).error?.message ??
        body;
    } catch {
      message = body;
    }
    return { status, message };
  }
  throw new Error("expected the call to fail");
}

test.beforeAll(() => {
  recordResponses();
  alice = gatewayClient(gateway, GATEWAY_KEYS.alice);
  bob = gatewayClient(gateway, GATEWAY_KEYS.bob);
  direct = new GoogleGenAI({
    apiKey: UPSTREAM_KEY,
    httpOptions: { baseUrl: chainUpstreamServer.baseUrl },
  });
});

test.describe("models, tokens and generation through the chain", () => {
  test("models list and get match the upstream's", async () => {
    const through: string[] = [];
    for await (const model of await alice.models.list()) through.push(model.name!);
    const upstream: string[] = [];
    for await (const model of await direct.models.list()) upstream.push(model.name!);
    expect(through).toEqual(upstream);
    expect(through).toContain(`models/${MODEL}`);
    const model = await alice.models.get({ model: MODEL });
    expect(model.inputTokenLimit).toBe((await direct.models.get({ model: MODEL })).inputTokenLimit);
  });

  test("countTokens matches the upstream's count", async () => {
    const contents = "The quick brown fox jumps over the lazy dog.";
    const through = await alice.models.countTokens({ model: MODEL, contents });
    expect(through.totalTokens).toBe(
      (await direct.models.countTokens({ model: MODEL, contents })).totalTokens,
    );
    expect(through.totalTokens).toBeGreaterThan(5);
  });

  test("generateContent gives the upstream's answer for the same seed", async () => {
    const request = {
      model: TEXT_MODEL,
      contents: "Tell me about rivers.",
      config: { seed: 42, temperature: 0.7, maxOutputTokens: 40 },
    };
    const through = await alice.models.generateContent(request);
    const upstream = await direct.models.generateContent(request);
    expect(through.text).toBeTruthy();
    expect(through.text).toBe(upstream.text);
    expect(through.usageMetadata?.totalTokenCount).toBe(upstream.usageMetadata?.totalTokenCount);
  });

  test("streamGenerateContent passes the upstream's chunks through unchanged", async () => {
    const request = {
      model: TEXT_MODEL,
      contents: "Tell me about mountains.",
      config: { seed: 7, maxOutputTokens: 60 },
    };
    const through: string[] = [];
    for await (const chunk of await alice.models.generateContentStream(request))
      through.push(chunk.text ?? "");
    const upstream: string[] = [];
    for await (const chunk of await direct.models.generateContentStream(request))
      upstream.push(chunk.text ?? "");
    expect(through.length).toBeGreaterThan(1);
    expect(through).toEqual(upstream);
    const raw = await streamRaw(gateway, GATEWAY_KEYS.alice, TEXT_MODEL, {
      contents: [{ parts: [{ text: "Tell me about mountains." }] }],
      generationConfig: { seed: 7, maxOutputTokens: 60 },
    });
    expect(raw.contentType).toContain("text/event-stream");
    expect(streamTexts(raw)).toEqual(upstream);
  });
});

test.describe("files through the chain", () => {
  test("a multi-chunk SDK upload arrives whole, owned by its uploader only", async () => {
    const bytes = textBytes(17 * 1024 * 1024 + 123);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-chain-"));
    const filePath = path.join(folder, "big.txt");
    fs.writeFileSync(filePath, bytes);
    const uploaded = await alice.files.upload({
      file: filePath,
      config: { mimeType: "text/plain", displayName: "big through the chain" },
    });
    expect(uploaded.sizeBytes).toBe(String(bytes.length));
    expect(uploaded.uri).toBe(`${gateway.baseUrl}/v1beta/${uploaded.name}`);
    const active = await untilActive(alice, uploaded.name!);
    expect(active.state).toBe("ACTIVE");
    // The upstream hashed what it received: the bytes crossed the gateway intact.
    expect(active.sha256Hash).toBe(serviceHash(bytes));
    const id = uploaded.name!.slice("files/".length);

    const mine: string[] = [];
    for await (const file of await alice.files.list()) mine.push(file.name!);
    expect(mine).toContain(uploaded.name);
    const theirs: string[] = [];
    for await (const file of await bob.files.list()) theirs.push(file.name!);
    expect(theirs).not.toContain(uploaded.name);

    expect(await rejection(bob.files.get({ name: uploaded.name! }))).toEqual({
      status: 403,
      message: FILE_DENIED(id),
    });
    expect(await rejection(bob.files.delete({ name: uploaded.name! }))).toEqual({
      status: 403,
      message: FILE_DENIED(id),
    });
    await alice.files.delete({ name: uploaded.name! });
    expect((await rejection(alice.files.get({ name: uploaded.name! }))).status).toBe(403);
  });

  test("a file is used in generation by its owner and refused to anyone else", async () => {
    const uploaded = await alice.files.upload({
      file: new Blob(["Otters hold hands while they sleep so they do not drift apart."], {
        type: "text/plain",
      }),
      config: { mimeType: "text/plain", displayName: "otters" },
    });
    await untilActive(alice, uploaded.name!);
    const contents = [
      {
        role: "user",
        parts: [
          { fileData: { fileUri: uploaded.uri!, mimeType: "text/plain" } },
          { text: "What do otters do?" },
        ],
      },
    ];
    const counted = await alice.models.countTokens({ model: MODEL, contents });
    expect(counted.totalTokens).toBeGreaterThan(10);
    // The upstream counts the same file under its own URI: the gateway rewrote ours to it.
    const upstreamContents = [
      {
        ...contents[0]!,
        parts: [
          {
            fileData: {
              fileUri: `${chainUpstreamServer.baseUrl}/v1beta/${uploaded.name}`,
              mimeType: "text/plain",
            },
          },
          contents[0]!.parts[1]!,
        ],
      },
    ];
    expect(
      (await direct.models.countTokens({ model: MODEL, contents: upstreamContents })).totalTokens,
    ).toBe(counted.totalTokens);
    const answer = await alice.models.generateContent({
      model: MODEL,
      contents,
      config: { maxOutputTokens: 20 },
    });
    expect(answer.usageMetadata?.promptTokenCount).toBeGreaterThanOrEqual(counted.totalTokens! - 1);
    const id = uploaded.name!.slice("files/".length);
    expect(await rejection(bob.models.generateContent({ model: MODEL, contents }))).toEqual({
      status: 403,
      message: FILE_DENIED(id),
    });
    expect(await rejection(bob.models.countTokens({ model: MODEL, contents }))).toEqual({
      status: 403,
      message: FILE_DENIED(id),
    });
  });

  test("a raw resumable upload with query works through the gateway's own session URL", async () => {
    const bytes = textBytes(3 * 1024 * 1024);
    const start = await fetch(`${gateway.baseUrl}/upload/v1beta/files`, {
      method: "POST",
      headers: {
        "x-goog-api-key": GATEWAY_KEYS.alice,
        "content-type": "application/json",
        "X-Goog-Upload-Protocol": "resumable",
        "X-Goog-Upload-Command": "start",
        "X-Goog-Upload-Header-Content-Length": String(bytes.length),
        "X-Goog-Upload-Header-Content-Type": "text/plain",
      },
      body: JSON.stringify({ file: { display_name: "queried" } }),
    });
    expect(start.status).toBe(200);
    const sessionUrl = start.headers.get("x-goog-upload-url")!;
    expect(new URL(sessionUrl).origin).toBe(gateway.baseUrl);
    expect(sessionUrl).not.toContain(String(chainUpstreamServer.port));
    const half = 1024 * 1024;
    const first = await fetch(sessionUrl, {
      method: "POST",
      headers: {
        "x-goog-api-key": GATEWAY_KEYS.alice,
        "X-Goog-Upload-Command": "upload",
        "X-Goog-Upload-Offset": "0",
      },
      body: new Uint8Array(bytes.subarray(0, half)),
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-goog-upload-status")).toBe("active");
    const query = await fetch(sessionUrl, {
      method: "POST",
      headers: { "x-goog-api-key": GATEWAY_KEYS.alice, "X-Goog-Upload-Command": "query" },
    });
    expect(query.headers.get("x-goog-upload-status")).toBe("active");
    expect(query.headers.get("x-goog-upload-size-received")).toBe(String(half));
    const last = await fetch(sessionUrl, {
      method: "POST",
      headers: {
        "x-goog-api-key": GATEWAY_KEYS.alice,
        "X-Goog-Upload-Command": "upload, finalize",
        "X-Goog-Upload-Offset": String(half),
      },
      body: new Uint8Array(bytes.subarray(half)),
    });
    expect(last.status).toBe(200);
    expect(last.headers.get("x-goog-upload-status")).toBe("final");
    const { file } = (await last.json()) as {
      file: { name: string; sizeBytes: string; sha256Hash?: string };
    };
    expect(file.sizeBytes).toBe(String(bytes.length));
    const active = await untilActive(alice, file.name);
    expect(active.sha256Hash).toBe(serviceHash(bytes));
  });
});

test.describe("cached contents through the chain", () => {
  const context =
    "Rivers carry water from the mountains to the sea, shaping valleys as they go. ".repeat(120);

  test("create, list, get, update, use and delete by the owner; refused to anyone else", async () => {
    const cache = await alice.caches.create({
      model: MODEL,
      config: {
        contents: [{ role: "user", parts: [{ text: context }] }],
        displayName: "rivers",
        ttl: "600s",
      },
    });
    expect(cache.name).toMatch(/^cachedContents\//);
    expect(cache.usageMetadata?.totalTokenCount).toBeGreaterThanOrEqual(1024);

    const mine: string[] = [];
    for await (const item of await alice.caches.list()) mine.push(item.name!);
    expect(mine).toContain(cache.name);
    const theirs: string[] = [];
    for await (const item of await bob.caches.list()) theirs.push(item.name!);
    expect(theirs).not.toContain(cache.name);

    expect((await alice.caches.get({ name: cache.name! })).displayName).toBe("rivers");
    const updated = await alice.caches.update({ name: cache.name!, config: { ttl: "1200s" } });
    expect(Date.parse(updated.expireTime!)).toBeGreaterThan(Date.parse(cache.expireTime!));

    const answer = await alice.models.generateContent({
      model: MODEL,
      contents: "Summarise.",
      config: { cachedContent: cache.name!, maxOutputTokens: 20 },
    });
    expect(answer.usageMetadata?.cachedContentTokenCount).toBe(
      cache.usageMetadata?.totalTokenCount,
    );

    // One at a time: a refusal that arrived before the loop awaited it would be unhandled.
    for (const attempt of [
      () => bob.caches.get({ name: cache.name! }),
      () => bob.caches.update({ name: cache.name!, config: { ttl: "60s" } }),
      () => bob.caches.delete({ name: cache.name! }),
      () =>
        bob.models.generateContent({
          model: MODEL,
          contents: "Summarise.",
          config: { cachedContent: cache.name! },
        }),
      () =>
        bob.models
          .countTokens({
            model: MODEL,
            contents: [{ role: "user", parts: [{ text: "x" }] }],
            config: {},
          })
          .then(async () => {
            // countTokens with a cache goes through generateContentRequest in the raw API.
            const response = await fetch(`${gateway.baseUrl}/v1beta/models/${MODEL}:countTokens`, {
              method: "POST",
              headers: { "x-goog-api-key": GATEWAY_KEYS.bob, "content-type": "application/json" },
              body: JSON.stringify({
                generateContentRequest: {
                  model: `models/${MODEL}`,
                  contents: [{ parts: [{ text: "x" }] }],
                  cachedContent: cache.name,
                },
              }),
            });
            throw Object.assign(new Error(await response.text()), { status: response.status });
          }),
    ]) {
      expect(await rejection(attempt())).toEqual({ status: 403, message: CACHE_DENIED });
    }

    await alice.caches.delete({ name: cache.name! });
    expect(await rejection(alice.caches.get({ name: cache.name! }))).toEqual({
      status: 403,
      message: CACHE_DENIED,
    });
  });
});

test("no response of this spec carried an upstream key", async () => {
  expect(await responsesLeakingSecrets()).toEqual([]);
});
