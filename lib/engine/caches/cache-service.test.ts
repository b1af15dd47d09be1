import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { OperationContext } from "@/lib/gemini/backend/contract";
import type { CachedContent } from "@/lib/gemini/types";
import { parseCachedContentCreate, parseCachedContentUpdate } from "@/lib/gemini/validate-caches";
import { requireModel } from "../catalog";
import { MediaProbeError, probeMedia } from "../media/probe";
import { countRequestTokens, terminateTokenizerWorkers } from "../tokens";
import { createStorage, type Storage } from "../storage";
import { testDatabaseKinds } from "@/lib/testing/databases";
import { PNG_1X1, streamOf, tempData, TestClock, type TempData } from "@/lib/testing/engine-files";

const alice = { ownerId: "key:alice" };
const bob = { ownerId: "key:bob" };
const FLASH = "models/gemini-2.5-flash";
const SENTENCE =
  "The quick brown fox jumps over the lazy dog while the cat watches from the warm windowsill. ";
/** About 1,800 tokens: over 2.5 Flash's minimum of 1,024. */
const LONG_TEXT = SENTENCE.repeat(90);

function context(caller = alice): OperationContext {
  return { caller, signal: new AbortController().signal };
}

async function rejection(work: () => unknown): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe.each(testDatabaseKinds())("cachedContents on the local engine ($dialect)", (kind) => {
  let data: TempData;
  let clock: TestClock;
  let storage: Storage;

  beforeEach(async () => {
    data = await tempData(kind);
    clock = new TestClock();
    storage = createStorage({
      stores: data.stores,
      dataDir: data.dataDir,
      now: clock.now,
      sweepIntervalMs: 0,
      countTokens: (traits, input, options) => countRequestTokens(traits, input, options),
      probe: (filePath, mimeType, signal) => probeMedia({ path: filePath }, mimeType, signal),
      isMediaProblem: (error) => error instanceof MediaProbeError,
    });
  });
  afterEach(async () => {
    storage.close();
    await data.cleanup();
  });
  afterAll(() => terminateTokenizerWorkers());

  function create(body: Record<string, unknown>, caller = alice): Promise<CachedContent> {
    return storage.operations.createCachedContent(parseCachedContentCreate(body), context(caller));
  }

  async function update(name: string, body: unknown, updateMask: string | null = null) {
    return storage.operations.updateCachedContent(
      name,
      parseCachedContentUpdate(body, updateMask),
      context(),
    );
  }

  it("holds each owner to its quota of caches and cached bytes, with the service's 429", async () => {
    const limited = createStorage({
      stores: data.stores,
      dataDir: data.dataDir,
      now: clock.now,
      sweepIntervalMs: 0,
      cacheQuota: { count: 2, bytes: 4 * LONG_TEXT.length },
      countTokens: (traits, input, options) => countRequestTokens(traits, input, options),
      probe: (filePath, mimeType, signal) => probeMedia({ path: filePath }, mimeType, signal),
      isMediaProblem: (error) => error instanceof MediaProbeError,
    });
    try {
      const body = (ttl: string, text = LONG_TEXT) => ({
        model: FLASH,
        contents: [{ role: "user", parts: [{ text }] }],
        ttl,
      });
      const make = (input: Record<string, unknown>, caller = alice) =>
        limited.operations.createCachedContent(parseCachedContentCreate(input), context(caller));
      // A ten-year TTL is accepted (the service sets no maximum) but counts until it ends.
      await make(body("315360000s"));
      const short = await make(body("60s"));
      const third = await rejection(() => make(body("60s")));
      expect(third.httpStatus).toBe(429);
      expect(third.rpcStatus).toBe("RESOURCE_EXHAUSTED");
      expect(third.message).toContain("You exceeded your current quota");
      expect(third.details?.[0]).toMatchObject({
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        violations: [{ quotaMetric: "genstudio/cached_contents", quotaValue: "2" }],
      });
      // Another owner has a quota of its own; bytes are refused before any token is counted.
      const huge = await rejection(() => make(body("60s", LONG_TEXT.repeat(5)), bob));
      expect(huge.details?.[0]).toMatchObject({
        violations: [{ quotaMetric: "genstudio/cached_content_bytes" }],
      });
      await make(body("60s"), bob);
      // An expired or deleted cache no longer counts.
      expect(short.expireTime).toBeDefined();
      clock.advance(61_000);
      const next = await make(body("600s"));
      expect((await rejection(() => make(body("600s")))).httpStatus).toBe(429);
      await limited.operations.deleteCachedContent(next.name, context());
      await make(body("600s"));
    } finally {
      limited.close();
    }
  });

  it("lets exactly the quota's number of 30 concurrent creates pass (on PostgreSQL from two instances)", async () => {
    // Several instances share a database only on PostgreSQL (SQLite serves one process).
    const second = kind.dialect === "postgres" ? await data.reopen({ now: clock.now }) : data;
    const instance = (stores: typeof data.stores) =>
      createStorage({
        stores,
        dataDir: data.dataDir,
        now: clock.now,
        sweepIntervalMs: 0,
        cacheQuota: { count: 3, bytes: 0 },
        countTokens: (traits, input, options) => countRequestTokens(traits, input, options),
        probe: (filePath, mimeType, signal) => probeMedia({ path: filePath }, mimeType, signal),
        isMediaProblem: (error) => error instanceof MediaProbeError,
      });
    const instances = [instance(data.stores), instance(second.stores)];
    try {
      const input = parseCachedContentCreate({
        model: FLASH,
        contents: [{ role: "user", parts: [{ text: LONG_TEXT }] }],
        ttl: "600s",
      });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, index) =>
          instances[index % 2]!.operations.createCachedContent(input, context()),
        ),
      );
      const created = outcomes.filter((outcome) => outcome.status === "fulfilled");
      const refused = outcomes.flatMap((outcome) =>
        outcome.status === "rejected" ? [outcome.reason as ApiError] : [],
      );
      expect(created).toHaveLength(3);
      expect(refused).toHaveLength(27);
      expect(refused.every((error) => error.httpStatus === 429)).toBe(true);
      expect(
        (await storage.operations.listCachedContents({}, context())).cachedContents,
      ).toHaveLength(3);
    } finally {
      for (const opened of instances) opened.close();
    }
  });

  it("creates a cache sized by the model's cache rules and answers only its metadata", async () => {
    const body = {
      model: FLASH,
      contents: [{ role: "user", parts: [{ text: LONG_TEXT }] }],
      system_instruction: { parts: [{ text: "You are terse." }] },
      ttl: "600s",
    };
    const cache = await create(body);
    const expected = await countRequestTokens(
      requireModel(FLASH, "countTokens").traits,
      { contents: body.contents, systemInstruction: body.system_instruction },
      { purpose: "cache" },
    );
    expect(cache).toEqual({
      name: expect.stringMatching(/^cachedContents\/[a-z0-9]{40}$/),
      model: FLASH,
      displayName: "",
      // The service's digits: stamps in microseconds, expiries in nanoseconds.
      createTime: "2025-01-15T12:00:00.000000Z",
      updateTime: "2025-01-15T12:00:00.000000Z",
      expireTime: "2025-01-15T12:10:00.000000000Z",
      usageMetadata: { totalTokenCount: expected.totalTokens },
    });
    expect(expected.totalTokens).toBeGreaterThan(1024);
    expect(await storage.operations.getCachedContent(cache.name, context())).toEqual(cache);
  });

  it("refuses a cache under the model's minimum with the service's message", async () => {
    const error = await rejection(() =>
      create({ model: FLASH, contents: [{ parts: [{ text: "Too short to cache." }] }] }),
    );
    expect(error.httpStatus).toBe(400);
    expect(error.message).toMatch(
      /^Cached content is too small\. total_token_count=\d+, min_total_token_count=1024$/,
    );
  });

  it("checks the model, the display name and the expiration fields", async () => {
    const contents = [{ parts: [{ text: LONG_TEXT }] }];
    expect(
      (await rejection(() => create({ model: "models/gemini-9-ultra", contents }))).httpStatus,
    ).toBe(404);
    expect((await rejection(() => create({ contents }))).httpStatus).toBe(400);
    const long = await rejection(() =>
      create({ model: FLASH, contents, displayName: "x".repeat(129) }),
    );
    expect(long.httpStatus).toBe(400);
    expect(long.message).toContain("display_name");
    await expect(
      create({ model: FLASH, contents, displayName: "é".repeat(128) }),
    ).resolves.toMatchObject({ displayName: "é".repeat(128) });
    const both = await rejection(() =>
      create({ model: FLASH, contents, ttl: "60s", expireTime: "2025-01-15T13:00:00Z" }),
    );
    expect(both.message).toContain("mutually exclusive");
    expect(
      (await rejection(() => create({ model: FLASH, contents, ttl: "10 minutes" }))).message,
    ).toContain("ttl");
    expect(
      (await rejection(() => create({ model: FLASH, contents, expireTime: "tomorrow" }))).message,
    ).toContain("expire_time");
    expect(
      (
        await rejection(() =>
          create({ model: FLASH, contents, expireTime: "2025-01-15T11:00:00Z" }),
        )
      ).message,
    ).toContain("future");
    const offset = await create({
      model: FLASH,
      contents,
      expireTime: "2025-01-15T14:30:00.5+01:00",
    });
    expect(offset.expireTime).toBe("2025-01-15T13:30:00.500000000Z");
    const fraction = await create({ model: FLASH, contents, ttl: "1.123456789s" });
    expect(fraction.expireTime).toBe("2025-01-15T12:00:01.123000000Z");
  });

  it("belongs to its creator, expires for real, and updates only its expiration", async () => {
    const cache = await create({
      model: FLASH,
      contents: [{ parts: [{ text: LONG_TEXT }] }],
      displayName: "book",
      ttl: "60s",
    });
    const denied = await rejection(() =>
      storage.operations.getCachedContent(cache.name, context(bob)),
    );
    expect(denied.httpStatus).toBe(403);
    expect(denied.message).toBe("CachedContent not found (or permission denied)");
    expect(
      (await rejection(() => storage.operations.deleteCachedContent(cache.name, context(bob))))
        .httpStatus,
    ).toBe(403);

    clock.advance(30_000);
    const updated = await update(cache.name, { ttl: "3600s" });
    expect(updated.expireTime).toBe("2025-01-15T13:00:30.000000000Z");
    expect(updated.updateTime).toBe("2025-01-15T12:00:30.000000Z");
    expect(updated.createTime).toBe(cache.createTime);
    const masked = await update(cache.name, { expireTime: "2025-01-15T12:05:00Z" }, "expireTime");
    expect(masked.expireTime).toBe("2025-01-15T12:05:00.000000000Z");
    expect((await rejection(() => update(cache.name, { displayName: "new" }))).httpStatus).toBe(
      400,
    );
    // The cache's own model may be sent back with the new expiration (as the service takes it).
    expect((await update(cache.name, { ttl: "120s", model: FLASH })).model).toBe(cache.model);
    expect(
      (await rejection(() => update(cache.name, { ttl: "120s", model: "models/gemini-2.5-pro" })))
        .message,
    ).toContain("model cannot be updated");
    await update(cache.name, { expireTime: "2025-01-15T12:05:00Z" });

    clock.advance(5 * 60_000);
    expect(
      (await rejection(() => storage.operations.getCachedContent(cache.name, context())))
        .httpStatus,
    ).toBe(403);
    expect(await storage.operations.listCachedContents({}, context())).toEqual({});
    expect((await rejection(() => update(cache.name, { ttl: "60s" }))).httpStatus).toBe(403);
    expect(await storage.caches.sweep()).toBe(1);
  });

  it("gives what a cache holds to its owner only, while it lives (URL context reads it)", async () => {
    const cache = await create({
      model: FLASH,
      contents: [{ role: "user", parts: [{ text: LONG_TEXT }] }],
      systemInstruction: { parts: [{ text: "You are terse." }] },
      ttl: "60s",
    });
    expect(await storage.caches.inputForCaller(cache.name, alice)).toEqual({
      contents: [{ role: "user", parts: [{ text: LONG_TEXT }] }],
      systemInstruction: { parts: [{ text: "You are terse." }] },
    });
    const denied = await rejection(() => storage.caches.inputForCaller(cache.name, bob));
    expect([denied.httpStatus, denied.message]).toEqual([
      403,
      "CachedContent not found (or permission denied)",
    ]);
    const missing = await rejection(() =>
      storage.caches.inputForCaller("cachedContents/nothinghere", alice),
    );
    expect(missing.httpStatus).toBe(403);
    clock.advance(61_000);
    expect(
      (await rejection(() => storage.caches.inputForCaller(cache.name, alice))).httpStatus,
    ).toBe(403);
  });

  it("reads a large cache's input in slices, letting the event loop run", async () => {
    const parts = Array.from({ length: 40_000 }, (_, index) => ({
      text: `part ${index} of many `,
    }));
    const cache = await create({ model: FLASH, contents: [{ role: "user", parts }], ttl: "60s" });
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      const input = await storage.caches.inputForCaller(cache.name, alice);
      expect(input.contents[0]!.parts).toHaveLength(40_000);
    } finally {
      clearInterval(timer);
    }
    expect(turns).toBeGreaterThan(0);
  });

  it("deletes", async () => {
    const cache = await create({ model: FLASH, contents: [{ parts: [{ text: LONG_TEXT }] }] });
    await storage.operations.deleteCachedContent(cache.name, context());
    expect(
      (await rejection(() => storage.operations.getCachedContent(cache.name, context())))
        .httpStatus,
    ).toBe(403);
  });

  it("lists newest first with keyset page tokens bound to the page size", async () => {
    const record = storage.caches.store;
    for (let index = 0; index < 250; index++) {
      await record.insert(
        {
          id: `cache${String(index).padStart(4, "0")}`,
          ownerId: alice.ownerId,
          model: FLASH,
          displayName: `c${index}`,
          totalTokenCount: 2000,
          tokenDetails: null,
          createTime: clock.time + Math.floor(index / 3),
          updateTime: clock.time,
          expireTime: clock.time + 3_600_000,
        },
        { json: '{"contents":[]}', sizeBytes: 15 },
      );
    }
    const first = await storage.operations.listCachedContents({}, context());
    expect(first.cachedContents).toHaveLength(100);
    expect(first.cachedContents![0]!.displayName).toBe("c249");
    const names = first.cachedContents!.map((cache) => cache.displayName);
    let token = first.nextPageToken;
    while (token) {
      const page = await storage.operations.listCachedContents({ pageToken: token }, context());
      names.push(...page.cachedContents!.map((cache) => cache.displayName));
      token = page.nextPageToken;
    }
    expect(names).toEqual(Array.from({ length: 250 }, (_, index) => `c${249 - index}`));
    const wrongSize = await rejection(() =>
      storage.operations.listCachedContents(
        { pageSize: 7, pageToken: first.nextPageToken },
        context(),
      ),
    );
    expect(wrongSize.message).toContain("page_token");
    const otherOwner = await rejection(() =>
      storage.operations.listCachedContents({ pageToken: first.nextPageToken }, context(bob)),
    );
    expect(otherOwner.httpStatus).toBe(400);
    const all = await storage.operations.listCachedContents({ pageSize: 5000 }, context());
    expect(all.cachedContents).toHaveLength(250);
    expect(all).not.toHaveProperty("nextPageToken");
  });

  it("merges a cache into a request, and refuses conflicts, other models and other owners", async () => {
    const cache = await create({
      model: FLASH,
      contents: [{ role: "user", parts: [{ text: LONG_TEXT }] }],
      systemInstruction: { parts: [{ text: "Answer in French." }] },
      tools: [{ functionDeclarations: [{ name: "lookup", description: "Looks a word up." }] }],
    });
    const traits = requireModel(FLASH, "generateContent").traits;
    const question = { role: "user", parts: [{ text: "What does the fox do?" }] };
    const merge = await storage.caches.resolveCachedContentForRequest(
      { contents: [question], cachedContent: cache.name },
      traits,
      alice,
    );
    expect(merge.mergedRequest.contents).toHaveLength(2);
    expect(merge.mergedRequest.contents[1]).toEqual(question);
    expect(merge.mergedRequest.systemInstruction).toEqual({
      parts: [{ text: "Answer in French." }],
    });
    expect(merge.mergedRequest.tools?.[0]?.functionDeclarations?.[0]?.name).toBe("lookup");
    expect(merge.mergedRequest).not.toHaveProperty("cachedContent");
    expect(merge.cachedContentTokenCount).toBe(cache.usageMetadata.totalTokenCount);

    const conflict = await rejection(() =>
      storage.caches.resolveCachedContentForRequest(
        {
          contents: [question],
          cachedContent: cache.name,
          systemInstruction: { parts: [{ text: "x" }] },
        },
        traits,
        alice,
      ),
    );
    expect(conflict.httpStatus).toBe(400);
    expect(conflict.message).toContain("system_instruction, tools or tool_config");
    const otherModel = await rejection(() =>
      storage.caches.resolveCachedContentForRequest(
        { contents: [question], cachedContent: cache.name },
        requireModel("models/gemini-2.5-flash-lite", "generateContent").traits,
        alice,
      ),
    );
    expect(otherModel.httpStatus).toBe(400);
    expect(otherModel.message).toContain("has to be the same");
    const notYours = await rejection(() =>
      storage.caches.resolveCachedContentForRequest(
        { contents: [question], cachedContent: cache.name },
        traits,
        bob,
      ),
    );
    expect(notYours.httpStatus).toBe(403);
    expect(
      await storage.caches.resolveCachedContentForRequest({ contents: [question] }, traits, alice),
    ).toEqual({ mergedRequest: { contents: [question] } });
  });

  it("counts a request with its cache: totalTokens includes the cached tokens", async () => {
    const cache = await create({
      model: FLASH,
      contents: [{ role: "user", parts: [{ text: LONG_TEXT }] }],
    });
    const traits = requireModel(FLASH, "countTokens").traits;
    const question = { role: "user", parts: [{ text: "What does the fox do?" }] };
    const own = await countRequestTokens(traits, { contents: [question] });
    const { caller, signal } = context();
    const counted = await storage.caches.countWithCache(
      { contents: [question], cachedContent: cache.name },
      traits,
      caller,
      signal,
    );
    expect(counted.cachedContentTokenCount).toBe(cache.usageMetadata.totalTokenCount);
    expect(counted.totalTokens).toBe(own.totalTokens + cache.usageMetadata.totalTokenCount);
    expect(counted.cacheTokensDetails).toEqual([
      { modality: "TEXT", tokenCount: cache.usageMetadata.totalTokenCount },
    ]);
    expect(counted.promptTokensDetails).toEqual([
      { modality: "TEXT", tokenCount: counted.totalTokens },
    ]);
  });

  it("sizes files referenced by a cache, and only the creator's files", async () => {
    const { uploadId } = await storage.operations.startUpload(
      { declaredSize: PNG_1X1.length, contentType: "image/png", file: {} },
      context(),
    );
    const final = await storage.operations.uploadChunk(
      uploadId,
      { upload: true, finalize: true, offset: 0, body: streamOf(PNG_1X1) },
      { ...context(), origin: "http://127.0.0.1:3000" },
    );
    expect(final.file?.state).toBe("ACTIVE");
    const parts = [
      { fileData: { fileUri: final.file!.uri, mimeType: "image/png" } },
      { text: SENTENCE.repeat(80) },
    ];
    const cache = await create({ model: FLASH, contents: [{ role: "user", parts }] });
    const textOnly = await countRequestTokens(requireModel(FLASH, "countTokens").traits, {
      contents: [{ role: "user", parts: [parts[1]!] }],
    });
    expect(cache.usageMetadata.totalTokenCount).toBe(textOnly.totalTokens + 258);
    const denied = await rejection(() =>
      create({ model: FLASH, contents: [{ role: "user", parts }] }, bob),
    );
    expect(denied.httpStatus).toBe(403);
    expect(denied.message).toContain("You do not have permission to access the File");
  });
});
