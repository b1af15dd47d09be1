/**
 * The gateway's upstream connections against real local TLS upstreams (node:http2 offering h2
 * by ALPN, and node:https offering only HTTP/1.1), through the real UpstreamClient: held SSE
 * streams share HTTP/2 connections, a streamed upload is never queued behind them, and an
 * HTTP/1.1-only upstream is used as before.
 */
import http2 from "node:http2";
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { afterEach, describe, expect, it } from "vitest";
import { loopbackCertificate } from "@/lib/testing/loopback-certificate";
import { testUpstreamSettings } from "@/lib/testing/upstream-backend";
import { UpstreamClient, type UpstreamResponse } from "./upstream-client";
import { createUpstreamDispatcher } from "./upstream-dispatcher";

const certificate = loopbackCertificate();

interface TlsUpstream {
  url: string;
  /** The protocol each TLS connection agreed on, in the order they came. */
  connections: string[];
  /** Exchanges the upstream saw, by path without query. */
  seen: string[];
  /** Ends every held stream with a last event. */
  release(): void;
  /** Sends GOAWAY on every HTTP/2 session: graceful (streams already open may finish), or with an error code. */
  goAway(errorCode?: number): void;
  close(): Promise<void>;
}

/** A stand-in upstream: SSE streams held until released, token counts, upload chunks. */
async function startTlsUpstream(options: {
  http2: boolean;
  maxConcurrentStreams?: number;
}): Promise<TlsUpstream> {
  const connections: string[] = [];
  const seen: string[] = [];
  const held = new Set<ServerResponse | http2.Http2ServerResponse>();
  const sessions = new Set<http2.ServerHttp2Session>();
  const handle = async (
    request: IncomingMessage | http2.Http2ServerRequest,
    response: ServerResponse | http2.Http2ServerResponse,
  ) => {
    const path = (request.url ?? "").split("?")[0]!;
    seen.push(path);
    let bytes = 0;
    for await (const piece of request as AsyncIterable<Buffer>) bytes += piece.length;
    if (path.endsWith(":streamGenerateContent")) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      (response as ServerResponse).write(
        `data: {"candidates":[{"content":{"parts":[{"text":"held"}]}}]}\n\n`,
      );
      held.add(response);
      response.on("close", () => held.delete(response));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ totalTokens: bytes }));
  };
  const serve = (
    request: IncomingMessage | http2.Http2ServerRequest,
    response: ServerResponse | http2.Http2ServerResponse,
  ) => void handle(request, response);
  const server = options.http2
    ? http2.createSecureServer(
        {
          key: certificate.key,
          cert: certificate.cert,
          allowHTTP1: true,
          settings: { maxConcurrentStreams: options.maxConcurrentStreams ?? 1000 },
        },
        serve,
      )
    : https.createServer({ key: certificate.key, cert: certificate.cert }, serve);
  server.on("secureConnection", (socket: TLSSocket) =>
    connections.push(socket.alpnProtocol || "http/1.1"),
  );
  if (options.http2)
    server.on("session", (session: http2.ServerHttp2Session) => {
      sessions.add(session);
      session.on("close", () => sessions.delete(session));
    });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}`,
    connections,
    seen,
    release() {
      for (const response of held)
        response.end(`data: {"candidates":[{"content":{"parts":[{"text":"done"}]}}]}\n\n`);
      held.clear();
    },
    goAway(errorCode?: number) {
      for (const session of sessions)
        if (errorCode === undefined) session.close();
        else session.goaway(errorCode);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        if ("closeAllConnections" in server) server.closeAllConnections();
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

const clients: UpstreamClient[] = [];
const upstreams: TlsUpstream[] = [];

afterEach(async () => {
  for (const upstream of upstreams) upstream.release();
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

async function setUp(options: { http2: boolean; maxConcurrentStreams?: number }) {
  const upstream = await startTlsUpstream(options);
  upstreams.push(upstream);
  const settings = testUpstreamSettings(upstream.url, {
    firstByteTimeoutMs: 10_000,
    idleTimeoutMs: 60_000,
  });
  const client = new UpstreamClient(
    settings,
    createUpstreamDispatcher(settings, { ca: certificate.cert }),
  );
  clients.push(client);
  return { upstream, client };
}

function countTokens(client: UpstreamClient, bytes = 40): Promise<{ totalTokens: number }> {
  const text = "x".repeat(Math.max(0, bytes - 38));
  return client.json({
    method: "POST",
    target: "/v1beta/models/test:countTokens",
    jsonBytes: [Buffer.from(JSON.stringify({ contents: [{ parts: [{ text }] }] }))],
    signal: new AbortController().signal,
    safety: "idempotent",
  });
}

/** Opens a streamGenerateContent and reads its first event; the stream stays open. */
async function holdStream(client: UpstreamClient): Promise<UpstreamResponse> {
  const response = await client.open({
    method: "POST",
    target: "/v1beta/models/test:streamGenerateContent",
    query: { alt: "sse" },
    jsonBytes: [Buffer.from('{"contents":[{"parts":[{"text":"hold"}]}]}')],
    signal: new AbortController().signal,
    safety: "idempotent",
  });
  const first = (await response.body[Symbol.asyncIterator]().next()) as IteratorResult<Buffer>;
  expect(first.value?.toString()).toContain("held");
  return response;
}

/** Rejects when `promise` has not settled in `ms` (a "did not hang" bound, not a timing). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: not done in ${ms} ms`)), ms).unref(),
    ),
  ]);
}

async function* uploadChunks(count: number, size: number): AsyncGenerator<Uint8Array> {
  for (let index = 0; index < count; index++) {
    await new Promise((resolve) => setImmediate(resolve));
    yield Buffer.alloc(size, 97);
  }
}

describe("upstream connections over HTTP/2", () => {
  it("holds many SSE streams on one connection when the upstream offers h2", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await countTokens(client);
    const streams = await within(
      Promise.all(Array.from({ length: 60 }, () => holdStream(client))),
      20_000,
      "60 held streams",
    );
    expect(streams).toHaveLength(60);
    expect(upstream.connections).toEqual(["h2"]);
    // A whole-body request runs beside the held streams, on the same connection.
    expect((await within(countTokens(client, 500), 10_000, "a count")).totalTokens).toBe(500);
    expect(upstream.connections).toEqual(["h2"]);
  });

  it("opens another connection when the peer's stream allowance is used up", async () => {
    const { upstream, client } = await setUp({ http2: true, maxConcurrentStreams: 5 });
    await countTokens(client);
    await within(
      Promise.all(Array.from({ length: 12 }, () => holdStream(client))),
      20_000,
      "12 held streams, 5 a connection",
    );
    // Five, five and two: a new connection takes as many as the peer allowed the last one.
    expect(upstream.connections).toEqual(["h2", "h2", "h2"]);
    expect((await within(countTokens(client), 10_000, "a count")).totalTokens).toBe(40);
  });

  it("sends a streamed upload at once while streams are held, on a connection of its own", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await countTokens(client);
    await Promise.all(Array.from({ length: 20 }, () => holdStream(client)));
    const answer = await within(
      client.json<{ totalTokens: number }>({
        method: "POST",
        target: "/upload/v1beta/files",
        headers: { "content-type": "application/octet-stream" },
        body: uploadChunks(8, 64 * 1024),
        signal: new AbortController().signal,
        safety: "never",
      }),
      10_000,
      "an upload while streams are held",
    );
    expect(answer.totalTokens).toBe(8 * 64 * 1024);
    expect(upstream.connections).toEqual(["h2", "http/1.1"]);
  });

  it("sends a forwarded body over 64 KiB beside the held streams", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await countTokens(client);
    await Promise.all(Array.from({ length: 20 }, () => holdStream(client)));
    const bytes = 300 * 1024;
    const answer = await within(countTokens(client, bytes), 10_000, "a 300 KiB count");
    expect(answer.totalTokens).toBe(bytes);
    expect(upstream.connections).toEqual(["h2"]);
  });

  it("keeps using an HTTP/1.1-only upstream one exchange a connection", async () => {
    const { upstream, client } = await setUp({ http2: false });
    await countTokens(client);
    await within(
      Promise.all(Array.from({ length: 10 }, () => holdStream(client))),
      20_000,
      "10 held streams over HTTP/1.1",
    );
    expect((await within(countTokens(client), 10_000, "a count")).totalTokens).toBe(40);
    expect(upstream.connections.every((protocol) => protocol === "http/1.1")).toBe(true);
    // Ten held streams and the free connection the counts used.
    expect(upstream.connections).toHaveLength(11);
    const upload = await within(
      client.json<{ totalTokens: number }>({
        method: "POST",
        target: "/upload/v1beta/files",
        headers: { "content-type": "application/octet-stream" },
        body: uploadChunks(4, 1024),
        signal: new AbortController().signal,
        safety: "never",
      }),
      10_000,
      "an upload over HTTP/1.1",
    );
    expect(upload.totalTokens).toBe(4096);
  });

  it("sends new requests on a new connection after the upstream's GOAWAY, each once", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await countTokens(client);
    const held = await Promise.all(Array.from({ length: 5 }, () => holdStream(client)));
    upstream.goAway();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await within(countTokens(client), 10_000, "a count after GOAWAY")).totalTokens).toBe(
      40,
    );
    expect(upstream.connections).toEqual(["h2", "h2"]);
    expect(upstream.seen.filter((path) => path.endsWith(":countTokens"))).toHaveLength(2);
    expect(upstream.seen.filter((path) => path.endsWith(":streamGenerateContent"))).toHaveLength(5);
    upstream.release();
    await Promise.all(held.map((response) => endOf(response)));
  });

  // undici 7 by itself takes a graceful GOAWAY (NO_ERROR: the streams already open may finish)
  // for a lost connection and fails every exchange on it.
  it("lets held streams finish after a graceful GOAWAY", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await countTokens(client);
    const held = await Promise.all(Array.from({ length: 5 }, () => holdStream(client)));
    upstream.goAway();
    await new Promise((resolve) => setTimeout(resolve, 100));
    upstream.release();
    const outcomes = await Promise.all(held.map((response) => endOf(response)));
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => "ended"));
  });

  it("fails the streams of a connection the upstream ends with an error, and carries on", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await countTokens(client);
    const held = await Promise.all(Array.from({ length: 3 }, () => holdStream(client)));
    upstream.goAway(http2.constants.NGHTTP2_INTERNAL_ERROR);
    const outcomes = await within(
      Promise.all(held.map((response) => endOf(response))),
      10_000,
      "held streams after an error GOAWAY",
    );
    expect(outcomes.every((outcome) => outcome.startsWith("failed"))).toBe(true);
    expect((await within(countTokens(client), 10_000, "a count after it")).totalTokens).toBe(40);
    expect(upstream.connections).toEqual(["h2", "h2"]);
  });
});

/** How a held stream's body ended: "ended", or the error it failed with. */
async function endOf(response: UpstreamResponse): Promise<string> {
  try {
    for await (const piece of response.body) void piece;
    return "ended";
  } catch (error) {
    return `failed: ${(error as Error).message}`;
  }
}
