// Preloaded into the Next server process by scripts/start.mjs (`node --require`), because
// `next start` exposes none of these settings. It wraps the HTTP server Next creates:
//
// - slow clients are cut: request headers must arrive within STUDIO_HEADERS_TIMEOUT_MS
//   (20 s); a request body must keep up a minimum average rate, STUDIO_BODY_MIN_BYTES_PER_SECOND
//   (500 B/s) after a grace of STUDIO_BODY_GRACE_MS (20 s), counting only time the server was
//   ready to read (Apache's mod_reqtimeout MinRate, so a big upload on a slow link passes
//   and a slowloris trickle does not); a response the client stops reading (writes
//   stalled with nothing acknowledged) is cut after STUDIO_WRITE_STALL_TIMEOUT_MS (60 s).
//   Node's own whole-request timeout is off: it would cut honest 2 GB uploads.
// - requests Next itself would answer with a bare 500 or an empty 400 get the service's
//   error body instead: methods outside GET/HEAD/POST/PUT/PATCH/DELETE/OPTIONS (TRACE,
//   PROPFIND, ... : 405), paths that are not valid percent-encoding (Next's path decoder
//   throws), paths with `.` or `..` segments (resolved before routing, so an id of `..`
//   would name another resource) and API paths with an empty segment (which Next redirects
//   away): 400; requests Node's parser refuses get a JSON body too.
// - every request carries the socket's address in `x-genstudio-client-address` (replacing
//   any such header the client sent), for the sign-in throttle.
// - API requests are then served by their route's handler without Next's router in between
//   (api-dispatch.cjs).
"use strict";
const http = require("node:http");
const { dispatchApiRequest } = require("./api-dispatch.cjs");

function setting(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    process.stderr.write(
      `[genstudio] warn ${name}=${raw} is not a non-negative number; using ${fallback}\n`,
    );
    return fallback;
  }
  return value;
}

const HEADERS_TIMEOUT_MS = setting("STUDIO_HEADERS_TIMEOUT_MS", 20_000);
const BODY_GRACE_MS = setting("STUDIO_BODY_GRACE_MS", 20_000);
const BODY_MIN_BYTES_PER_SECOND = setting("STUDIO_BODY_MIN_BYTES_PER_SECOND", 500);
const WRITE_STALL_TIMEOUT_MS = setting("STUDIO_WRITE_STALL_TIMEOUT_MS", 60_000);
const TICK_MS = 500;

// API-looking paths: any version segment (`v1beta`, `v2`, `v1beta3`), uploads and studio endpoints.
const API_PATH = /^\/(?:v\d+[a-z0-9]*|upload|api|emulator)\//;
const ALLOWED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const RPC_STATUS = {
  400: "INVALID_ARGUMENT",
  405: "UNIMPLEMENTED",
  408: "DEADLINE_EXCEEDED",
  413: "INVALID_ARGUMENT",
  431: "INVALID_ARGUMENT",
};

function errorBody(status, message) {
  return `${JSON.stringify({ error: { code: status, message, status: RPC_STATUS[status] ?? "INVALID_ARGUMENT" } }, null, 2)}\n`;
}

/** A whole HTTP/1.1 error answer, for sockets that have no ServerResponse (or must not use it). */
function rawErrorResponse(status, message) {
  const body = errorBody(status, message);
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? "Error"}\r\n` +
    "Content-Type: application/json; charset=UTF-8\r\nCache-Control: private, no-store\r\nConnection: close\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** The OpenAI-compatible endpoint's paths: its errors are the service's body in a list of one. */
const OPENAI_PATH = /^\/v1(?:beta|alpha)?\/openai\//;

function answer(response, status, message, headers = {}, url = "") {
  const single = errorBody(status, message);
  const body = OPENAI_PATH.test(url) ? `[${single.trimEnd()}]\n` : single;
  response.writeHead(status, {
    "Content-Type": "application/json; charset=UTF-8",
    "Cache-Control": "private, no-store",
    "Content-Length": Buffer.byteLength(body),
    ...headers,
  });
  response.end(body);
}

const DOT_SEGMENT = /(?:^|[/\\])\.\.?(?:[/\\]|$)/;
const DOT_SEGMENT_MESSAGE =
  "The request path must not contain '.' or '..' segments: name resources by their ids.";

/**
 * Why the path cannot be served, or null. Every `/` segment must decode (Next's router
 * throws otherwise), and no segment may be `.` or `..`, raw or encoded: URL parsing would
 * resolve them before routing, so `files/%2e%2e/models` would quietly become `models`.
 */
function pathProblem(url) {
  if (!url || url[0] !== "/") return null;
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  // In the API's paths an empty segment is refused too: Next would redirect it away (308)
  // rather than say that the id in it is missing.
  if (
    path.startsWith("//") ||
    (API_PATH.test(path) && (path.includes("//") || path.endsWith("/")))
  ) {
    return "The request path has an empty segment: name resources by their ids.";
  }
  // URL parsing treats a backslash as a slash, so `..\x` is a dot segment too. Without an
  // escape no segment needs decoding: the raw ones are looked at in one pass.
  if (!path.includes("%")) return DOT_SEGMENT.test(path) ? DOT_SEGMENT_MESSAGE : null;
  for (const segment of path.split(/[/\\]/)) {
    let decoded;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return "The request path is not valid percent-encoding.";
    }
    if (decoded === "." || decoded === "..") return DOT_SEGMENT_MESSAGE;
  }
  return null;
}

/** Cuts a connection: a JSON 408 first when nothing was answered yet, then the socket. */
function cut(exchange, message) {
  const { socket, response } = exchange;
  exchange.cut = true;
  if (!response.headersSent && socket.writable) socket.end(rawErrorResponse(408, message));
  setTimeout(() => socket.destroy(), 1_000).unref();
  if (!socket.writable) socket.destroy();
}

function guard(server) {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = 0;
  const exchanges = new Set();

  const timer = setInterval(() => {
    const now = Date.now();
    for (const exchange of exchanges) {
      const { request, socket } = exchange;
      const elapsed = now - exchange.lastTick;
      exchange.lastTick = now;
      if (exchange.cut || socket.destroyed) continue;
      if (!request.complete && BODY_MIN_BYTES_PER_SECOND > 0) {
        // Charge the client only while the server is ready to read (its buffer not full).
        if (request.readableLength < request.readableHighWaterMark) exchange.clientMs += elapsed;
        const received = socket.bytesRead - exchange.readAtStart;
        if (exchange.clientMs > BODY_GRACE_MS + (received / BODY_MIN_BYTES_PER_SECOND) * 1000) {
          cut(
            exchange,
            `The request body arrived too slowly (${received} bytes in ${Math.round(exchange.clientMs / 1000)} s; at least ${BODY_MIN_BYTES_PER_SECOND} bytes per second are required).`,
          );
          continue;
        }
      }
      if (WRITE_STALL_TIMEOUT_MS > 0) {
        // Bytes waiting in the socket's write queue that the client has not taken: progress is
        // the queue changing (the kernel accepted some); a queue that stays put is a stall.
        // (Node's own socket timeout is no use here: it waits up to twice as long.)
        const queued = socket._handle?.writeQueueSize ?? 0;
        if (queued > 0 && queued === exchange.lastQueued) exchange.stalledMs += elapsed;
        else exchange.stalledMs = 0;
        exchange.lastQueued = queued;
        if (exchange.stalledMs >= WRITE_STALL_TIMEOUT_MS) {
          exchange.cut = true;
          socket.destroy();
        }
      }
    }
  }, TICK_MS);
  timer.unref();
  server.once("close", () => clearInterval(timer));

  server.on("clientError", (error, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      error.code === "HPE_HEADER_OVERFLOW"
        ? 431
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? 408
          : 400;
    const message =
      status === 408
        ? "The request headers did not arrive in time."
        : status === 431
          ? "The request headers are too large."
          : "The request is not valid HTTP.";
    socket.end(rawErrorResponse(status, message));
    setTimeout(() => socket.destroy(), 1_000).unref();
  });

  return function track(request, response) {
    const socket = request.socket;
    const exchange = {
      request,
      response,
      socket,
      readAtStart: socket.bytesRead,
      clientMs: 0,
      lastTick: Date.now(),
      lastQueued: 0,
      stalledMs: 0,
      cut: false,
    };
    exchanges.add(exchange);
    const done = () => exchanges.delete(exchange);
    response.once("finish", done);
    response.once("close", done);
  };
}

const createServer = http.createServer;
http.createServer = function guardedCreateServer(...args) {
  const listener = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
  const options = typeof args[0] === "object" && args[0] !== null ? args[0] : {};
  // Node checks header and request deadlines on this interval (30 s by default).
  const server = createServer.call(this, { connectionsCheckingInterval: 1_000, ...options });
  const track = guard(server);
  if (listener) {
    server.on("request", (request, response) => {
      if (!ALLOWED_METHODS.has(request.method)) {
        answer(
          response,
          405,
          `Method ${request.method} is not supported.`,
          { Allow: [...ALLOWED_METHODS].join(", ") },
          request.url,
        );
        return;
      }
      const problem = pathProblem(request.url);
      if (problem !== null) {
        answer(response, 400, problem, {}, request.url);
        return;
      }
      track(request, response);
      // The sign-in throttle counts attempts per client address: the socket's, never a
      // header the client could choose (lib/server/auth/sign-in-throttle.ts).
      request.headers["x-genstudio-client-address"] = request.socket.remoteAddress ?? "";
      // The API surface goes straight to its route's handler (api-dispatch.cjs), the rest to Next.
      if (dispatchApiRequest(request, response)) return;
      return listener(request, response);
    });
  }
  return server;
};
