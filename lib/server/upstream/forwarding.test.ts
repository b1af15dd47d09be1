/**
 * The gateway forwards what it does not model: bodies go upstream as the client sent them
 * (through the handlers' read, the gateway's real UpstreamClient and a local test upstream),
 * fields it does not know included, while every resource they name is still checked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestUpstream, type TestUpstream } from "@/e2e/support/test-upstream";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { testUpstreamBackend, testUpstreamSettings } from "@/lib/testing/upstream-backend";
import type { RequestContext } from "../api/request-context";
import { countTokensHandler } from "../api/count-tokens";
import { generateContentHandler, streamGenerateContentHandler } from "../api/generate";
import { createCachedContentHandler } from "../api/cached-contents";
import { downloadFileHandler } from "../api/files";
import { forwardedMethodHandler } from "../api/forwarded-methods";
import { readOperationBody } from "../http/request-body";
import type { UpstreamBackend } from "./upstream-backend";

let upstream: TestUpstream;
let data: TempData;
let backend: UpstreamBackend;
let unique = 0;

beforeAll(async () => {
  upstream = await startTestUpstream();
  data = await tempData();
  backend = testUpstreamBackend(data.stores, testUpstreamSettings(upstream.url));
  upstream.addFile("alicefile");
  await data.stores.ownership.record("file", "files/alicefile", "key:alice");
  await data.stores.ownership.record("file", "files/bobfile", "key:bob");
  await data.stores.ownership.record("batch", "batches/bobbatch", "key:bob");
});

afterAll(async () => {
  await backend.client.close();
  await upstream.close();
  await data.cleanup();
});

function model(): string {
  return `ok-${process.pid}x${++unique}`;
}

/** A handler's context for `path` with a JSON body sent as `text`, byte for byte. */
function contextFor(
  path: string,
  text: string | null,
  ownerId = "key:alice",
  method = "POST",
): RequestContext {
  const url = new URL(`http://studio.test/v1beta/${path}`);
  const request = new Request(url, {
    method,
    headers: text === null ? {} : { "content-type": "application/json" },
    body: text,
  });
  const model = /^models\/([^:]+)/.exec(path)?.[1];
  return {
    request,
    url,
    params: {
      ...(model ? { model } : {}),
      version: "v1beta",
      path: decodeURIComponent(url.pathname.slice("/v1beta/".length)),
    },
    caller: { ownerId },
    backend,
    signal: new AbortController().signal,
  };
}

/** What reached the upstream for `model`. */
function sentFor(model: string): string[] {
  return upstream.requestsFor(model).map((request) => request.bodyText);
}

/** An unknown part field, an unknown generation-config knob, an unknown top-level field, lower-case schema types, and spacing of the client's own. */
const FUTURE_BODY = `{
  "contents": [{"role": "user", "parts": [{"text": "Hi", "futurePartField": {"level": 3}}]}],
  "generationConfig": {"temperature": 0.5, "futureKnob": "on",
    "responseMimeType": "application/json",
    "responseSchema": {"type": "object", "properties": {"answer": {"type": "string"}}}},
  "futureTopLevel": [1, 2.50, "x"],
  "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "object"}}]}]
}`;

describe("forwarding a body as the client sent it", () => {
  it("sends unknown fields, lower-case schema types and the client's own spacing upstream unchanged", async () => {
    for (const [handler, method] of [
      [generateContentHandler, "generateContent"],
      [streamGenerateContentHandler, "streamGenerateContent"],
      [countTokensHandler, "countTokens"],
    ] as const) {
      const name = model();
      const response = await handler(contextFor(`models/${name}:${method}`, FUTURE_BODY));
      expect(response.status, method).toBe(200);
      await response.text();
      expect(sentFor(name), method).toEqual([FUTURE_BODY]);
    }
    const [sent] = sentFor(`ok-${process.pid}x${unique - 2}`);
    expect(sent).toContain('"type": "object"');
    expect(sent).not.toContain("OBJECT");
  });

  it("forwards a cache create with an unknown field as sent", async () => {
    const body = `{"model": "models/x", "contents": [{"parts": [{"text": "cache me"}]}], "futureCacheOption": true}`;
    const before = upstream.requestsFor("/cachedContents").length;
    const response = await createCachedContentHandler(contextFor("cachedContents", body));
    expect(response.status).toBe(200);
    const sent = upstream.requestsFor("/cachedContents").slice(before);
    expect(sent.map((request) => request.bodyText)).toEqual([body]);
  });

  it("writes a file reference spelled the studio's way as the upstream's URI, and nothing else", async () => {
    const name = model();
    const body = `{"contents": [{"parts": [{"file_data": {"file_uri": "http://studio.test/v1beta/files/alicefile", "mime_type": "text/plain"}}, {"text": "http://studio.test/v1beta/files/alicefile"}]}], "futureTopLevel": 1}`;
    const response = await generateContentHandler(
      contextFor(`models/${name}:generateContent`, body),
    );
    expect(response.status).toBe(200);
    expect(sentFor(name)).toEqual([
      body.replace(
        '"file_uri": "http://studio.test/v1beta/files/alicefile"',
        `"file_uri": "${upstream.url}/v1beta/files/alicefile"`,
      ),
    ]);
  });

  it("the local engine still refuses what the service refuses", async () => {
    const context = { ...contextFor("models/x:generateContent", FUTURE_BODY) };
    await expect(
      readOperationBody({ ...context, backend: { mode: "local" } }, "generateContent"),
    ).rejects.toMatchObject({
      httpStatus: 400,
      message: expect.stringContaining(
        `Unknown name "futurePartField" at 'contents[0].parts[0]': Cannot find field.`,
      ),
    });
  });
});

describe("resources named where the gateway does not model them", () => {
  const refusals: [string, string, object][] = [
    [
      "a file in an unknown field",
      `{"contents": [{"parts": [{"text": "hi"}]}], "futureSource": {"uri": "files/bobfile"}}`,
      { httpStatus: 403, message: expect.stringContaining("File bobfile") },
    ],
    [
      "the service's URI of a file in an unknown part field",
      `{"contents": [{"parts": [{"text": "hi", "futureRef": ["https://generativelanguage.googleapis.com/v1beta/files%2Fbobfile"]}]}]}`,
      { httpStatus: 403, message: expect.stringContaining("File bobfile") },
    ],
    [
      "a batch as an unknown field's key",
      `{"contents": [{"parts": [{"text": "hi"}]}], "futureMap": {"batches/bobbatch": 1}}`,
      { httpStatus: 404, rpcStatus: "NOT_FOUND" },
    ],
    [
      "a tuned model in a known field",
      `{"model": "tunedModels/someones-model", "contents": [{"parts": [{"text": "hi"}]}]}`,
      { httpStatus: 404, rpcStatus: "NOT_FOUND" },
    ],
    [
      "an operation in an unknown generation-config knob",
      `{"contents": [{"parts": [{"text": "hi"}]}], "generationConfig": {"futureResume": "operations/abc123"}}`,
      { httpStatus: 404, rpcStatus: "NOT_FOUND" },
    ],
    [
      "another's file in a URL of a part's text while URL context is on",
      `{"contents": [{"parts": [{"text": "Read https://studio.test/v1beta/files/bobfile please"}]}], "tools": [{"url_context": {}}]}`,
      { httpStatus: 403, message: expect.stringContaining("File bobfile") },
    ],
    [
      "another's cache in a URL while a tool the gateway does not know is on",
      `{"contents": [{"parts": [{"text": "Read https://studio.test/v1beta/cachedContents/bobcache"}]}], "tools": [{"futureBrowser": {}}]}`,
      { httpStatus: 403, message: "CachedContent not found (or permission denied)" },
    ],
  ];
  for (const [label, body, refusal] of refusals)
    it(`refuses ${label} before anything goes upstream`, async () => {
      const name = model();
      await expect(
        generateContentHandler(contextFor(`models/${name}:generateContent`, body)),
      ).rejects.toMatchObject(refusal);
      expect(upstream.requestsFor(name)).toEqual([]);
    });

  it("forwards one's own file named in an unknown field, and a URL in text with no fetching tool", async () => {
    const name = model();
    const body = `{"contents": [{"parts": [{"text": "see https://studio.test/v1beta/files/bobfile"}]}], "futureSource": "files/alicefile"}`;
    const response = await generateContentHandler(
      contextFor(`models/${name}:generateContent`, body),
    );
    expect(response.status).toBe(200);
    expect(sentFor(name)).toEqual([body]);
  });
});

describe("a method the gateway does not model, forwarded because it is listed", () => {
  it("goes upstream with the body as sent, the server's key and not the client's, and comes back scrubbed", async () => {
    const name = model();
    const body = `{"futureInput": {"text": "hi"},  "n": 1.50}`;
    const context = contextFor(`models/${name}:echoRequest?alt=json&key=client-key`, body);
    const response = await forwardedMethodHandler(context);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const echoed = JSON.parse(await response.text()) as Record<string, unknown>;
    expect(echoed).toMatchObject({
      method: "POST",
      url: `/v1beta/models/${name}:echoRequest?alt=json`,
      body,
      contentType: "application/json",
      keyReceived: "[redacted]",
    });
  });

  it("checks every resource in its path, query and body against the caller", async () => {
    for (const [path, body] of [
      [`files/bobfile:futureVerb`, null],
      [`models/${model()}:echoRequest?source=files%2Fbobfile`, null],
      [
        `models/${model()}:echoRequest`,
        `{"input": {"ref": "https://x.test/v1beta/files/bobfile"}}`,
      ],
    ] as const) {
      const before = upstream.requests.length;
      await expect(
        forwardedMethodHandler(contextFor(path, body, "key:alice", body === null ? "GET" : "POST")),
        path,
      ).rejects.toMatchObject({ httpStatus: 403, message: expect.stringContaining("bobfile") });
      expect(upstream.requests.length, path).toBe(before);
    }
    const own = await forwardedMethodHandler(
      contextFor(`models/${model()}:echoRequest`, `{"input": "files/alicefile"}`),
    );
    expect(own.status).toBe(200);
  });

  it("passes the upstream's error on in the service's shape", async () => {
    await expect(
      forwardedMethodHandler(contextFor(`models/${model()}:noSuchMethod`, "{}")),
    ).rejects.toMatchObject({ httpStatus: 404, message: expect.stringContaining("noSuchMethod") });
  });
});

describe("a file's bytes through the gateway", () => {
  const download = async (id: string) => {
    const url = new URL(`http://studio.test/download/v1beta/files/${id}:download?alt=media`);
    return downloadFileHandler({
      request: new Request(url),
      url,
      params: { file: id },
      caller: { ownerId: "key:alice" },
      backend,
      signal: new AbortController().signal,
    });
  };

  it("are never a page of the studio: nosniff, a sandboxing policy, a download for what a browser renders", async () => {
    for (const [id, type] of [
      ["pagefile", "text/html"],
      ["svgfile", "image/svg+xml"],
      ["pdffile", "application/pdf"],
      ["pngfile", "image/png"],
      ["oddfile", `text/html, <b>image/png</b>`],
    ] as const) {
      upstream.addFile(id, type);
      await data.stores.ownership.record("file", `files/${id}`, "key:alice");
      const response = await download(id);
      expect(response.status, id).toBe(200);
      expect(response.headers.get("x-content-type-options"), id).toBe("nosniff");
      expect(response.headers.get("content-security-policy"), id).toBe(
        "default-src 'none'; sandbox",
      );
      const disposition = response.headers.get("content-disposition");
      if (id === "pngfile") expect(disposition).toBeNull();
      else expect(disposition, id).toBe(`attachment; filename="${id}"`);
      if (id === "oddfile")
        expect(response.headers.get("content-type")).toBe("application/octet-stream");
      await response.text();
    }
  });
});
