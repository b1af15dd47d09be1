import http from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { testUpstreamSettings } from "@/lib/testing/upstream-backend";
import { UpstreamClient } from "./upstream-client";
import { wholeAnswer, type WholeAnswerOptions } from "./whole-answer";

/**
 * A real upstream on loopback whose answers are chosen by path: whole in several pieces,
 * long, cut before its end, slow to answer or slow between pieces.
 */
let server: http.Server;
let origin: string;
const seen = new Map<string, number>();
// Longer than undici's coarse timeouts (a 300 ms one fires within about a second).
const SLOW_MS = 2_500;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const path = request.url ?? "";
    const times = (seen.get(path) ?? 0) + 1;
    seen.set(path, times);
    request.resume();
    if (path.startsWith("/pieces")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"totalTokens":');
      setTimeout(() => response.write(" 1"), 5);
      setTimeout(() => response.end("2}"), 10);
    } else if (path.startsWith("/long")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ text: "x".repeat(4096) }));
    } else if (path.startsWith("/endless")) {
      response.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => response.write("x".repeat(1024)), 5);
      response.on("close", () => {
        clearInterval(timer);
        seen.set(`${path} closed`, 1);
      });
    } else if (path.startsWith("/cut-once") && times === 1) {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"totalTokens":');
      setTimeout(() => response.socket?.destroy(), 10);
    } else if (path.startsWith("/cut-once")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"totalTokens":7}');
    } else if (path.startsWith("/slow-headers")) {
      setTimeout(() => response.end("{}"), SLOW_MS);
    } else if (path.startsWith("/slow-body")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("{");
      setTimeout(() => response.end("}"), SLOW_MS);
    } else if (path.startsWith("/refused")) {
      response.writeHead(403, { "content-type": "application/json" });
      response.end('{"error":{"code":403,"message":"no","status":"PERMISSION_DENIED"}}');
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function options(path: string, overrides: Partial<WholeAnswerOptions> = {}): WholeAnswerOptions {
  return {
    request: { origin, path, method: "POST", body: "{}" },
    signal: new AbortController().signal,
    limit: () => 1024 * 1024,
    tooLarge: () => new Error("too large"),
    ...overrides,
  };
}

describe("an answer read whole through undici's dispatch", () => {
  const agent = new Agent({ headersTimeout: 300, bodyTimeout: 300 });
  afterAll(() => agent.close());

  it("keeps the status and every piece of the body", async () => {
    const answer = await wholeAnswer(agent, options("/pieces"));
    expect(answer.status).toBe(200);
    expect(answer.bodyError).toBeUndefined();
    expect(Buffer.concat(answer.pieces).toString()).toBe('{"totalTokens": 12}');
    expect(answer.size).toBe(19);
  });

  it("ends the exchange at the status's limit and says why", async () => {
    const answer = await wholeAnswer(
      agent,
      options("/long", { limit: (status) => (status === 200 ? 100 : 0) }),
    );
    expect(answer.status).toBe(200);
    expect((answer.bodyError as Error).message).toBe("too large");
    expect(answer.pieces.reduce((total, piece) => total + piece.byteLength, 0)).toBeLessThan(101);
  });

  it("goes on as a stream past the limit when asked, and ends the exchange when that is destroyed", async () => {
    const answer = await wholeAnswer(
      agent,
      options("/long", { limit: () => 1000, overflow: "stream" }),
    );
    expect(answer.rest).toBeDefined();
    const rest: Buffer[] = [];
    for await (const piece of answer.rest!) rest.push(piece as Buffer);
    const text = Buffer.concat([...answer.pieces, ...rest]).toString();
    expect(JSON.parse(text)).toEqual({ text: "x".repeat(4096) });

    const endless = await wholeAnswer(
      agent,
      options("/endless", { limit: () => 4096, overflow: "stream" }),
    );
    for await (const piece of endless.rest!) if ((piece as Buffer).byteLength > 0) break;
    await expect.poll(() => seen.get("/endless closed"), { timeout: 10_000 }).toBe(1);
  });

  it("rejects with the signal's reason when aborted before the answer, and sends nothing when aborted already", async () => {
    const controller = new AbortController();
    const pending = wholeAnswer(agent, options("/slow-headers", { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("client left")), 20);
    await expect(pending).rejects.toThrow("client left");

    const before = seen.get("/pieces?aborted") ?? 0;
    await expect(
      wholeAnswer(agent, options("/pieces?aborted", { signal: AbortSignal.abort() })),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(seen.get("/pieces?aborted") ?? 0).toBe(before);
  });

  it("reports a body the signal cut off after the headers", async () => {
    const controller = new AbortController();
    const pending = wholeAnswer(agent, options("/slow-body", { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("client left")), 100);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect((answer.bodyError as Error).message).toBe("client left");
  });

  it("keeps the dispatcher's first-byte and between-pieces timeouts", async () => {
    await expect(wholeAnswer(agent, options("/slow-headers"))).rejects.toMatchObject({
      code: "UND_ERR_HEADERS_TIMEOUT",
    });
    const answer = await wholeAnswer(agent, options("/slow-body"));
    expect(answer.bodyError).toMatchObject({ code: "UND_ERR_BODY_TIMEOUT" });
  });
});

describe("the upstream client's answers read whole", () => {
  const settings = testUpstreamSettings("http://127.0.0.1:1", {
    maxAttempts: 2,
    firstByteTimeoutMs: 300,
    idleTimeoutMs: 300,
  });
  let client: UpstreamClient;
  beforeAll(() => {
    client = new UpstreamClient({ ...settings, baseUrl: origin });
  });
  afterAll(() => client.close());
  const call = (target: string, signal = new AbortController().signal) => ({
    method: "POST" as const,
    target,
    jsonBytes: [Buffer.from("{}")],
    signal,
    safety: "idempotent" as const,
  });

  it("retries an answer whose body was lost, and answers the whole second one", async () => {
    await expect(client.jsonText(call("/cut-once"))).resolves.toBe('{"totalTokens":7}');
    expect(seen.get("/cut-once")).toBe(2);
  });

  it("answers a body that stopped arriving as the upstream's timeout, without a retry", async () => {
    const error = await client.json(call("/slow-body-timeout")).catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ httpStatus: 504, rpcStatus: "DEADLINE_EXCEEDED" });
    expect(seen.get("/slow-body-timeout")).toBe(1);
  });

  it("holds an answer that fits the buffer, and passes a longer one on whole as it arrives", async () => {
    await expect(client.jsonOrPassedOn(call("/pieces-held"), 64)).resolves.toEqual({
      value: { totalTokens: 12 },
    });
    const passed = await client.jsonOrPassedOn(call("/long-passed"), 1000);
    expect("pieces" in passed).toBe(true);
    let text = "";
    if ("pieces" in passed) for await (const piece of passed.pieces) text += piece;
    expect(JSON.parse(text)).toEqual({ text: "x".repeat(4096) });
  });

  it("retries a held answer whose body was lost", async () => {
    await expect(client.jsonOrPassedOn(call("/cut-once-held"), 1000)).resolves.toEqual({
      value: { totalTokens: 7 },
    });
    expect(seen.get("/cut-once-held")).toBe(2);
  });

  it("maps an error status with the upstream's own message", async () => {
    await expect(client.json(call("/refused"))).rejects.toMatchObject({ httpStatus: 403 });
  });

  it("ends with an AbortError when the client goes away", async () => {
    const controller = new AbortController();
    const pending = client.jsonText(call("/slow-body-abort", controller.signal));
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});
