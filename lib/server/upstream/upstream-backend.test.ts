import net from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestUpstream, type TestUpstream } from "@/e2e/support/test-upstream";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { ApiError } from "@/lib/gemini/api-error";
import type { GenerateContentRequest, GenerateContentResponse } from "@/lib/gemini/types";
import { readCountTokensRequest } from "@/lib/gemini/validate";
import type { UpstreamSettings } from "../config/env";
import { testUpstreamBackend, testUpstreamSettings } from "@/lib/testing/upstream-backend";
import { notingDispatchers } from "@/lib/testing/noting-dispatchers";
import type { UpstreamBackend } from "./upstream-backend";
import { UpstreamClient } from "./upstream-client";

const KEY = "upstream-secret-key-for-tests-0001";
let upstream: TestUpstream;
let data: TempData;
let backend: UpstreamBackend;
let settings: UpstreamSettings;
let unique = 0;

const alice = { caller: { ownerId: "key:alice" } };
function context(signal: AbortSignal = new AbortController().signal) {
  return { ...alice, signal };
}
function model(scenario: string): string {
  return `models/${scenario}-${process.pid}x${++unique}`;
}
const prompt = { contents: [{ role: "user", parts: [{ text: "Hi" }] }] };

async function collect(
  iterable: AsyncIterable<GenerateContentResponse>,
): Promise<{ texts: string[]; error: ApiError | null }> {
  const texts: string[] = [];
  try {
    for await (const chunk of iterable)
      texts.push(chunk.candidates?.[0]?.content?.parts?.[0]?.text ?? "");
    return { texts, error: null };
  } catch (error) {
    if (error instanceof ApiError) return { texts, error };
    throw error;
  }
}

beforeAll(async () => {
  upstream = await startTestUpstream();
  data = await tempData();
  settings = testUpstreamSettings(upstream.url, {
    apiKey: KEY,
    // Short enough for the timeout cases to finish soon, long enough for a loaded machine's
    // ordinary answers (a 6 MiB answer's headers came after 600 ms under a full CI load).
    firstByteTimeoutMs: 1_500,
    idleTimeoutMs: 1_500,
    maxAttempts: 3,
    retryMaxDelayMs: 2_000,
  });
  backend = testUpstreamBackend(data.stores, settings);
});

afterAll(async () => {
  await backend.client.close();
  await upstream.close();
  await data.cleanup();
});

describe("forwarding", () => {
  it("sends the server key in the header, never in the URL, and nothing of the client", async () => {
    const name = model("ok");
    const answer = (await backend.generateContent(
      name,
      prompt,
      context(),
    )) as GenerateContentResponse;
    expect(answer.candidates?.[0]?.content?.parts?.[0]?.text).toContain("test upstream");
    const [seen] = upstream.requestsFor(name);
    expect(seen!.headers["x-goog-api-key"]).toBe(KEY);
    expect(seen!.url).not.toContain("key=");
    expect(seen!.headers.cookie).toBeUndefined();
    expect(seen!.headers.authorization).toBeUndefined();
    expect(seen!.url).toBe(`/v1beta/${name}:generateContent`);
    expect(JSON.parse(seen!.bodyText)).toEqual(prompt);
  });

  it("sends a stream as a held call (it may share HTTP/2), a unary call as unary", async () => {
    const { dispatchers, noted } = notingDispatchers();
    const client = new UpstreamClient(settings, dispatchers);
    const split = testUpstreamBackend(data.stores, settings, { client });
    try {
      const name = model("ok");
      await split.generateContent(name, prompt, context());
      await split.countTokens(name, prompt, context());
      expect(
        (await collect(split.streamGenerateContent(name, prompt, context()))).error,
      ).toBeNull();
      expect(noted).toEqual({
        held: [`POST /v1beta/${name}:streamGenerateContent?alt=sse`],
        unary: [`POST /v1beta/${name}:generateContent`, `POST /v1beta/${name}:countTokens`],
      });
    } finally {
      await client.close();
    }
  });

  it("refuses names that are not resource names before anything leaves", async () => {
    await expect(backend.getModel("models/../../admin", context())).rejects.toMatchObject({
      httpStatus: 400,
    });
    await expect(backend.getModel("files/abc", context())).rejects.toMatchObject({
      httpStatus: 400,
    });
  });

  it("does not follow redirects", async () => {
    const name = model("redirect");
    await expect(backend.getModel(name, context())).rejects.toMatchObject({
      httpStatus: 502,
      message: expect.stringContaining("redirect"),
    });
    expect(upstream.requestsFor(name)).toHaveLength(1);
  });

  it("scrubs the key and the upstream address from upstream error messages", async () => {
    const error = await backend
      .countTokens(model("echo-key"), prompt, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    const text = JSON.stringify((error as ApiError).toBody());
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(upstream.url);
    expect(text).toContain("[redacted]");
  });

  it("answers a rejected server key as a gateway problem, not the client's", async () => {
    await expect(backend.countTokens(model("reject-key"), prompt, context())).rejects.toMatchObject(
      {
        httpStatus: 502,
        message: expect.stringContaining("GEMINI_API_KEY"),
      },
    );
  });
});

describe("what the upstream answers", () => {
  function leaks(text: string): string[] {
    const lower = text.toLowerCase();
    const bytes = Buffer.from(KEY);
    return [
      lower.includes(KEY.toLowerCase()) && "the key",
      lower.includes(bytes.toString("hex")) && "the key in hex",
      text.includes(Buffer.from(`x${KEY}`).toString("base64").slice(4, -4)) && "the key in base64",
      lower.includes(encodeURIComponent(KEY).replace(/-/g, "%2d").toLowerCase()) &&
        "the key percent-encoded",
      text.includes(upstream.url) && "the upstream's address",
    ].filter((found): found is string => found !== false);
  }

  it("scrubs the key in every encoding and the upstream's address from 2xx answers", async () => {
    const unary = await backend.generateContent(model("leaky-answer"), prompt, context());
    expect(leaks(JSON.stringify(unary))).toEqual([]);
    expect(JSON.stringify(unary)).toContain('"uri":"/v1beta/files/leaky"');
    const streamed = await collect(
      backend.streamGenerateContent(model("leaky-answer"), prompt, context()),
    );
    expect(streamed.error).toBeNull();
    expect(leaks(streamed.texts.join(""))).toEqual([]);
    expect(streamed.texts.join("")).toContain("[redacted]");
  });

  it("passes a token count on as the upstream wrote it, scrubbed across the pieces it came in", async () => {
    const plain = await backend.countTokens(model("ok"), prompt, context());
    expect(plain).toEqual({ forwardedJson: JSON.stringify({ totalTokens: 7 }, null, 2) });
    const leaky = await backend.countTokens(model("leaky-answer"), prompt, context());
    const text = (leaky as { forwardedJson: string }).forwardedJson;
    // Raw (escapes as written) and read (escapes decoded): neither holds the key or the address.
    expect(leaks(text)).toEqual([]);
    const read = JSON.parse(text) as { totalTokens: number; note: string };
    expect(leaks(read.note)).toEqual([]);
    expect(read.totalTokens).toBe(7);
    expect(read.note.match(/\[redacted\]/g)).toHaveLength(3);
    expect(read.note).toContain("at /v1beta/files/leaky");
  });

  it("answers a token count that is not JSON as the upstream's fault", async () => {
    await expect(backend.countTokens(model("not-json"), prompt, context())).rejects.toMatchObject({
      httpStatus: 502,
    });
  });

  it("passes a large answer on while it arrives instead of holding it whole", async () => {
    const name = model("huge-answer");
    const answer = await backend.generateContent(name, prompt, context());
    expect("passedOnJson" in answer).toBe(true);
    // The upstream was still writing when the answer was handed over.
    expect(upstream.requestsFor(name)[0]!.answeredAt).toBeNull();
    let text = "";
    const pieces = (answer as { passedOnJson: AsyncIterator<string> }).passedOnJson;
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) text += next.value;
    const parsed = JSON.parse(text) as GenerateContentResponse;
    expect(parsed.candidates?.[0]?.content?.parts?.[0]?.inlineData?.data).toHaveLength(
      6 * 1024 * 1024,
    );
  });
});

describe("retries", () => {
  it("retries a 429 after the RetryInfo delay", async () => {
    const name = model("flaky-429");
    const started = Date.now();
    await backend.countTokens(name, prompt, context());
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(upstream.requestsFor(name)).toHaveLength(2);
  });

  it("passes on a 429 whose RetryInfo asks for longer than it waits", async () => {
    const name = model("long-429");
    const error = (await backend
      .generateContent(name, prompt, context())
      .catch((caught: unknown) => caught)) as ApiError;
    expect(error.httpStatus).toBe(429);
    expect(error.details).toEqual([
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "120s" },
    ]);
    expect(upstream.requestsFor(name)).toHaveLength(1);
  });

  it("retries 503 up to the attempt limit, and never a 400", async () => {
    const flaky = model("flaky-503");
    await backend.generateContent(flaky, prompt, context());
    expect(upstream.requestsFor(flaky)).toHaveLength(2);
    const down = model("always-503");
    await expect(backend.getModel(down, context())).rejects.toMatchObject({ httpStatus: 503 });
    expect(upstream.requestsFor(down)).toHaveLength(3);
    const bad = model("bad-request");
    await expect(backend.generateContent(bad, prompt, context())).rejects.toMatchObject({
      httpStatus: 400,
    });
    expect(upstream.requestsFor(bad)).toHaveLength(1);
  });

  it("retries a stream that failed before its first event", async () => {
    const name = model("flaky-503");
    const { texts, error } = await collect(backend.streamGenerateContent(name, prompt, context()));
    expect(error).toBeNull();
    expect(texts).toEqual(["First part. ", "Second part. ", "Last part."]);
    expect(upstream.requestsFor(name)).toHaveLength(2);
  });
});

describe("timeouts and broken streams", () => {
  it("gives up waiting for headers after the first-byte timeout", async () => {
    const name = model("stall-headers");
    const started = Date.now();
    await expect(backend.generateContent(name, prompt, context())).rejects.toMatchObject({
      httpStatus: 504,
      rpcStatus: "DEADLINE_EXCEEDED",
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(upstream.requestsFor(name)).toHaveLength(1);
  });

  it("keeps the partial output and ends with an error when the stream stalls, drops, errs, is malformed or truncated", async () => {
    const cases: [string, number, string][] = [
      ["stall-midstream", 2, "DEADLINE_EXCEEDED"],
      ["drop-midstream", 2, "UNAVAILABLE"],
      ["error-midstream", 2, "INTERNAL"],
      ["malformed-sse", 1, "UNAVAILABLE"],
      ["truncated", 2, "UNAVAILABLE"],
    ];
    for (const [scenario, good, status] of cases) {
      const name = model(scenario);
      const { texts, error } = await collect(
        backend.streamGenerateContent(name, prompt, context()),
      );
      expect(texts, scenario).toHaveLength(good);
      expect(error?.rpcStatus, scenario).toBe(status);
      // Never retried once a chunk may have reached the client.
      expect(upstream.requestsFor(name), scenario).toHaveLength(1);
    }
  });

  it("aborts the upstream request when the client goes away", async () => {
    const name = model("slow-stream");
    const controller = new AbortController();
    const texts: string[] = [];
    const closedAt = Date.now();
    await expect(
      (async () => {
        for await (const chunk of backend.streamGenerateContent(
          name,
          prompt,
          context(controller.signal),
        )) {
          texts.push(chunk.candidates?.[0]?.content?.parts?.[0]?.text ?? "");
          if (texts.length === 3) controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(texts).toHaveLength(3);
    await expect
      .poll(() => upstream.requestsFor(name)[0]?.abortedAt ?? null, { timeout: 2_000 })
      .not.toBeNull();
    expect(upstream.requestsFor(name)[0]!.abortedAt! - closedAt).toBeLessThan(2_000);
  });

  /** Two full collections, each after a turn of the event loop: what is still held survives. */
  async function collectAfterTurns(): Promise<void> {
    v8.setFlagsFromString("--expose-gc");
    const collectGarbage = vm.runInNewContext("gc") as () => void;
    for (let round = 0; round < 2; round++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      collectGarbage();
    }
  }

  it("holds neither the request nor its context while the stream is open", async () => {
    const controller = new AbortController();
    let request: GenerateContentRequest | null = {
      contents: [{ role: "user", parts: [{ text: "a long prompt ".repeat(10_000) }] }],
    };
    let operation: ReturnType<typeof context> | null = context(controller.signal);
    const requestHeld = new WeakRef(request);
    const contextHeld = new WeakRef(operation);
    const stream = backend.streamGenerateContent(model("slow-stream"), request, operation);
    request = null;
    operation = null;
    expect((await stream.next()).done).toBe(false);
    // The stream is open and waits for its next event, as a held stream does.
    const next = stream.next().catch(() => undefined);
    await collectAfterTurns();
    expect(requestHeld.deref()).toBeUndefined();
    expect(contextHeld.deref()).toBeUndefined();
    controller.abort();
    await next;
  });

  it("holds none of a long body's bytes while the stream is open", async () => {
    const controller = new AbortController();
    const request = {
      contents: [{ role: "user", parts: [{ text: "a long prompt ".repeat(10_000) }] }],
    };
    const bytes = new TextEncoder().encode(JSON.stringify(request));
    // Over the size sent in one write: the body goes upstream as a stream of its pieces.
    const half = Math.floor(bytes.byteLength / 2);
    let pieces: Uint8Array[] | null = [bytes.slice(0, half), bytes.slice(half)];
    const piecesHeld = pieces.map((piece) => new WeakRef(piece));
    const stream = backend.streamGenerateContent(model("slow-stream"), request, {
      ...context(controller.signal),
      received: {
        bytes: pieces,
        size: bytes.byteLength,
        findings: { mentioned: [], fileReferences: [] },
      },
    });
    pieces = null;
    expect((await stream.next()).done).toBe(false);
    const next = stream.next().catch(() => undefined);
    await collectAfterTurns();
    expect(piecesHeld.map((piece) => piece.deref())).toEqual([undefined, undefined]);
    controller.abort();
    await next;
  });

  it("passes stream events on one by one as they arrive", async () => {
    const name = model("slow-stream");
    const arrivals: number[] = [];
    for await (const _chunk of backend.streamGenerateContent(name, prompt, context()))
      arrivals.push(Date.now());
    expect(arrivals).toHaveLength(40);
    // The upstream sends one event every 100 ms; buffering would bunch them up.
    const spread = arrivals[arrivals.length - 1]! - arrivals[0]!;
    expect(spread).toBeGreaterThan(39 * 100 * 0.8);
  });
});

describe("ownership of references", () => {
  it("refuses another's cached content or file before anything goes upstream", async () => {
    await backend.ownership.record("cachedContent", "cachedContents/bobs", "key:bob");
    await backend.ownership.record("file", "files/bobsfile", "key:bob");
    const name = model("ok");
    await expect(
      backend.generateContent(name, { ...prompt, cachedContent: "cachedContents/bobs" }, context()),
    ).rejects.toMatchObject({
      httpStatus: 403,
      message: "CachedContent not found (or permission denied)",
    });
    await expect(
      backend.countTokens(
        name,
        readCountTokensRequest({
          generateContentRequest: {
            model: name,
            contents: [
              {
                parts: [{ file_data: { file_uri: "http://studio.example/v1beta/files/bobsfile" } }],
              },
            ],
          },
        }),
        context(),
      ),
    ).rejects.toMatchObject({
      httpStatus: 403,
      message: "You do not have permission to access the File bobsfile or it may not exist.",
    });
    expect(upstream.requestsFor(name)).toHaveLength(0);
  });

  it("rewrites one's own file URIs to the upstream's form", async () => {
    await backend.ownership.record("file", "files/alicesfile", "key:alice");
    upstream.addFile("alicesfile");
    const name = model("ok");
    await backend.countTokens(
      name,
      readCountTokensRequest({
        contents: [
          {
            parts: [
              {
                fileData: {
                  mimeType: "text/plain",
                  fileUri: "http://studio.example/v1beta/files/alicesfile",
                },
              },
              { text: "x" },
            ],
          },
        ],
      }),
      context(),
    );
    const sent = JSON.parse(upstream.requestsFor(name)[0]!.bodyText);
    expect(sent.contents[0].parts[0].fileData.fileUri).toBe(
      `${upstream.url}/v1beta/files/alicesfile`,
    );
  });
});

function streamOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}

describe("uploads through the gateway", () => {
  const origin = "http://studio.example";
  const aliceAt = () => ({ ...context(), origin });
  const bobAt = () => ({
    caller: { ownerId: "key:bob" },
    signal: new AbortController().signal,
    origin,
  });

  async function upload(displayName: string, parts: string[], who = aliceAt()) {
    const { uploadId } = await backend.startUpload(
      {
        declaredSize: parts.join("").length,
        contentType: "text/plain",
        file: { displayName },
      },
      who,
    );
    let offset = 0;
    let last;
    for (const [index, part] of parts.entries()) {
      last = await backend.uploadChunk(
        uploadId,
        {
          upload: true,
          finalize: index === parts.length - 1,
          offset,
          contentLength: part.length,
          body: streamOf(part),
        },
        who,
      );
      offset += part.length;
    }
    return { uploadId, last: last! };
  }

  it("maps the upstream session to an opaque id, streams chunks, and records the owner", async () => {
    const before = upstream.requests.length;
    const { uploadId } = await backend.startUpload(
      { declaredSize: 11, contentType: "text/plain", file: { displayName: "notes" } },
      aliceAt(),
    );
    expect(uploadId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const start = upstream.requests[before]!;
    expect(start.headers["x-goog-upload-command"]).toBe("start");
    expect(start.headers["x-goog-upload-header-content-length"]).toBe("11");
    expect(start.headers["x-goog-api-key"]).toBe(KEY);
    const first = await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: false, offset: 0, contentLength: 6, body: streamOf("hello ") },
      aliceAt(),
    );
    expect(first).toEqual({ status: "active", sizeReceived: 6 });
    expect(await backend.queryUpload(uploadId, aliceAt())).toEqual({
      status: "active",
      sizeReceived: 6,
    });
    const done = await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: true, offset: 6, contentLength: 5, body: streamOf("world") },
      aliceAt(),
    );
    expect(done.status).toBe("final");
    expect(done.file?.sizeBytes).toBe("11");
    const id = done.file!.name.slice("files/".length);
    expect(done.file?.uri).toBe(`${origin}/v1beta/files/${id}`);
    const chunks = upstream.requests
      .slice(before + 1)
      .filter((item) => item.headers["x-goog-upload-command"]?.toString().includes("upload"));
    expect(chunks.map((item) => item.bodyBytes)).toEqual([6, 5]);
    expect(
      chunks.every((item) => item.headers["x-goog-api-key"] === KEY && !item.url.includes("key=")),
    ).toBe(true);
    expect((await backend.getFile(done.file!.name, aliceAt())).uri).toBe(
      `${origin}/v1beta/files/${id}`,
    );
    await expect(backend.getFile(done.file!.name, bobAt())).rejects.toMatchObject({
      httpStatus: 403,
    });
    await expect(backend.deleteFile(done.file!.name, bobAt())).rejects.toMatchObject({
      httpStatus: 403,
    });
    // The finished session is forgotten.
    await expect(backend.queryUpload(uploadId, aliceAt())).rejects.toMatchObject({
      httpStatus: 404,
    });
  });

  it("answers a query from the bytes it forwarded, and asks the upstream only after a failed chunk", async () => {
    const { uploadId } = await backend.startUpload(
      { declaredSize: 10, contentType: "text/plain", file: { displayName: "queried" } },
      aliceAt(),
    );
    const before = upstream.requestsFor("/upload/").length;
    await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: false, offset: 0, contentLength: 4, body: streamOf("abcd") },
      aliceAt(),
    );
    for (let index = 0; index < 300; index++)
      expect(await backend.queryUpload(uploadId, aliceAt())).toEqual({
        status: "active",
        sizeReceived: 4,
      });
    // Only the chunk went upstream.
    expect(upstream.requestsFor("/upload/").length - before).toBe(1);
    // A chunk the upstream refuses leaves the count unknown: the next query asks, once.
    await expect(
      backend.uploadChunk(
        uploadId,
        { upload: true, finalize: false, offset: 9, contentLength: 1, body: streamOf("z") },
        aliceAt(),
      ),
    ).rejects.toMatchObject({ httpStatus: 400 });
    expect((await backend.queryUpload(uploadId, aliceAt())).sizeReceived).toBe(4);
    expect((await backend.queryUpload(uploadId, aliceAt())).sizeReceived).toBe(4);
    expect(upstream.requestsFor("/upload/").length - before).toBe(3);
    expect(await backend.uploadSessionOwner(uploadId)).toBe("key:alice");
    expect(await backend.uploadSessionOwner("no-such-session")).toBeNull();
  });

  it("streams a chunk that arrives slower than the first-byte timeout without cutting it off", async () => {
    const { uploadId } = await backend.startUpload(
      { declaredSize: 8, contentType: "text/plain", file: { displayName: "slow" } },
      aliceAt(),
    );
    let sent = 0;
    const slow = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 4) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 750));
        controller.enqueue(new TextEncoder().encode("ab"));
        sent++;
      },
    });
    // 4 pieces 750 ms apart: twice the 1.5 s first-byte timeout before the last byte leaves.
    const done = await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: true, offset: 0, contentLength: 8, body: slow },
      aliceAt(),
    );
    expect(done.status).toBe("final");
    expect(done.file?.sizeBytes).toBe("8");
  });

  it("refuses an upstream upload URL on another origin", async () => {
    await expect(
      backend.startUpload(
        {
          declaredSize: 1,
          contentType: "text/plain",
          file: { displayName: "foreign-url" },
        },
        aliceAt(),
      ),
    ).rejects.toMatchObject({
      httpStatus: 502,
    });
  });

  it("lists only one's own files, across upstream pages, with working page tokens", async () => {
    const first = await upload("mine-1", ["a"]);
    for (let index = 0; index < 120; index++) upstream.addFile(`other${index}`);
    const second = await upload("mine-2", ["b"]);
    const third = await upload("mine-3", ["c"]);
    const theirs = await upload("bobs", ["d"], bobAt());
    const mine = [first, second, third].map((item) => item.last.file!.name);
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await backend.listFiles({ pageSize: 2, pageToken: token }, aliceAt());
      seen.push(...(page.files ?? []).map((file) => file.name));
      token = page.nextPageToken;
      pages++;
    } while (token && pages < 10);
    expect(seen.filter((name) => mine.includes(name))).toEqual(mine);
    expect(seen).not.toContain(theirs.last.file!.name);
    expect(seen.every((name) => !name.startsWith("files/other"))).toBe(true);
    await expect(
      backend.listFiles({ pageSize: 2, pageToken: "forged" }, aliceAt()),
    ).rejects.toMatchObject({ httpStatus: 400 });
  });

  it("deletes one's own file and forgets it", async () => {
    const { last } = await upload("to-delete", ["x"]);
    await backend.deleteFile(last.file!.name, aliceAt());
    expect(await backend.ownership.ownerOf("file", last.file!.name)).toBeNull();
  });
});

describe("cached contents through the gateway", () => {
  const bob = () => ({ caller: { ownerId: "key:bob" }, signal: new AbortController().signal });

  it("records the creator, filters lists, and refuses another's get, update, delete and use", async () => {
    const created = await backend.createCachedContent(
      { model: "models/ok-cache", contents: [{ role: "user", parts: [{ text: "context" }] }] },
      context(),
    );
    expect(await backend.ownership.ownerOf("cachedContent", created.name)).toBe("key:alice");
    expect(
      (await backend.listCachedContents({ pageSize: 10 }, context())).cachedContents?.map(
        (item) => item.name,
      ),
    ).toContain(created.name);
    expect(
      (await backend.listCachedContents({ pageSize: 10 }, bob())).cachedContents ?? [],
    ).toEqual([]);
    const denied = { httpStatus: 403, message: "CachedContent not found (or permission denied)" };
    await expect(backend.getCachedContent(created.name, bob())).rejects.toMatchObject(denied);
    await expect(
      backend.updateCachedContent(created.name, { ttl: "60s" }, bob()),
    ).rejects.toMatchObject(denied);
    await expect(backend.deleteCachedContent(created.name, bob())).rejects.toMatchObject(denied);
    await expect(
      backend.generateContent(model("ok"), { ...prompt, cachedContent: created.name }, bob()),
    ).rejects.toMatchObject(denied);
    const updated = await backend.updateCachedContent(
      created.name,
      { expireTime: "2099-01-01T00:00:00Z" },
      context(),
    );
    expect(updated.expireTime).toBe("2099-01-01T00:00:00Z");
    expect(JSON.parse(upstream.requests.at(-1)!.bodyText)).toEqual({
      expireTime: "2099-01-01T00:00:00Z",
    });
    await backend.deleteCachedContent(created.name, context());
    await expect(backend.getCachedContent(created.name, context())).rejects.toMatchObject(denied);
  });

  it("refuses to cache another's file, and never retries a create that reached the upstream", async () => {
    await backend.ownership.record("file", "files/bobonly", "key:bob");
    const before = upstream.requestsFor("/cachedContents").length;
    await expect(
      backend.createCachedContent(
        {
          model: "models/ok-cache",
          contents: [{ parts: [{ fileData: { fileUri: "files/bobonly" } }] }],
        },
        context(),
      ),
    ).rejects.toMatchObject({ httpStatus: 403 });
    expect(upstream.requestsFor("/cachedContents")).toHaveLength(before);
  });
});

describe("an unreachable upstream", () => {
  it("answers 503 UNAVAILABLE after retrying, even a create (nothing reached the upstream)", async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer();
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const unreachable = testUpstreamBackend(data.stores, {
      ...settings,
      baseUrl: `http://127.0.0.1:${closed}`,
    });
    const started = Date.now();
    await expect(unreachable.getModel("models/ok-x", context())).rejects.toMatchObject({
      httpStatus: 503,
      rpcStatus: "UNAVAILABLE",
    });
    await expect(
      unreachable.createCachedContent({ model: "models/ok-x" }, context()),
    ).rejects.toMatchObject({ httpStatus: 503 });
    // Two waits between three attempts each, of at least half a 20 ms step: retried, quickly.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * (10 + 20));
    await unreachable.client.close();
  });
});
