import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { requestWithBody } from "./request-copy";
import { requestBodyPieces } from "./request-body";
import { forwardedJsonResponse, smallJsonResponse } from "./responses";

/**
 * The start script's API dispatch (scripts/api-dispatch.cjs): Node's request in, a route
 * handler's web Response written back, over a real socket.
 */
const { serve } = createRequire(import.meta.url)("../../../scripts/api-dispatch.cjs") as {
  serve: (
    handler: (request: Request) => Promise<Response>,
    incoming: http.IncomingMessage,
    outgoing: http.ServerResponse,
  ) => Promise<void>;
};

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The raw bytes of the answer to one request, the connection closed after it; `Date` masked. */
async function rawAnswer(base: string, request: string): Promise<string> {
  const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
  socket.end(request);
  const pieces: Buffer[] = [];
  for await (const piece of socket) pieces.push(piece as Buffer);
  return Buffer.concat(pieces)
    .toString("latin1")
    .replace(/\r\nDate: [^\r]*/, "\r\nDate: X");
}

async function listen(handler: (request: Request) => Promise<Response>): Promise<string> {
  const server = http.createServer((incoming, outgoing) => void serve(handler, incoming, outgoing));
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("api dispatch", () => {
  it("hands the handler the request as received and writes a one-piece answer with its length", async () => {
    const base = await listen(async (request) => {
      const body = await request.text();
      return Response.json(
        {
          method: request.method,
          path: new URL(request.url).pathname,
          body,
          key: request.headers.get("x-goog-api-key"),
        },
        { status: 201, headers: { "x-extra": "yes" } },
      );
    });
    const response = await fetch(`${base}/v1beta/models/m:countTokens?x=1`, {
      method: "POST",
      headers: { "x-goog-api-key": "k1" },
      body: "a".repeat(100_000),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-extra")).toBe("yes");
    const text = await response.text();
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toEqual({
      method: "POST",
      path: "/v1beta/models/m:countTokens",
      body: "a".repeat(100_000),
      key: "k1",
    });
  });

  it("lets the body readers take the body as Node gives it, the web body then taken too", async () => {
    const sent = Buffer.alloc(300_000, "b");
    const base = await listen(async (request) => {
      const pieces = requestBodyPieces(request)!;
      const received: Buffer[] = [];
      let asNodeGaveThem = true;
      for (let next = await pieces.next(); !next.done; next = await pieces.next()) {
        // Node's own pieces are Buffers; the web body's would be plain byte arrays.
        asNodeGaveThem &&= Buffer.isBuffer(next.value);
        received.push(Buffer.from(next.value));
      }
      const body = Buffer.concat(received);
      return Response.json({
        equal: body.equals(sent),
        pieces: received.length,
        asNodeGaveThem,
        webBodyTaken: request.body!.locked,
      });
    });
    const response = await fetch(`${base}/v1beta/models/m:countTokens`, {
      method: "POST",
      body: sent,
    });
    const answer = (await response.json()) as { equal: boolean; pieces: number };
    expect(answer).toMatchObject({ equal: true, asNodeGaveThem: true, webBodyTaken: true });
    expect(answer.pieces).toBeGreaterThan(1);
  });

  it("sends a stream's headers before its first event and each event as it is made", async () => {
    let send: ((text: string) => void) | null = null;
    let end: (() => void) | null = null;
    const base = await listen(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          send = (text) => controller.enqueue(new TextEncoder().encode(text));
          end = () => controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    const response = await fetch(`${base}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      method: "POST",
      body: "{}",
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    send!("data: 1\r\n\r\n");
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 1\r\n\r\n");
    send!("data: 2\r\n\r\n");
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 2\r\n\r\n");
    end!();
    expect((await reader.read()).done).toBe(true);
  });

  it("aborts the request's signal and cancels the answer when the client goes away", async () => {
    let aborted = false;
    let cancelled: () => void = () => undefined;
    const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    const base = await listen(async (request) => {
      request.signal.addEventListener("abort", () => (aborted = true));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("data: first\r\n\r\n"));
        },
        cancel() {
          cancelled();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    });
    const controller = new AbortController();
    const response = await fetch(`${base}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      method: "POST",
      body: "{}",
      signal: controller.signal,
    });
    await response.body!.getReader().read();
    controller.abort();
    await wasCancelled;
    expect(aborted).toBe(true);
  });

  it("gives a signal first read after the client went away as aborted", async () => {
    let clientGone: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (clientGone = resolve));
    let seen: boolean | null = null;
    let readDone: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (readDone = resolve));
    const base = await listen(async (request) => {
      await gone;
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = request.signal.aborted;
      readDone();
      return new Response("late");
    });
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    socket.write(
      "POST /v1beta/models/m:countTokens HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    clientGone();
    await read;
    expect(seen).toBe(true);
  });

  it("reads as a web Request, and a copy with another body keeps its parts (requestWithBody)", async () => {
    const base = await listen(async (request) => {
      const copy = requestWithBody(request, '{"copied":true}');
      return Response.json({
        path: new URL(request.url).pathname + new URL(request.url).search,
        method: request.method,
        tag: Object.prototype.toString.call(request),
        defaults: [request.cache, request.credentials, request.mode, request.redirect],
        copy: {
          isRequest: copy instanceof Request,
          sameUrl: copy.url === request.url,
          method: copy.method,
          key: copy.headers.get("x-goog-api-key"),
          sameSignal: copy.signal.aborted === request.signal.aborted,
          body: await copy.json(),
        },
        original: { used: request.bodyUsed, body: await request.text() },
      });
    });
    const response = await fetch(`${base}/v1beta/models/m:countTokens?x=1`, {
      method: "POST",
      headers: { "x-goog-api-key": "k2" },
      body: '{"sent":true}',
    });
    expect(await response.json()).toEqual({
      path: "/v1beta/models/m:countTokens?x=1",
      method: "POST",
      tag: "[object Request]",
      defaults: ["default", "same-origin", "cors", "follow"],
      copy: {
        isRequest: true,
        sameUrl: true,
        method: "POST",
        key: "k2",
        sameSignal: true,
        body: { copied: true },
      },
      original: { used: false, body: '{"sent":true}' },
    });
  });

  it("writes an answer made whole as its bytes, with their length", async () => {
    const base = await listen(async () => smallJsonResponse({ totalTokens: 7 }, { status: 201 }));
    const response = await fetch(`${base}/v1beta/models/m:countTokens`, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).toBe('{\n  "totalTokens": 7\n}\n');
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
  });

  it("writes a JSON answer's fixed headers as its Headers would have been written", async () => {
    const answers: Record<string, () => Response> = {
      "/v1beta/fixed": () => forwardedJsonResponse('{"totalTokens":7}'),
      "/v1beta/listed": () => smallJsonResponse({ totalTokens: 7 }, { headers: {} }),
    };
    const base = await listen(async (request) => answers[new URL(request.url).pathname]!());
    const ask = (path: string) =>
      rawAnswer(
        base,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
    const head =
      "HTTP/1.1 200 OK\r\ncache-control: private, no-store\r\n" +
      "content-type: application/json; charset=UTF-8\r\ncontent-length: ";
    expect(await ask("/v1beta/fixed")).toBe(
      `${head}18\r\nDate: X\r\nConnection: close\r\n\r\n{"totalTokens":7}\n`,
    );
    expect(await ask("/v1beta/listed")).toBe(
      `${head}23\r\nDate: X\r\nConnection: close\r\n\r\n{\n  "totalTokens": 7\n}\n`,
    );
    // Twice: the fixed list is shared by every answer, and the length must not stay in it.
    expect(await ask("/v1beta/fixed")).toBe(
      `${head}18\r\nDate: X\r\nConnection: close\r\n\r\n{"totalTokens":7}\n`,
    );
  });

  it("gives a clone the body as well, read through the web body (never Node's twice)", async () => {
    const sent = Buffer.alloc(200_000, "c");
    const base = await listen(async (request) => {
      const copy = request.clone();
      const [mine, theirs] = await Promise.all([
        (async () => {
          const pieces = requestBodyPieces(request)!;
          const received: Buffer[] = [];
          for (let next = await pieces.next(); !next.done; next = await pieces.next())
            received.push(Buffer.from(next.value));
          return Buffer.concat(received);
        })(),
        copy.arrayBuffer().then((buffer) => Buffer.from(buffer)),
      ]);
      return Response.json({
        mine: mine.equals(sent),
        theirs: theirs.equals(sent),
        used: request.bodyUsed,
        again: await request.text().then(
          () => "read",
          (error: unknown) => (error instanceof TypeError ? "refused" : "other"),
        ),
      });
    });
    const response = await fetch(`${base}/v1beta/models/m:countTokens`, {
      method: "POST",
      body: sent,
    });
    expect(await response.json()).toEqual({
      mine: true,
      theirs: true,
      used: true,
      again: "refused",
    });
  });

  it("refuses a second read of a body taken in Node's form", async () => {
    const base = await listen(async (request) => {
      const pieces = requestBodyPieces(request)!;
      const received: Buffer[] = [];
      for (let next = await pieces.next(); !next.done; next = await pieces.next())
        received.push(Buffer.from(next.value));
      const refused = (error: unknown) => (error instanceof TypeError ? "refused" : "other");
      return Response.json({
        first: JSON.parse(Buffer.concat(received).toString()),
        used: request.bodyUsed,
        text: await request.text().then(() => "read", refused),
        pieces: await Promise.resolve()
          .then(() => requestBodyPieces(request))
          .then(() => "read", refused),
      });
    });
    const response = await fetch(`${base}/v1beta/models/m:countTokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await response.json()).toEqual({
      first: { a: 1 },
      used: true,
      text: "refused",
      pieces: "refused",
    });
  });

  it("answers the service's 500 body when the handler fails", async () => {
    const base = await listen(async () => {
      throw new Error("broken");
    });
    const response = await fetch(`${base}/v1beta/models`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" },
    });
  });

  it("writes the Response's headers in its order, cookies one a line, the length its bytes'", async () => {
    const answers: Record<string, () => Response> = {
      "/v1beta/whole": () => {
        const headers = new Headers({ "x-b": "2", "content-type": "application/json" });
        headers.append("set-cookie", "a=1");
        headers.append("set-cookie", "b=2");
        headers.set("content-length", "999");
        return new Response('{"ok":true}', { status: 201, headers });
      },
      "/v1beta/empty": () => new Response(null, { headers: { "x-a": "1" } }),
      "/v1beta/nothing": () => new Response(null, { status: 204, headers: { "x-a": "1" } }),
      "/v1beta/pieces": () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode("one,"));
              controller.enqueue(new TextEncoder().encode("two"));
              controller.close();
            },
          }),
          { headers: { "content-type": "text/plain" } },
        ),
    };
    const base = await listen(async (request) => answers[new URL(request.url).pathname]!());
    const ask = (path: string) =>
      rawAnswer(
        base,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
    expect(await ask("/v1beta/whole")).toBe(
      "HTTP/1.1 201 Created\r\ncontent-length: 11\r\ncontent-type: application/json\r\n" +
        "x-b: 2\r\nset-cookie: a=1\r\nset-cookie: b=2\r\nDate: X\r\nConnection: close\r\n\r\n" +
        '{"ok":true}',
    );
    expect(await ask("/v1beta/empty")).toBe(
      "HTTP/1.1 200 OK\r\nx-a: 1\r\nDate: X\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
    );
    expect(await ask("/v1beta/nothing")).toBe(
      "HTTP/1.1 204 No Content\r\nx-a: 1\r\nDate: X\r\nConnection: close\r\n\r\n",
    );
    expect(await ask("/v1beta/pieces")).toBe(
      "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nDate: X\r\nConnection: close\r\n" +
        "Transfer-Encoding: chunked\r\n\r\n4\r\none,\r\n3\r\ntwo\r\n0\r\n\r\n",
    );
  });
});
