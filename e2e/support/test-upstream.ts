/**
 * A small fault-injecting stand-in for the upstream service, used by the gateway's unit
 * tests and API specs. It speaks just enough of the API to be forwarded to, and its
 * behaviour is chosen by the model id in the path, so concurrent tests never share state:
 *
 *   models/ok-*                 answers normally (generate, stream, countTokens, get)
 *   models/slow-stream-*        streams 40 events, one every 100 ms
 *   models/paced-*              streams 600 events, one every 100 ms (a minute), until the client goes
 *   models/flaky-429-*          first call 429 with RetryInfo retryDelay 1s, then normal
 *   models/long-429-*           always 429 with RetryInfo retryDelay 120s
 *   models/flaky-503-*          first call 503, then normal
 *   models/always-503-*         always 503
 *   models/bad-request-*        400 INVALID_ARGUMENT (never worth retrying)
 *   models/stall-headers-*      never answers (holds the connection open)
 *   models/stall-midstream-*    streams 2 events, then goes silent
 *   models/drop-midstream-*     streams 2 events, then destroys the socket
 *   models/error-midstream-*    streams 2 events, then a raw error object (as the service does)
 *   models/malformed-sse-*      streams 1 event, then a data line that is not JSON
 *   models/truncated-*          streams 2 events without a finishReason and ends cleanly
 *   models/redirect-*           302 to another origin
 *   models/echo-key-*           400 whose message quotes the key it received and a `?key=` URL
 *   models/reject-key-*         400 API_KEY_INVALID, as the service answers a bad upstream key
 *   models/leaky-answer-*       answers (unary and streamed) quoting the key it received in several
 *                               encodings and citing a file by this server's own address; its
 *                               countTokens quotes them in raw JSON text written in three pieces
 *   models/not-json-*           countTokens: a 200 whose body is not JSON
 *   models/huge-answer-*        generateContent: a 6 MiB answer (an inline image) in 64 KiB pieces 5 ms apart
 *   models/hostile-long-event-* streams 1 event, then a 48 MiB event that never ends, in 64 KiB pieces
 *   models/answer-<name>-v1     streams the recorded answer <name> of e2e/fixtures/recorded-answers.ts
 *                               (grounding, URL context, citations, logprobs, audio); listed by GET models
 *   models/<any>:batchGenerateContent  a batch, accepted (its name; it never runs)
 *   models/<any>:echoRequest    a method the gateway does not model: answers the method, path and
 *                               query, body and content type it received, and the key it was sent
 *   openai/...                  the OpenAI-compatible endpoint: a body with `"stream": true` is
 *                               answered by three chunks and `data: [DONE]` (one of them quoting
 *                               the key it received), any other POST or GET by a JSON echo of
 *                               what it received (method, path, body, Authorization, key header);
 *                               a `model` of `bad-request` is the endpoint's list-wrapped 400
 *
 * Uploads: `POST /upload/v1beta/files` starts a session (`X-Goog-Upload-URL` on this server,
 * or on another origin when the display name is `foreign-url`); chunks are counted, not kept;
 * a multipart upload makes its file at once.
 * Files and cachedContents: list (pageSize/pageToken), get, delete; a file's bytes at
 * `/download/v1beta/files/{id}:download` (a page with a script, typed as the file's type);
 * caches also create and PATCH (expireTime from ttl or expireTime, one hour by default; files
 * expire in 48 hours).
 * A generation naming a cache or file this server does not hold answers the service's 403.
 * Enough to exercise the gateway's ownership records, not a model of the service.
 * Every request is recorded (method, URL, headers, body size, whether the client went away).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  RECORDED_ANSWERS,
  recordedAnswerFor,
  recordedAnswerModel,
  type RecordedAnswerName,
} from "../fixtures/recorded-answers";

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  bodyBytes: number;
  bodyText: string;
  /** Set when the client closed the connection before the answer was complete. */
  abortedAt: number | null;
  /** Set when the answer was completely handed to the connection. */
  answeredAt: number | null;
  receivedAt: number;
}

export interface TestUpstream {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests whose path contains `fragment`. */
  requestsFor(fragment: string): RecordedRequest[];
  /** Adds a file directly, as if someone else created it with the same upstream key. */
  addFile(id: string, mimeType?: string): void;
  /** Deletes a file or cache directly, as if someone did it outside the gateway. */
  removeResource(name: string): void;
  /** The next cache created or file uploaded gets `name` (the upstream handing a name out again). */
  reissueName(name: string): void;
  close(): Promise<void>;
}

const JSON_TYPE = "application/json; charset=UTF-8";
const BODY_TEXT_LIMIT = 64 * 1024;

function chunk(text: string, index: number, final: boolean): unknown {
  return {
    candidates: [
      {
        content: { role: "model", parts: [{ text }] },
        ...(final ? { finishReason: "STOP" } : {}),
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: 3,
      candidatesTokenCount: index + 1,
      totalTokenCount: 4 + index,
    },
    modelVersion: "test-upstream",
    responseId: "test-response",
  };
}

function sendJson(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  const text = JSON.stringify(body, null, 2);
  response.writeHead(status, {
    "Content-Type": JSON_TYPE,
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function errorBody(code: number, status: string, message: string, details?: unknown[]): unknown {
  return { error: { code, message, status, ...(details ? { details } : {}) } };
}

/** The OpenAI-compatible endpoint's stand-in (see the module comment). */
function answerOpenAI(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  record: RecordedRequest,
  path: string,
): void {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(record.bodyText || "{}") as Record<string, unknown>;
  } catch {
    body = {};
  }
  const authorization = String(request.headers.authorization ?? "");
  if (body.model === "bad-request") {
    const text = JSON.stringify([errorBody(400, "INVALID_ARGUMENT", "A bad request.")]);
    response.writeHead(400, {
      "Content-Type": JSON_TYPE,
      "Content-Length": Buffer.byteLength(text),
    });
    response.end(text);
    return;
  }
  if (body.stream === true) {
    response.writeHead(200, { "Content-Type": "text/event-stream" });
    const chunk = (content: string, last = false) =>
      `data: ${JSON.stringify({
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: { content }, ...(last ? { finish_reason: "stop" } : {}) }],
      })}\n\n`;
    response.write(chunk("Hello"));
    response.write(chunk(` ${authorization}`));
    response.end(`${chunk("!", true)}data: [DONE]\n\n`);
    return;
  }
  sendJson(response, 200, {
    method: request.method,
    path,
    body: record.bodyText,
    authorization,
    keyHeader: request.headers["x-goog-api-key"] ?? null,
  });
}

function sseEvent(value: unknown): string {
  return `data: ${JSON.stringify(value)}\r\n\r\n`;
}

/** A create or PATCH body's expiry: its `expireTime`, or now plus its `ttl` (`"60s"`). */
function expireTimeOf(body: Record<string, unknown>): string | null {
  if (typeof body.expireTime === "string") return body.expireTime;
  const seconds = typeof body.ttl === "string" ? Number(body.ttl.replace(/s$/, "")) : NaN;
  return Number.isFinite(seconds) ? new Date(Date.now() + seconds * 1000).toISOString() : null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface UploadSession {
  declared: number;
  received: number;
  displayName: string;
  mimeType: string;
}

/** Starts the test upstream on 127.0.0.1 (port 0 picks a free one). */
export async function startTestUpstream(port = 0): Promise<TestUpstream> {
  const requests: RecordedRequest[] = [];
  const calls = new Map<string, number>();
  const uploads = new Map<string, UploadSession>();
  const files = new Map<string, Record<string, unknown>>();
  const caches = new Map<string, Record<string, unknown>>();
  let uploadCounter = 0;
  let fileCounter = 0;
  let cacheCounter = 0;
  let batchCounter = 0;
  const reissued: string[] = [];
  let origin = "";

  /** `files/testfileN` or `cachedContents/cacheN`, unless a name is to be handed out again. */
  function newName(prefix: "files/" | "cachedContents/", fresh: () => string): string {
    const index = reissued.findIndex((name) => name.startsWith(prefix));
    return index >= 0 ? reissued.splice(index, 1)[0]! : `${prefix}${fresh()}`;
  }

  /** The service's 403 for a cache or file of the request that this server does not hold. */
  function missingReference(bodyText: string): string | null {
    let body: { cachedContent?: unknown; contents?: { parts?: unknown }[] };
    try {
      body = JSON.parse(bodyText || "{}") as typeof body;
    } catch {
      return null;
    }
    if (typeof body.cachedContent === "string" && !caches.has(body.cachedContent))
      return "CachedContent not found (or permission denied)";
    for (const content of body.contents ?? []) {
      for (const part of Array.isArray(content.parts) ? content.parts : []) {
        const uri = (part as { fileData?: { fileUri?: string } }).fileData?.fileUri;
        const id = typeof uri === "string" ? /files\/([a-z0-9-]+)$/.exec(uri)?.[1] : undefined;
        if (id !== undefined && !files.has(`files/${id}`))
          return `You do not have permission to access the File ${id} or it may not exist.`;
      }
    }
    return null;
  }

  const server = http.createServer((request, response) => {
    const record: RecordedRequest = {
      method: request.method ?? "GET",
      url: request.url ?? "/",
      headers: request.headers,
      bodyBytes: 0,
      bodyText: "",
      abortedAt: null,
      answeredAt: null,
      receivedAt: Date.now(),
    };
    requests.push(record);
    response.on("finish", () => {
      record.answeredAt = Date.now();
    });
    response.on("close", () => {
      if (!response.writableFinished) record.abortedAt = Date.now();
    });
    const pieces: Buffer[] = [];
    let kept = 0;
    request.on("data", (data: Buffer) => {
      record.bodyBytes += data.length;
      if (kept < BODY_TEXT_LIMIT) {
        pieces.push(data);
        kept += data.length;
      }
    });
    request.on("end", () => {
      record.bodyText = Buffer.concat(pieces).toString("utf8").slice(0, BODY_TEXT_LIMIT);
      void answer(request, response, record).catch(() => response.destroy());
    });
  });

  async function answer(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    record: RecordedRequest,
  ): Promise<void> {
    const url = new URL(record.url, origin);
    const path = url.pathname;

    if (path.startsWith("/upload/")) return answerUpload(request, response, record, url);
    if (path.startsWith("/v1beta/openai/")) return answerOpenAI(request, response, record, path);

    const download = /^\/download\/v1(?:beta)?\/files\/(?<id>[a-z0-9-]+):download$/.exec(path);
    if (download?.groups) {
      const file = files.get(`files/${download.groups.id}`);
      if (!file) return sendJson(response, 404, errorBody(404, "NOT_FOUND", "No such file."));
      const bytes = "<html><script>alert(document.domain)</script></html>";
      response.writeHead(200, {
        "Content-Type": String(file.mimeType),
        "Content-Length": Buffer.byteLength(bytes),
      });
      response.end(bytes);
      return;
    }

    const collection =
      /^\/v1(?:beta)?\/(?<kind>files|cachedContents)(?:\/(?<id>[a-z0-9-]+))?$/.exec(path)?.groups;
    if (collection)
      return answerCollection(
        request,
        response,
        record,
        url,
        collection.kind as "files" | "cachedContents",
        collection.id,
      );

    if (request.method === "GET" && /^\/v1(beta)?\/models$/.test(path)) {
      const answers = (Object.keys(RECORDED_ANSWERS) as RecordedAnswerName[]).map((name) => ({
        name: `models/${recordedAnswerModel(name)}`,
        displayName: `Recorded answer: ${name}`,
        inputTokenLimit: 1_048_576,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"],
      }));
      // Models the studio's chat can pick: a stream paced by the clock, one that fails midway,
      // and one whose quota is always used up (429 asking to wait 120 s).
      const chat = ["paced-chat", "error-midstream-chat", "long-429-chat"].map((id) => ({
        name: `models/${id}`,
        displayName: id,
        inputTokenLimit: 1_048_576,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"],
      }));
      return sendJson(response, 200, {
        models: [
          {
            name: "models/ok-model",
            displayName: "OK",
            supportedGenerationMethods: ["generateContent"],
          },
          ...answers,
          ...chat,
        ],
      });
    }
    const found =
      /^\/v1(?:beta)?\/models\/(?<model>[A-Za-z0-9._-]+)(?::(?<method>[A-Za-z]+))?$/.exec(path);
    if (!found?.groups)
      return sendJson(response, 404, errorBody(404, "NOT_FOUND", `Not found: ${path}`));
    const model = found.groups.model!;
    const method = found.groups.method ?? "get";
    const count = (calls.get(model) ?? 0) + 1;
    calls.set(model, count);
    const scenario = model.replace(/-[A-Za-z0-9]+$/, "");
    const recorded = recordedAnswerFor(model);
    if (recorded && method === "streamGenerateContent") return streamRecorded(response, recorded);

    switch (scenario) {
      case "flaky-429":
        if (count === 1) return tooMany(response, "1s");
        break;
      case "long-429":
        return tooMany(response, "120s");
      case "flaky-503":
        if (count === 1)
          return sendJson(
            response,
            503,
            errorBody(503, "UNAVAILABLE", "The model is overloaded. Please try again later."),
          );
        break;
      case "always-503":
        return sendJson(
          response,
          503,
          errorBody(503, "UNAVAILABLE", "The model is overloaded. Please try again later."),
        );
      case "bad-request":
        return sendJson(
          response,
          400,
          errorBody(
            400,
            "INVALID_ARGUMENT",
            "* GenerateContentRequest.contents: contents is not specified",
          ),
        );
      case "stall-headers":
        return; // the socket stays open until the client gives up
      case "redirect":
        response.writeHead(302, { Location: "http://127.0.0.1:9/elsewhere" });
        response.end();
        return;
      case "echo-key": {
        const key = String(request.headers["x-goog-api-key"] ?? "");
        return sendJson(
          response,
          400,
          errorBody(
            400,
            "INVALID_ARGUMENT",
            `Key ${key} is not allowed here; see ${origin}/v1beta/models?key=${key}`,
          ),
        );
      }
      case "reject-key":
        return sendJson(
          response,
          400,
          errorBody(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "API_KEY_INVALID",
              domain: "googleapis.com",
            },
          ]),
        );
    }

    if (method === "get")
      return sendJson(response, 200, {
        name: `models/${model}`,
        displayName: model,
        inputTokenLimit: 1000,
        outputTokenLimit: 100,
      });
    if (method === "batchGenerateContent")
      return sendJson(response, 200, {
        name: `batches/testbatch${++batchCounter}`,
        metadata: { state: "BATCH_STATE_PENDING" },
      });
    if (method === "echoRequest")
      return sendJson(response, 200, {
        method: request.method,
        url: record.url,
        body: record.bodyText,
        contentType: request.headers["content-type"] ?? null,
        keyReceived: request.headers["x-goog-api-key"] ?? null,
      });
    const missing = missingReference(record.bodyText);
    if (missing !== null)
      return sendJson(response, 403, errorBody(403, "PERMISSION_DENIED", missing));
    const key = String(request.headers["x-goog-api-key"] ?? "");
    if (scenario === "leaky-answer" && method === "countTokens") return leakyCount(response, key);
    if (scenario === "not-json" && method === "countTokens") {
      response.writeHead(200, { "Content-Type": JSON_TYPE });
      response.end("<html>not JSON</html>");
      return;
    }
    if (method === "countTokens") return sendJson(response, 200, { totalTokens: 7 });
    if (scenario === "leaky-answer" && method === "generateContent")
      return sendJson(response, 200, leakyAnswer(key));
    if (scenario === "leaky-answer" && method === "streamGenerateContent") {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.end(sseEvent(leakyAnswer(key)));
      return;
    }
    if (scenario === "huge-answer" && method === "generateContent") return hugeAnswer(response);
    if (method === "generateContent")
      return sendJson(response, 200, chunk("Hello from the test upstream.", 0, true));
    if (method === "streamGenerateContent") return stream(response, scenario);
    return sendJson(response, 404, errorBody(404, "NOT_FOUND", `Unknown method ${method}`));
  }

  function answerCollection(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    record: RecordedRequest,
    url: URL,
    kind: "files" | "cachedContents",
    id: string | undefined,
  ): void {
    const store = kind === "files" ? files : caches;
    const denied = () =>
      sendJson(
        response,
        403,
        errorBody(
          403,
          "PERMISSION_DENIED",
          kind === "files"
            ? `You do not have permission to access the File ${id} or it may not exist.`
            : "CachedContent not found (or permission denied)",
        ),
      );
    if (id === undefined) {
      if (request.method === "POST" && kind === "cachedContents") {
        const body = JSON.parse(record.bodyText || "{}") as Record<string, unknown>;
        const name = newName("cachedContents/", () => `cache${++cacheCounter}`);
        const now = new Date().toISOString();
        const cache = {
          name,
          model: body.model,
          displayName: body.displayName ?? "",
          createTime: now,
          updateTime: now,
          expireTime: expireTimeOf(body) ?? new Date(Date.now() + 3_600_000).toISOString(),
          usageMetadata: { totalTokenCount: 1 },
        };
        caches.set(name, cache);
        return sendJson(response, 200, cache);
      }
      const size = Number(url.searchParams.get("pageSize") ?? 10) || 10;
      const start = Number(url.searchParams.get("pageToken") ?? 0);
      const all = [...store.values()];
      const page = all.slice(start, start + size);
      return sendJson(response, 200, {
        ...(page.length ? { [kind]: page } : {}),
        ...(start + size < all.length ? { nextPageToken: String(start + size) } : {}),
      });
    }
    const name = `${kind}/${id}`;
    const item = store.get(name);
    if (!item) return denied();
    if (request.method === "DELETE") {
      store.delete(name);
      return sendJson(response, 200, {});
    }
    if (request.method === "PATCH") {
      const body = JSON.parse(record.bodyText || "{}") as Record<string, unknown>;
      const expireTime = expireTimeOf(body);
      Object.assign(item, {
        updateTime: new Date().toISOString(),
        ...(expireTime !== null ? { expireTime } : {}),
      });
    }
    return sendJson(response, 200, item);
  }

  function tooMany(response: http.ServerResponse, delay: string): void {
    sendJson(
      response,
      429,
      errorBody(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.", [
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: delay },
      ]),
    );
  }

  /** An answer that quotes the server key in several encodings and cites this server's address. */
  /**
   * A token count whose raw text quotes the key (plain, in `\u` escapes, percent-encoded) and
   * this server's address (with `\/`), written in three pieces cut inside the key and inside
   * an escape, a few milliseconds apart, so a scrubber must see across the pieces.
   */
  function leakyCount(response: http.ServerResponse, key: string): void {
    const escaped = [...key]
      .map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`)
      .join("");
    const text =
      `{\n  "totalTokens": 7,\n  "note": "plain ${key}, escaped ${escaped}, ` +
      `url ${encodeURIComponent(key).replace(/-/g, "%2D")}, ` +
      `at ${origin.replace(/\//g, "\\/")}\\/v1beta\\/files\\/leaky"\n}\n`;
    const cuts = [text.indexOf(key) + Math.floor(key.length / 2), text.indexOf("\\u") + 3];
    response.writeHead(200, { "Content-Type": JSON_TYPE });
    response.write(text.slice(0, cuts[0]));
    setTimeout(() => {
      response.write(text.slice(cuts[0], cuts[1]));
      setTimeout(() => response.end(text.slice(cuts[1])), 5);
    }, 5);
  }

  function leakyAnswer(key: string): unknown {
    const bytes = Buffer.from(key);
    const answer = chunk(
      `plain ${key}, upper ${key.toUpperCase()}, url ${encodeURIComponent(key).replace(/-/g, "%2D")}, ` +
        `base64 ${Buffer.from(`x${key}`).toString("base64")}, hex ${bytes.toString("hex")}`,
      0,
      true,
    ) as { candidates: Record<string, unknown>[] };
    answer.candidates[0]!.citationMetadata = {
      citationSources: [{ uri: `${origin}/v1beta/files/leaky`, startIndex: 0, endIndex: 5 }],
    };
    return answer;
  }

  async function hugeAnswer(response: http.ServerResponse): Promise<void> {
    const data = "A".repeat(6 * 1024 * 1024);
    const text = JSON.stringify({
      candidates: [
        {
          content: { role: "model", parts: [{ inlineData: { mimeType: "image/png", data } }] },
          finishReason: "STOP",
          index: 0,
        },
      ],
      modelVersion: "test-upstream",
    });
    response.writeHead(200, { "Content-Type": JSON_TYPE });
    for (let start = 0; start < text.length && !response.destroyed; start += 64 * 1024) {
      response.write(text.slice(start, start + 64 * 1024));
      await sleep(5);
    }
    response.end();
  }

  async function stream(response: http.ServerResponse, scenario: string): Promise<void> {
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    const write = (text: string) => {
      if (!response.destroyed) response.write(text);
    };
    if (scenario === "paced") {
      for (let index = 0; index < 600 && !response.destroyed; index++) {
        write(sseEvent(chunk(`word${index} `, index, index === 599)));
        await sleep(100);
      }
      response.end();
      return;
    }
    if (scenario === "slow-stream") {
      for (let index = 0; index < 40 && !response.destroyed; index++) {
        write(sseEvent(chunk(`piece ${index} `, index, index === 39)));
        await sleep(100);
      }
      response.end();
      return;
    }
    write(sseEvent(chunk("First part. ", 0, false)));
    if (scenario === "hostile-long-event") {
      const piece = "x".repeat(64 * 1024);
      write('data: "');
      for (let index = 0; index < 768 && !response.destroyed; index++) {
        if (!response.write(piece)) await new Promise((resolve) => response.once("drain", resolve));
      }
      response.end();
      return;
    }
    if (scenario === "malformed-sse") {
      await sleep(50);
      write("data: {this is not json\r\n\r\n");
      await sleep(50);
      write(sseEvent(chunk("never seen", 1, true)));
      response.end();
      return;
    }
    await sleep(50);
    write(sseEvent(chunk("Second part. ", 1, false)));
    await sleep(50);
    switch (scenario) {
      case "stall-midstream":
        return; // silent from here on
      case "drop-midstream":
        response.socket?.destroy();
        return;
      case "error-midstream":
        write(JSON.stringify(errorBody(500, "INTERNAL", "An internal error has occurred.")));
        response.end();
        return;
      case "truncated":
        response.end();
        return;
    }
    write(sseEvent(chunk("Last part.", 2, true)));
    response.end();
  }

  async function streamRecorded(response: http.ServerResponse, chunks: unknown[]): Promise<void> {
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    for (const value of chunks) {
      if (response.destroyed) return;
      response.write(sseEvent(value));
      await sleep(30);
    }
    response.end();
  }

  function answerUpload(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    record: RecordedRequest,
    url: URL,
  ): void {
    const command = String(request.headers["x-goog-upload-command"] ?? "").toLowerCase();
    const uploadId = url.searchParams.get("upload_id");
    if (!uploadId && String(request.headers["x-goog-upload-protocol"]) === "multipart") {
      const file = newFile("", "application/octet-stream", record.bodyBytes);
      return sendJson(response, 200, { file });
    }
    if (!uploadId) {
      if (command !== "start")
        return sendJson(
          response,
          400,
          errorBody(400, "INVALID_ARGUMENT", "Expected an upload start."),
        );
      let displayName = "";
      try {
        const parsed = JSON.parse(record.bodyText || "{}") as {
          file?: { displayName?: string; display_name?: string };
        };
        displayName = parsed.file?.displayName ?? parsed.file?.display_name ?? "";
      } catch {
        displayName = "";
      }
      const id = `session${++uploadCounter}`;
      uploads.set(id, {
        declared: Number(request.headers["x-goog-upload-header-content-length"] ?? 0),
        received: 0,
        displayName,
        mimeType: String(
          request.headers["x-goog-upload-header-content-type"] ?? "application/octet-stream",
        ),
      });
      const base = displayName === "foreign-url" ? "http://198.51.100.7" : origin;
      response.writeHead(200, {
        "X-Goog-Upload-URL": `${base}/upload/v1beta/files?upload_id=${id}&upload_protocol=resumable`,
        "X-Goog-Upload-Status": "active",
        "X-Goog-Upload-Chunk-Granularity": "8388608",
        "Content-Length": 0,
      });
      response.end();
      return;
    }
    const session = uploads.get(uploadId);
    if (!session)
      return sendJson(response, 404, errorBody(404, "NOT_FOUND", "No such upload session."));
    if (command === "query") {
      response.writeHead(200, {
        "X-Goog-Upload-Status": "active",
        "X-Goog-Upload-Size-Received": String(session.received),
        "Content-Length": 0,
      });
      response.end();
      return;
    }
    const offset = Number(request.headers["x-goog-upload-offset"] ?? -1);
    if (offset !== session.received)
      return sendJson(response, 400, errorBody(400, "INVALID_ARGUMENT", `Wrong offset ${offset}.`));
    session.received += record.bodyBytes;
    if (!command.includes("finalize")) {
      response.writeHead(200, { "X-Goog-Upload-Status": "active", "Content-Length": 0 });
      response.end();
      return;
    }
    const file = newFile(session.displayName, session.mimeType, session.received);
    uploads.delete(uploadId);
    sendJson(response, 200, { file }, { "X-Goog-Upload-Status": "final" });
  }

  /** A finished upload's file, held from now on. */
  function newFile(displayName: string, mimeType: string, size: number) {
    const name = newName("files/", () => `testfile${++fileCounter}`);
    const id = name.slice("files/".length);
    const file = {
      name,
      displayName,
      mimeType,
      sizeBytes: String(size),
      createTime: new Date().toISOString(),
      updateTime: new Date().toISOString(),
      expirationTime: new Date(Date.now() + 48 * 3_600_000).toISOString(),
      state: "ACTIVE",
      uri: `${origin}/v1beta/files/${id}`,
    };
    files.set(file.name, file);
    return file;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${actualPort}`;
  return {
    url: origin,
    port: actualPort,
    requests,
    requestsFor: (fragment) => requests.filter((item) => item.url.includes(fragment)),
    addFile: (id, mimeType = "text/plain") => {
      files.set(`files/${id}`, {
        name: `files/${id}`,
        mimeType,
        sizeBytes: "1",
        state: "ACTIVE",
        uri: `${origin}/v1beta/files/${id}`,
      });
    },
    removeResource: (name) => {
      files.delete(name);
      caches.delete(name);
    },
    reissueName: (name) => {
      reissued.push(name);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
