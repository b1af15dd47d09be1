import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestUpstream, type TestUpstream } from "@/e2e/support/test-upstream";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { testUpstreamBackend, testUpstreamSettings } from "@/lib/testing/upstream-backend";
import type { UpstreamBackend } from "./upstream-backend";

/**
 * The gateway's ownership records live exactly as long as what they name:
 * replaced when the upstream hands a name out again, ended at the resource's expiry and on
 * delete, and ended when the upstream says the name is gone, on both database drivers.
 */

const origin = "http://studio.example";
function as(ownerId: string) {
  return { caller: { ownerId }, signal: new AbortController().signal, origin };
}
const alice = () => as("key:alice");
const bob = () => as("key:bob");
const denied = { httpStatus: 403, message: "CachedContent not found (or permission denied)" };

function streamOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}

describe.each(testDatabaseKinds())("gateway ownership records ($dialect)", (kind) => {
  let upstream: TestUpstream;
  let data: TestDatabase;
  let backend: UpstreamBackend;

  beforeAll(async () => {
    upstream = await startTestUpstream();
    data = await kind.open();
    backend = testUpstreamBackend(data.stores, testUpstreamSettings(upstream.url));
  });

  afterAll(async () => {
    await backend.client.close();
    await upstream.close();
    await data.cleanup();
  });

  async function createCache(who = alice(), extra: Record<string, string> = {}) {
    return backend.createCachedContent(
      { model: "models/ok-cache", contents: [{ role: "user", parts: [{ text: "x" }] }], ...extra },
      who,
    );
  }

  async function uploadFile(who = alice()) {
    const { uploadId } = await backend.startUpload(
      { declaredSize: 2, contentType: "text/plain", file: { displayName: "f" } },
      who,
    );
    const done = await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: true, offset: 0, contentLength: 2, body: streamOf("hi") },
      who,
    );
    return done.file!;
  }

  async function expiryOf(name: string): Promise<number | null> {
    const row = await data.database.get<{ expires_at: number | null }>(
      "SELECT expires_at FROM resource_owners WHERE name = ?",
      [name],
    );
    return row ? (row.expires_at === null ? null : Number(row.expires_at)) : null;
  }

  it("gives a name the upstream hands out again to its new creator, not the previous one", async () => {
    const first = await createCache(alice());
    // Deleted outside the gateway; the upstream then gives the name to bob's new cache.
    upstream.removeResource(first.name);
    upstream.reissueName(first.name);
    const second = await createCache(bob());
    expect(second.name).toBe(first.name);
    expect(await backend.ownership.ownerOf("cachedContent", first.name)).toBe("key:bob");
    const before = upstream.requests.length;
    await expect(backend.getCachedContent(first.name, alice())).rejects.toMatchObject(denied);
    await expect(
      backend.generateContent(
        "models/ok-use",
        { contents: [{ parts: [{ text: "hi" }] }], cachedContent: first.name },
        alice(),
      ),
    ).rejects.toMatchObject(denied);
    expect(upstream.requests.length).toBe(before);
    expect((await backend.getCachedContent(first.name, bob())).name).toBe(first.name);
  });

  it("ends a cache's record when it expires, and moves it with an update", async () => {
    // The time left is read in the upstream's clock (expireTime less updateTime) and counted
    // from this server's now, so the two clocks need not agree (the replay spec's upstream
    // answers with the 2025 times it recorded).
    const asked = Date.now();
    const lasting = await createCache(alice(), { ttl: "3600s" });
    const left = Date.parse(lasting.expireTime!) - Date.parse(lasting.updateTime!);
    expect(await expiryOf(lasting.name)).toBeGreaterThanOrEqual(asked + left);
    expect(await expiryOf(lasting.name)).toBeLessThanOrEqual(Date.now() + left);
    const expired = await createCache(alice(), { expireTime: "2001-01-01T00:00:00Z" });
    const before = upstream.requests.length;
    await expect(backend.getCachedContent(expired.name, alice())).rejects.toMatchObject(denied);
    expect(upstream.requests.length).toBe(before);
    await backend.updateCachedContent(
      lasting.name,
      { expireTime: "2002-01-01T00:00:00Z" },
      alice(),
    );
    expect(await expiryOf(lasting.name)).toBeLessThanOrEqual(Date.now());
    await expect(backend.getCachedContent(lasting.name, alice())).rejects.toMatchObject(denied);
  });

  it("ends a file's record at its expirationTime and on delete", async () => {
    const asked = Date.now();
    const file = await uploadFile();
    const left = Date.parse(file.expirationTime!) - Date.parse(file.updateTime ?? file.createTime!);
    expect(await expiryOf(file.name)).toBeGreaterThanOrEqual(asked + left - 1000);
    expect(await expiryOf(file.name)).toBeLessThanOrEqual(Date.now() + left);
    await backend.deleteFile(file.name, alice());
    expect(await backend.ownership.ownerOf("file", file.name)).toBeNull();
  });

  it("ends the record when the upstream says a cache or file is gone on get, update, delete or use", async () => {
    const onGet = await createCache();
    upstream.removeResource(onGet.name);
    await expect(backend.getCachedContent(onGet.name, alice())).rejects.toMatchObject(denied);
    expect(await backend.ownership.ownerOf("cachedContent", onGet.name)).toBeNull();

    const onUpdate = await createCache();
    upstream.removeResource(onUpdate.name);
    await expect(
      backend.updateCachedContent(onUpdate.name, { ttl: "60s" }, alice()),
    ).rejects.toMatchObject(denied);
    expect(await backend.ownership.ownerOf("cachedContent", onUpdate.name)).toBeNull();

    const onUse = await createCache();
    upstream.removeResource(onUse.name);
    await expect(
      backend.generateContent(
        "models/ok-use",
        { contents: [{ parts: [{ text: "hi" }] }], cachedContent: onUse.name },
        alice(),
      ),
    ).rejects.toMatchObject(denied);
    expect(await backend.ownership.ownerOf("cachedContent", onUse.name)).toBeNull();

    const file = await uploadFile();
    const kept = await uploadFile();
    upstream.removeResource(file.name);
    const stream = backend.streamGenerateContent(
      "models/ok-use",
      {
        contents: [
          {
            parts: [
              { fileData: { fileUri: kept.uri!, mimeType: "text/plain" } },
              { fileData: { fileUri: file.uri!, mimeType: "text/plain" } },
            ],
          },
        ],
      },
      alice(),
    );
    const chunks: GenerateContentResponse[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) chunks.push(chunk);
      })(),
    ).rejects.toMatchObject({ httpStatus: 403 });
    expect(await backend.ownership.ownerOf("file", file.name)).toBeNull();
    // Only the file the upstream named is forgotten.
    expect(await backend.ownership.ownerOf("file", kept.name)).toBe("key:alice");

    const onFileGet = await uploadFile();
    upstream.removeResource(onFileGet.name);
    await expect(backend.getFile(onFileGet.name, alice())).rejects.toMatchObject({
      httpStatus: 403,
    });
    expect(await backend.ownership.ownerOf("file", onFileGet.name)).toBeNull();
  });

  it("holds each owner to its cache quota before anything goes upstream", async () => {
    const limited = testUpstreamBackend(data.stores, backend.client.settings, {
      cacheQuota: { count: 2, bytes: 3000 },
    });
    try {
      const carol = () => as("key:carol");
      const first = await limited.createCachedContent(
        { model: "models/ok-cache", contents: [{ parts: [{ text: "x".repeat(1000) }] }] },
        carol(),
      );
      const before = upstream.requestsFor("/cachedContents").length;
      const tooBig = await limited
        .createCachedContent(
          { model: "models/ok-cache", contents: [{ parts: [{ text: "x".repeat(2000) }] }] },
          carol(),
        )
        .catch((error: unknown) => error);
      expect(tooBig).toMatchObject({
        httpStatus: 429,
        rpcStatus: "RESOURCE_EXHAUSTED",
        details: [{ violations: [{ quotaMetric: "genstudio/cached_content_bytes" }] }],
      });
      await limited.createCachedContent(
        { model: "models/ok-cache", contents: [{ parts: [{ text: "y" }] }] },
        carol(),
      );
      await expect(
        limited.createCachedContent(
          { model: "models/ok-cache", contents: [{ parts: [{ text: "z" }] }] },
          carol(),
        ),
      ).rejects.toMatchObject({
        httpStatus: 429,
        details: [{ violations: [{ quotaMetric: "genstudio/cached_contents", quotaValue: "2" }] }],
      });
      expect(upstream.requestsFor("/cachedContents").length).toBe(before + 1);
      // Deleted (or found gone, or expired): no longer counted.
      await limited.deleteCachedContent(first.name, carol());
      await limited.createCachedContent(
        { model: "models/ok-cache", contents: [{ parts: [{ text: "z" }] }] },
        carol(),
      );
    } finally {
      await limited.client.close();
    }
  });

  it("lets exactly the quota's number of 30 concurrent creates pass (on PostgreSQL from two instances)", async () => {
    // Several instances share a database only on PostgreSQL (SQLite serves one process).
    const second = kind.dialect === "postgres" ? await data.reopen() : data;
    const gateways = [
      testUpstreamBackend(data.stores, backend.client.settings, {
        cacheQuota: { count: 3, bytes: 0 },
      }),
      testUpstreamBackend(second.stores, backend.client.settings, {
        cacheQuota: { count: 3, bytes: 0 },
      }),
    ];
    try {
      const dave = () => as("key:dave");
      const before = upstream.requestsFor("/cachedContents").length;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, index) =>
          gateways[index % 2]!.createCachedContent(
            { model: "models/ok-cache", contents: [{ parts: [{ text: `copy ${index}` }] }] },
            dave(),
          ),
        ),
      );
      const created = outcomes.filter((outcome) => outcome.status === "fulfilled");
      expect(created).toHaveLength(3);
      expect(
        outcomes.every(
          (outcome) =>
            outcome.status === "fulfilled" ||
            (outcome.reason as { httpStatus: number }).httpStatus === 429,
        ),
      ).toBe(true);
      // Only the admitted creates went upstream, and the reservations became their records.
      expect(upstream.requestsFor("/cachedContents").length).toBe(before + 3);
      expect(await backend.ownership.usage("cachedContent", "key:dave")).toMatchObject({
        count: 3,
      });
    } finally {
      for (const gateway of gateways) await gateway.client.close();
    }
  });

  it("frees a reserved place when the create is refused", async () => {
    const limited = testUpstreamBackend(data.stores, backend.client.settings, {
      cacheQuota: { count: 1, bytes: 0 },
    });
    try {
      const erin = () => as("key:erin");
      await expect(
        limited.createCachedContent(
          {
            model: "models/ok-cache",
            contents: [
              { parts: [{ fileData: { fileUri: "files/nobodys", mimeType: "text/plain" } }] },
            ],
          },
          erin(),
        ),
      ).rejects.toMatchObject({ httpStatus: 403 });
      expect(await backend.ownership.usage("cachedContent", "key:erin")).toEqual({
        count: 0,
        bytes: 0,
      });
      await limited.createCachedContent(
        { model: "models/ok-cache", contents: [{ parts: [{ text: "x" }] }] },
        erin(),
      );
    } finally {
      await limited.client.close();
    }
  });

  it("keeps the record when the upstream fails for another reason", async () => {
    const cache = await createCache();
    await expect(
      backend.generateContent(
        "models/always-503-keep",
        { contents: [{ parts: [{ text: "hi" }] }], cachedContent: cache.name },
        alice(),
      ),
    ).rejects.toMatchObject({ httpStatus: 503 });
    expect(await backend.ownership.ownerOf("cachedContent", cache.name)).toBe("key:alice");
  });
});
