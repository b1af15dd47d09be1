import { expect, test } from "@playwright/test";
import { api, sdkClient } from "./support/api";
import { keyedServer, STUDIO_KEYS } from "./support/servers";

interface ErrorBody {
  error: { code: number; message: string; status: string };
}
interface WireCache {
  name: string;
  model: string;
  displayName: string;
  createTime: string;
  updateTime: string;
  expireTime: string;
  usageMetadata: { totalTokenCount: number };
}

const MODEL = "gemini-2.5-flash";
const SENTENCE =
  "A lighthouse keeper writes down the weather, the ships and the colour of the sea every evening. ";
/** Comfortably over 2.5 Flash's minimum cache size of 1,024 tokens. */
const BOOK = SENTENCE.repeat(80);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3}|\.\d{6}|\.\d{9})?Z$/;

function cacheBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: `models/${MODEL}`,
    contents: [{ role: "user", parts: [{ text: BOOK }] }],
    ...extra,
  };
}

test.describe("cachedContents through the official SDK", () => {
  test("create, list, get, update and delete", async () => {
    const ai = sdkClient();
    const created = await ai.caches.create({
      model: MODEL,
      config: {
        contents: [{ role: "user", parts: [{ text: BOOK }] }],
        systemInstruction: "You are a lighthouse keeper.",
        displayName: "logbook",
        ttl: "300s",
      },
    });
    expect(created.name).toMatch(/^cachedContents\/[a-z0-9]+$/);
    expect(created.model).toBe(`models/${MODEL}`);
    expect(created.displayName).toBe("logbook");
    expect(created.usageMetadata?.totalTokenCount).toBeGreaterThan(1024);
    expect(created.createTime).toMatch(TIMESTAMP);
    const lifetime = Date.parse(created.expireTime!) - Date.parse(created.createTime!);
    expect(lifetime).toBe(300_000);

    const names: string[] = [];
    for await (const cache of await ai.caches.list({ config: { pageSize: 1 } }))
      names.push(cache.name!);
    expect(names).toContain(created.name);

    const got = await ai.caches.get({ name: created.name! });
    expect(got).toMatchObject({
      name: created.name,
      displayName: "logbook",
      expireTime: created.expireTime,
    });

    const updated = await ai.caches.update({ name: created.name!, config: { ttl: "7200s" } });
    expect(Date.parse(updated.expireTime!) - Date.parse(updated.updateTime!)).toBe(7_200_000);
    expect(Date.parse(updated.updateTime!)).toBeGreaterThanOrEqual(Date.parse(created.updateTime!));

    await ai.caches.delete({ name: created.name! });
    await expect(ai.caches.get({ name: created.name! })).rejects.toThrow(
      /CachedContent not found \(or permission denied\)/,
    );
  });

  test("countTokens with the cache counts the cached tokens inside the total", async () => {
    const ai = sdkClient();
    const cache = await ai.caches.create({
      model: MODEL,
      config: { contents: [{ role: "user", parts: [{ text: BOOK }] }] },
    });
    const cached = cache.usageMetadata!.totalTokenCount!;
    const question = { role: "user", parts: [{ text: "What did the keeper write down?" }] };
    const alone = await api(`/v1beta/models/${MODEL}:countTokens`, {
      method: "POST",
      body: { contents: [question] },
    });
    const withCache = await api(`/v1beta/models/${MODEL}:countTokens`, {
      method: "POST",
      body: {
        generateContentRequest: {
          model: `models/${MODEL}`,
          contents: [question],
          cachedContent: cache.name,
        },
      },
    });
    expect(withCache.status).toBe(200);
    const counted = withCache.body as { totalTokens: number; cachedContentTokenCount: number };
    expect(counted.cachedContentTokenCount).toBe(cached);
    expect(counted.totalTokens).toBe((alone.body as { totalTokens: number }).totalTokens + cached);
    await ai.caches.delete({ name: cache.name! });
  });

  test("generateContent and its stream with the cache report cachedContentTokenCount inside promptTokenCount", async () => {
    const ai = sdkClient();
    const cache = await ai.caches.create({
      model: MODEL,
      config: { contents: [{ role: "user", parts: [{ text: BOOK }] }] },
    });
    const cached = cache.usageMetadata!.totalTokenCount!;
    const question = "What did the keeper write down?";
    const response = await ai.models.generateContent({
      model: MODEL,
      contents: question,
      config: { cachedContent: cache.name, maxOutputTokens: 20, seed: 1 },
    });
    const usage = response.usageMetadata!;
    expect(usage.cachedContentTokenCount).toBe(cached);
    const alone = await ai.models.countTokens({ model: MODEL, contents: question });
    expect(usage.promptTokenCount).toBe(cached + alone.totalTokens!);

    let last;
    for await (const chunk of await ai.models.generateContentStream({
      model: MODEL,
      contents: question,
      config: { cachedContent: cache.name, maxOutputTokens: 20, seed: 1 },
    })) {
      last = chunk;
    }
    expect(last?.usageMetadata?.cachedContentTokenCount).toBe(cached);

    const conflict = await api(`/v1beta/models/${MODEL}:generateContent`, {
      method: "POST",
      body: {
        contents: [{ parts: [{ text: question }] }],
        cachedContent: cache.name,
        tools: [{ functionDeclarations: [{ name: "x" }] }],
      },
    });
    expect(conflict.status).toBe(400);
    const otherModel = await api("/v1beta/models/gemini-2.5-flash-lite:generateContent", {
      method: "POST",
      body: { contents: [{ parts: [{ text: question }] }], cachedContent: cache.name },
    });
    expect(otherModel.status).toBe(400);
    await ai.caches.delete({ name: cache.name! });
    const gone = await api(`/v1beta/models/${MODEL}:generateContent`, {
      method: "POST",
      body: { contents: [{ parts: [{ text: question }] }], cachedContent: cache.name },
    });
    expect(gone.status).toBe(403);
    expect((gone.body as ErrorBody).error.message).toBe(
      "CachedContent not found (or permission denied)",
    );
  });
});

test.describe("cachedContents, raw", () => {
  test("output carries only the resource's metadata, displayName empty when unset", async () => {
    const response = await api("/v1beta/cachedContents", {
      method: "POST",
      body: cacheBody({
        system_instruction: { parts: [{ text: "Be brief." }] },
        tools: [{ functionDeclarations: [{ name: "tide" }] }],
      }),
    });
    expect(response.status).toBe(200);
    const cache = response.body as WireCache;
    expect(Object.keys(cache).sort()).toEqual([
      "createTime",
      "displayName",
      "expireTime",
      "model",
      "name",
      "updateTime",
      "usageMetadata",
    ]);
    expect(cache.displayName).toBe("");
    expect(Date.parse(cache.expireTime) - Date.parse(cache.createTime)).toBe(3_600_000);
    expect((await api(`/v1beta/${cache.name}`, { method: "DELETE", body: {} })).body).toEqual({});
  });

  test("expireTime with an offset is answered in Z; ttl with nine fractional digits is accepted", async () => {
    const soon = new Date(Date.now() + 2 * 3_600_000);
    const local = new Date(soon.getTime() + 5.5 * 3_600_000)
      .toISOString()
      .replace(/\.\d{3}Z$/, ".250+05:30");
    const response = await api("/v1beta/cachedContents", {
      method: "POST",
      body: cacheBody({ expireTime: local }),
    });
    expect(response.status).toBe(200);
    const cache = response.body as WireCache;
    expect(cache.expireTime).toMatch(TIMESTAMP);
    expect(Date.parse(cache.expireTime)).toBe(Date.parse(local));
    const patched = await api(`/v1beta/${cache.name}?updateMask=ttl`, {
      method: "PATCH",
      body: { ttl: "120.123456789s" },
    });
    expect(patched.status).toBe(200);
    const expire = (patched.body as WireCache).expireTime;
    expect(Date.parse(expire) - Date.parse((patched.body as WireCache).updateTime)).toBe(120_123);
    await api(`/v1beta/${cache.name}`, { method: "DELETE" });
  });

  test("bad input: long displayName, ttl with expireTime, malformed duration and timestamp, small cache, bad model", async () => {
    const cases: { body: Record<string, unknown>; status: number; message: string | RegExp }[] = [
      { body: cacheBody({ displayName: "d".repeat(129) }), status: 400, message: "display_name" },
      {
        body: cacheBody({ ttl: "60s", expireTime: "2099-01-01T00:00:00Z" }),
        status: 400,
        message: "mutually exclusive",
      },
      { body: cacheBody({ ttl: "5m" }), status: 400, message: "ttl" },
      { body: cacheBody({ ttl: "1.1234567891s" }), status: 400, message: "ttl" },
      {
        body: cacheBody({ expireTime: "2099-13-01T00:00:00Z" }),
        status: 400,
        message: "expire_time",
      },
      { body: cacheBody({ expireTime: "next tuesday" }), status: 400, message: "expire_time" },
      { body: cacheBody({ expireTime: "2001-01-01T00:00:00Z" }), status: 400, message: "future" },
      {
        body: { model: `models/${MODEL}`, contents: [{ parts: [{ text: "Short." }] }] },
        status: 400,
        message:
          /^Cached content is too small\. total_token_count=\d+, min_total_token_count=1024$/,
      },
      { body: cacheBody({ model: "models/gemini-9-ultra" }), status: 404, message: "not found" },
      { body: { contents: [{ parts: [{ text: BOOK }] }] }, status: 400, message: "model" },
      { body: cacheBody({ bogus: true }), status: 400, message: 'Unknown name "bogus"' },
    ];
    for (const item of cases) {
      const response = await api("/v1beta/cachedContents", { method: "POST", body: item.body });
      expect(response.status, JSON.stringify(item.body).slice(0, 120)).toBe(item.status);
      const message = (response.body as ErrorBody).error.message;
      if (typeof item.message === "string") expect(message).toContain(item.message);
      else expect(message).toMatch(item.message);
    }
    const longest = await api("/v1beta/cachedContents", {
      method: "POST",
      body: cacheBody({ displayName: "ü".repeat(128) }),
    });
    expect(longest.status).toBe(200);
    await api(`/v1beta/${(longest.body as WireCache).name}`, { method: "DELETE" });
  });

  test("PATCH updates only the expiration", async () => {
    const cache = (await api("/v1beta/cachedContents", { method: "POST", body: cacheBody() }))
      .body as WireCache;
    const displayName = await api(`/v1beta/${cache.name}`, {
      method: "PATCH",
      body: { displayName: "renamed" },
    });
    expect(displayName.status).toBe(400);
    const mask = await api(`/v1beta/${cache.name}?updateMask=contents`, {
      method: "PATCH",
      body: { ttl: "60s" },
    });
    expect(mask.status).toBe(400);
    const both = await api(`/v1beta/${cache.name}`, {
      method: "PATCH",
      body: { ttl: "60s", expireTime: "2099-01-01T00:00:00Z" },
    });
    expect(both.status).toBe(400);
    const expire = await api(`/v1beta/${cache.name}`, {
      method: "PATCH",
      body: { expireTime: "2099-01-01T00:00:00+02:00" },
    });
    expect(expire.status).toBe(200);
    // In UTC, with the service's 9 fractional digits of an expiry.
    expect((expire.body as WireCache).expireTime).toBe("2098-12-31T22:00:00.000000000Z");
    await api(`/v1beta/${cache.name}`, { method: "DELETE" });
  });

  test("a cache that expires stops working and leaves the list", async () => {
    const cache = (
      await api("/v1beta/cachedContents", { method: "POST", body: cacheBody({ ttl: "1s" }) })
    ).body as WireCache;
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const got = await api(`/v1beta/${cache.name}`);
    expect(got.status).toBe(403);
    expect((got.body as ErrorBody).error.message).toBe(
      "CachedContent not found (or permission denied)",
    );
    const list = await api("/v1beta/cachedContents?pageSize=1000");
    expect(
      ((list.body as { cachedContents?: WireCache[] }).cachedContents ?? []).map(
        (item) => item.name,
      ),
    ).not.toContain(cache.name);
    const use = await api(`/v1beta/models/${MODEL}:countTokens`, {
      method: "POST",
      body: {
        generateContentRequest: {
          model: `models/${MODEL}`,
          contents: [{ parts: [{ text: "hi" }] }],
          cachedContent: cache.name,
        },
      },
    });
    expect(use.status).toBe(403);
  });

  test("list: pageSize coerced to 1000, no empty nextPageToken, tokens bound to the other parameters", async () => {
    const made: string[] = [];
    for (let index = 0; index < 3; index++)
      made.push(
        (
          (await api("/v1beta/cachedContents", { method: "POST", body: cacheBody() }))
            .body as WireCache
        ).name,
      );
    const big = await api("/v1beta/cachedContents?pageSize=5000");
    expect(big.status).toBe(200);
    expect("nextPageToken" in (big.body as object)).toBe(false);
    const first = (await api("/v1beta/cachedContents?pageSize=1")).body as {
      cachedContents: WireCache[];
      nextPageToken: string;
    };
    expect(first.cachedContents).toHaveLength(1);
    expect(first.nextPageToken).toBeTruthy();
    const mismatch = await api(
      `/v1beta/cachedContents?pageSize=2&pageToken=${encodeURIComponent(first.nextPageToken)}`,
    );
    expect(mismatch.status).toBe(400);
    expect((mismatch.body as ErrorBody).error.message).toContain("page_token");
    const second = await api(
      `/v1beta/cachedContents?page_size=1&page_token=${encodeURIComponent(first.nextPageToken)}`,
    );
    expect(second.status).toBe(200);
    expect((second.body as { cachedContents: WireCache[] }).cachedContents[0]!.name).not.toBe(
      first.cachedContents[0]!.name,
    );
    for (const name of made) await api(`/v1beta/${name}`, { method: "DELETE" });
  });

  test("using a cache: not with systemInstruction/tools/toolConfig, not with another model", async () => {
    const cache = (await api("/v1beta/cachedContents", { method: "POST", body: cacheBody() }))
      .body as WireCache;
    const conflict = await api(`/v1beta/models/${MODEL}:countTokens`, {
      method: "POST",
      body: {
        generateContentRequest: {
          model: `models/${MODEL}`,
          contents: [{ parts: [{ text: "hi" }] }],
          cachedContent: cache.name,
          systemInstruction: { parts: [{ text: "no" }] },
        },
      },
    });
    expect(conflict.status).toBe(400);
    expect((conflict.body as ErrorBody).error.message).toContain(
      "system_instruction, tools or tool_config",
    );
    const otherModel = await api("/v1beta/models/gemini-2.5-flash-lite:countTokens", {
      method: "POST",
      body: {
        generateContentRequest: {
          model: "models/gemini-2.5-flash-lite",
          contents: [{ parts: [{ text: "hi" }] }],
          cachedContent: cache.name,
        },
      },
    });
    expect(otherModel.status).toBe(400);
    expect((otherModel.body as ErrorBody).error.message).toContain("has to be the same");
    await api(`/v1beta/${cache.name}`, { method: "DELETE" });
  });
});

test.describe("caches belong to the key that created them", () => {
  test("another key gets 403 on get, update, delete and use, and does not see it listed", async () => {
    const alice = sdkClient(keyedServer, STUDIO_KEYS.alice);
    const cache = await alice.caches.create({
      model: MODEL,
      config: { contents: [{ role: "user", parts: [{ text: BOOK }] }] },
    });
    const asBob = { server: keyedServer, key: STUDIO_KEYS.bob };
    for (const request of [
      api(`/v1beta/${cache.name}`, asBob),
      api(`/v1beta/${cache.name}`, { ...asBob, method: "PATCH", body: { ttl: "60s" } }),
      api(`/v1beta/${cache.name}`, { ...asBob, method: "DELETE" }),
      api(`/v1beta/models/${MODEL}:countTokens`, {
        ...asBob,
        method: "POST",
        body: {
          generateContentRequest: {
            model: `models/${MODEL}`,
            contents: [{ parts: [{ text: "hi" }] }],
            cachedContent: cache.name,
          },
        },
      }),
    ]) {
      const response = await request;
      expect(response.status).toBe(403);
      expect((response.body as ErrorBody).error).toMatchObject({
        status: "PERMISSION_DENIED",
        message: "CachedContent not found (or permission denied)",
      });
    }
    const listed = await api("/v1beta/cachedContents", asBob);
    expect(
      ((listed.body as { cachedContents?: WireCache[] }).cachedContents ?? []).map(
        (item) => item.name,
      ),
    ).not.toContain(cache.name);
    expect((await alice.caches.get({ name: cache.name! })).name).toBe(cache.name);
    await alice.caches.delete({ name: cache.name! });
  });
});
