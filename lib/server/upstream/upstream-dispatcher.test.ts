/**
 * The gateway's upstream connections against real local TLS upstreams (node:http2 offering h2
 * by ALPN, and node:https offering only HTTP/1.1), through the real UpstreamClient: held SSE
 * streams share HTTP/2 connections, every other exchange goes over HTTP/1.1 and is never
 * queued behind them, and an HTTP/1.1-only upstream is used as before.
 */
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import tls, { type TLSSocket } from "node:tls";
import { afterEach, describe, expect, it } from "vitest";
import { loopbackCertificate } from "@/lib/testing/loopback-certificate";
import { testUpstreamSettings } from "@/lib/testing/upstream-backend";
import { UpstreamClient, type UpstreamResponse } from "./upstream-client";
import { createUpstreamDispatchers } from "./upstream-dispatcher";

const certificate = loopbackCertificate();

interface TlsUpstream {
  url: string;
  /** The protocol each TLS connection agreed on, in the order they came. */
  connections: string[];
  /** Exchanges the upstream saw, by path without query. */
  seen: string[];
  /** The HTTP version of each exchange it saw, with its path: `2.0 /v1beta/...`. */
  versions: string[];
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
  const versions: string[] = [];
  const held = new Set<ServerResponse | http2.Http2ServerResponse>();
  const sessions = new Set<http2.ServerHttp2Session>();
  const handle = async (
    request: IncomingMessage | http2.Http2ServerRequest,
    response: ServerResponse | http2.Http2ServerResponse,
  ) => {
    const path = (request.url ?? "").split("?")[0]!;
    seen.push(path);
    versions.push(`${request.httpVersion} ${path}`);
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
    versions,
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
  const client = clientOf(upstream.url, { firstByteTimeoutMs: 10_000, idleTimeoutMs: 60_000 });
  return { upstream, client };
}

/** A client of the upstream at `url` (over TLS, trusting the test certificate), closed after the test. */
function clientOf(
  url: string,
  timeouts: Parameters<typeof testUpstreamSettings>[1],
): UpstreamClient {
  const settings = testUpstreamSettings(url, timeouts);
  const client = new UpstreamClient(
    settings,
    createUpstreamDispatchers(settings, { ca: certificate.cert }),
  );
  clients.push(client);
  return client;
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

/** Opens a streamGenerateContent (a held call) and reads its first event; the stream stays open. */
async function holdStream(client: UpstreamClient, bytes = 0): Promise<UpstreamResponse> {
  const text = "x".repeat(bytes);
  const response = await client.open({
    method: "POST",
    target: "/v1beta/models/test:streamGenerateContent",
    query: { alt: "sse" },
    jsonBytes: [Buffer.from(JSON.stringify({ contents: [{ parts: [{ text: `hold${text}` }] }] }))],
    held: true,
    signal: new AbortController().signal,
    safety: "idempotent",
  });
  const first = (await response.body[Symbol.asyncIterator]().next()) as IteratorResult<Buffer>;
  expect(first.value?.toString()).toContain("held");
  return response;
}

/** `count` held streams opened at once. */
function holdStreams(client: UpstreamClient, count: number): Promise<UpstreamResponse[]> {
  return Promise.all(Array.from({ length: count }, () => holdStream(client)));
}

/** How each of `count` held streams opened at once ended: "held", or its error's name. */
function burstOutcomes(client: UpstreamClient, count: number, what: string): Promise<string[]> {
  return within(
    Promise.all(
      Array.from({ length: count }, () =>
        holdStream(client).then(
          () => "held",
          (error: Error) => error.name,
        ),
      ),
    ),
    10_000,
    what,
  );
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

/** The connections' protocols in a fixed order (an HTTP/1.1 and an h2 connection may connect in either). */
function sorted(connections: string[]): string[] {
  return [...connections].sort();
}

/** A streamed upload (chunks pulled as the upstream takes them), answered with its byte count. */
function upload(client: UpstreamClient, chunks: number, size: number, held = false) {
  return client.json<{ totalTokens: number }>({
    method: "POST",
    target: "/upload/v1beta/files",
    headers: { "content-type": "application/octet-stream" },
    body: uploadChunks(chunks, size),
    held,
    signal: new AbortController().signal,
    safety: "never",
  });
}

describe("upstream connections over HTTP/2", () => {
  it("holds many SSE streams on one connection when the upstream offers h2", async () => {
    const { upstream, client } = await setUp({ http2: true });
    const streams = await within(holdStreams(client, 61), 20_000, "61 held streams");
    expect(streams).toHaveLength(61);
    expect(upstream.connections).toEqual(["h2"]);
    expect(upstream.versions.filter((line) => line.startsWith("2.0 "))).toHaveLength(61);
  });

  it("opens one connection for a burst of first streams: they wait for its protocol", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await within(holdStreams(client, 150), 20_000, "150 held streams at a cold start");
    // 150 at once, before any connection had said its protocol: one connection took them all.
    expect(upstream.connections).toEqual(["h2"]);
  });

  it("gives a burst of first streams no more than the peer allows a connection", async () => {
    const { upstream, client } = await setUp({ http2: true, maxConcurrentStreams: 5 });
    const streams = await within(
      holdStreams(client, 12),
      20_000,
      "12 held streams, 5 a connection",
    );
    expect(streams).toHaveLength(12);
    expect(upstream.connections).toEqual(["h2", "h2", "h2"]);
  });

  it("fails a burst of first streams when the upstream cannot be reached, none left waiting", async () => {
    const upstream = await startTlsUpstream({ http2: true });
    const url = upstream.url;
    await upstream.close();
    const client = clientOf(url, { firstByteTimeoutMs: 10_000 });
    const outcomes = await burstOutcomes(client, 5, "five held streams to a closed port");
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => "UpstreamError"));
  });

  it("lets a burst of first streams go when the h2 peer never sends its SETTINGS", async () => {
    // Agrees on h2 by ALPN, then says nothing: not the connection preface, no answer.
    const server = tls.createServer({
      key: certificate.key,
      cert: certificate.cert,
      ALPNProtocols: ["h2"],
    });
    const sockets = new Set<TLSSocket>();
    server.on("secureConnection", (socket: TLSSocket) => {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const client = clientOf(`https://127.0.0.1:${port}`, {
        connectTimeoutMs: 500,
        firstByteTimeoutMs: 500,
      });
      const outcomes = await burstOutcomes(
        client,
        3,
        "three held streams to a peer that never speaks",
      );
      expect(outcomes).toEqual(["UpstreamError", "UpstreamError", "UpstreamError"]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("sends a unary call over HTTP/1.1, not on the h2 connection of the held streams", async () => {
    const { upstream, client } = await setUp({ http2: true });
    expect((await countTokens(client)).totalTokens).toBe(40);
    expect(upstream.versions).toEqual(["1.1 /v1beta/models/test:countTokens"]);
    expect(upstream.connections).toEqual(["http/1.1"]);
    await holdStream(client);
    await holdStream(client);
    expect(upstream.versions.slice(1)).toEqual([
      "2.0 /v1beta/models/test:streamGenerateContent",
      "2.0 /v1beta/models/test:streamGenerateContent",
    ]);
    expect(sorted(upstream.connections)).toEqual(["h2", "http/1.1"]);
  });

  it("answers a unary call at once while 50 streams are held, over HTTP/1.1", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await within(holdStreams(client, 50), 20_000, "50 held streams");
    const counts = await within(
      Promise.all([countTokens(client, 500), countTokens(client, 600)]),
      10_000,
      "two counts while 50 streams are held",
    );
    expect(counts.map((count) => count.totalTokens)).toEqual([500, 600]);
    expect(upstream.versions.filter((line) => line.endsWith(":countTokens"))).toEqual([
      "1.1 /v1beta/models/test:countTokens",
      "1.1 /v1beta/models/test:countTokens",
    ]);
    // One h2 connection for the 50 streams; the counts on HTTP/1.1 connections of their own.
    expect(upstream.connections.filter((protocol) => protocol === "h2")).toEqual(["h2"]);
    expect(upstream.connections.filter((protocol) => protocol === "http/1.1")).toHaveLength(2);
  });

  it("opens another connection when the peer's stream allowance is used up", async () => {
    const { upstream, client } = await setUp({ http2: true, maxConcurrentStreams: 5 });
    await within(holdStreams(client, 13), 20_000, "13 held streams, 5 a connection");
    // Five, five and three: a new connection takes as many as the peer allowed the last one.
    expect(upstream.connections).toEqual(["h2", "h2", "h2"]);
    expect((await within(countTokens(client), 10_000, "a count")).totalTokens).toBe(40);
  });

  it("sends a streamed upload at once while streams are held, on a connection of its own", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await holdStreams(client, 20);
    const answer = await within(upload(client, 8, 64 * 1024), 10_000, "an upload");
    expect(answer.totalTokens).toBe(8 * 64 * 1024);
    // A call marked held with a streamed body still goes over HTTP/1.1: undici would queue it
    // on the shared connection until every stream there had ended.
    const held = await within(upload(client, 4, 1024, true), 10_000, "a held-marked upload");
    expect(held.totalTokens).toBe(4096);
    expect(upstream.versions.filter((line) => line.includes("/upload/"))).toEqual([
      "1.1 /upload/v1beta/files",
      "1.1 /upload/v1beta/files",
    ]);
    expect(upstream.connections.filter((protocol) => protocol === "h2")).toEqual(["h2"]);
  });

  it("sends a held stream's forwarded body over 64 KiB beside the other held streams", async () => {
    const { upstream, client } = await setUp({ http2: true });
    await holdStreams(client, 20);
    await within(holdStream(client, 300 * 1024), 10_000, "a held stream with a 300 KiB body");
    expect(upstream.connections).toEqual(["h2"]);
  });

  it("keeps using an HTTP/1.1-only upstream one exchange a connection", async () => {
    const { upstream, client } = await setUp({ http2: false });
    await countTokens(client);
    await within(holdStreams(client, 10), 20_000, "10 held streams over HTTP/1.1");
    expect((await within(countTokens(client), 10_000, "a count")).totalTokens).toBe(40);
    expect(upstream.connections.every((protocol) => protocol === "http/1.1")).toBe(true);
    // A connection for each of the ten held streams (one of them the first count's, free
    // again), and one for the last count.
    expect(upstream.connections).toHaveLength(11);
    const answer = await within(upload(client, 4, 1024), 10_000, "an upload over HTTP/1.1");
    expect(answer.totalTokens).toBe(4096);
  });

  it("sends new held streams on a new connection after the upstream's GOAWAY, each once", async () => {
    const { upstream, client } = await setUp({ http2: true });
    const held = await holdStreams(client, 5);
    upstream.goAway();
    await new Promise((resolve) => setTimeout(resolve, 100));
    held.push(await within(holdStream(client), 10_000, "a held stream after GOAWAY"));
    expect(upstream.connections).toEqual(["h2", "h2"]);
    expect(upstream.seen.filter((path) => path.endsWith(":streamGenerateContent"))).toHaveLength(6);
    upstream.release();
    await Promise.all(held.map((response) => endOf(response)));
  });

  // undici 7 by itself takes a graceful GOAWAY (NO_ERROR: the streams already open may finish)
  // for a lost connection and fails every exchange on it.
  it("lets held streams finish after a graceful GOAWAY", async () => {
    const { upstream, client } = await setUp({ http2: true });
    const held = await holdStreams(client, 5);
    upstream.goAway();
    await new Promise((resolve) => setTimeout(resolve, 100));
    upstream.release();
    const outcomes = await Promise.all(held.map((response) => endOf(response)));
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => "ended"));
  });

  it("fails the streams of a connection the upstream ends with an error, and carries on", async () => {
    const { upstream, client } = await setUp({ http2: true });
    const held = await holdStreams(client, 3);
    upstream.goAway(http2.constants.NGHTTP2_INTERNAL_ERROR);
    const outcomes = await within(
      Promise.all(held.map((response) => endOf(response))),
      10_000,
      "held streams after an error GOAWAY",
    );
    expect(outcomes.every((outcome) => outcome.startsWith("failed"))).toBe(true);
    const next = await within(holdStream(client), 10_000, "a held stream after it");
    expect(upstream.connections).toEqual(["h2", "h2"]);
    upstream.release();
    expect(await endOf(next)).toBe("ended");
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

describe("upstream connections over plain HTTP", () => {
  it("sends held streams on the same keep-alive connections as unary calls", async () => {
    let connections = 0;
    const server = http.createServer((request, response) => {
      void (async () => {
        for await (const piece of request) void piece;
        if ((request.url ?? "").includes(":streamGenerateContent")) {
          response.writeHead(200, { "content-type": "text/event-stream" });
          response.end(`data: {"candidates":[{"content":{"parts":[{"text":"held"}]}}]}\n\n`);
          return;
        }
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ totalTokens: 40 }));
      })();
    });
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const settings = testUpstreamSettings(`http://127.0.0.1:${port}`);
      const client = new UpstreamClient(settings, createUpstreamDispatchers(settings));
      clients.push(client);
      // undici's pool takes a connection back on its "drain" event, which can come a tick
      // after the answer: each call waits for it, so a free connection is there to reuse.
      const settled = () => new Promise((resolve) => setImmediate(resolve));
      await countTokens(client);
      await settled();
      expect(await endOf(await holdStream(client))).toBe("ended");
      await settled();
      await countTokens(client);
      // All three on one connection: HTTP/1.1 has nothing to share, so a held stream goes
      // through the same keep-alive connections as any other exchange.
      expect(connections).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
