// Loaded by scripts/connection-guard.cjs in the Next server process. Serves the API surface
// (`/v1beta/...`, `/v1/...`, `/v1alpha/...` and their `upload/` and `download/` forms) with
// the very handler Next would call for it (the catch-all route's, lib/server/api/router.ts,
// taken from the built route module), without Next's request handling in between: Next's
// router, its request and response adapters and its per-request state cost several times what
// the gateway's own work does (bench/README.md, "Gateway: the lean API path"). Pages, `/api/*`
// and everything else are still served by Next; so are HEAD and OPTIONS (Next derives them)
// and API-looking paths no route file serves (Next's fallback rewrite answers those).
//
// The handler, its limits, authentication and isolation checks are the route's own: this file
// only presents Node's request as the web Request the route takes and writes the Response it
// answers back, streamed piece by piece with backpressure, the request's signal aborted when
// the client goes away first (as Next does).
//
// Dispatch starts once Next has answered a request of its own (its start-up, instrumentation
// included, is then done); until then Next serves everything. The route module, once loaded,
// runs its request path's warm-up (no credential, nothing recorded), so a client's first request
// does not pay for that code's first run. STUDIO_API_VIA_NEXT=1 turns
// dispatch off (bench/gateway.mjs measures both ways in one run).
"use strict";
const path = require("node:path");
const { channel } = require("node:diagnostics_channel");

/** Named points on a request's path, for a bench to time (lib/server/observability/request-stages.ts). */
const stages = channel("genstudio:request-stage");
const markStage = (stage) => {
  if (stages.hasSubscribers) stages.publish(stage);
};

const API_SURFACE = /^\/(?:(?:upload|download)\/)?v1(?:beta|alpha)?\/[^/?]/;
const DISPATCHED_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
const ROUTE_MODULE = path.join(process.cwd(), ".next/server/app/v1beta/[...path]/route.js");
const enabled = process.env.STUDIO_API_VIA_NEXT !== "1";

/** The route's handlers by method, once loaded; null before (or if loading failed). */
let handlers = null;
let loading = false;

function warn(message, error) {
  process.stderr.write(
    `[genstudio] warn ${message}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}

function loadHandlers() {
  if (loading || !enabled) return;
  loading = true;
  (async () => {
    const { routeModule } = require(ROUTE_MODULE);
    await routeModule.ensureUserland();
    const { userland } = routeModule;
    if ([...DISPATCHED_METHODS].some((method) => typeof userland[method] !== "function"))
      throw new Error("the API route module does not export every method");
    handlers = userland;
    warmUpRequestPath();
  })().catch((error) => warn("API requests stay with Next's router", error));
}

/**
 * The route's warm-up, which its module offers once loaded (lib/server/api/request-path-warm-up.ts):
 * the first request a client sends then finds the route's code compiled, as later ones do.
 */
const REQUEST_PATH_WARM_UP = Symbol.for("genstudio.warmUpRequestPath");

function warmUpRequestPath() {
  const warmUp = globalThis[REQUEST_PATH_WARM_UP];
  if (typeof warmUp !== "function") return;
  Promise.resolve()
    .then(() => warmUp())
    .catch((error) => warn("could not warm the API's request path up", error));
}

/** Called for each response Next answers: the first one finished means Next is up. */
function noteNextResponse(response) {
  if (handlers === null && !loading) response.once("finish", loadHandlers);
}

/** Next's own reading of a request's URL: its bind address, the path as received. */
const BIND_HOST = process.env.HOSTNAME || "127.0.0.1";
const ORIGIN = `http://${BIND_HOST.includes(":") ? `[${BIND_HOST}]` : BIND_HOST}:${process.env.PORT || "3000"}`;

/** Node's reading of the request's headers as name and value pairs, which the Request copies once. */
function headersOf(incoming) {
  const pairs = [];
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
    else pairs.push([name, value]);
  }
  return pairs;
}

/**
 * Where a dispatched request offers its body as Node gives it (lib/server/http/request-body.ts
 * reads it there, without a web stream in between): a method that returns Node's request and
 * marks the web body as used, or null when the body has no Node form to give (no body, or its
 * web stream was already asked for).
 */
const NODE_BODY = Symbol.for("genstudio.nodeRequestBody");

const hasBody = (method) => method !== "GET" && method !== "HEAD";

/**
 * The request body as a web stream that reads Node's request only when pulled; cancelling it
 * drops the rest of the body.
 */
function lazyWebBody(incoming) {
  let pieces = null;
  return new ReadableStream(
    {
      async pull(controller) {
        pieces ??= incoming[Symbol.asyncIterator]();
        const { done, value } = await pieces.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      cancel() {
        // The answer still goes out on this connection: the rest of the body is read and dropped,
        // as Node does with a body no one reads. Destroying an unfinished request would close
        // the socket under the answer.
        incoming.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A body already taken in Node's form: reading it again fails, as a used body's does. */
function takenWebBody() {
  const stream = new ReadableStream();
  stream.getReader();
  return stream;
}

/** The dispatch's own handles on a request, kept off the names a Request has. */
const CLIENT_GONE = Symbol("clientGone");
const ABORTED = Symbol("aborted");

/**
 * The request a handler takes, made from Node's: a web Request to everything that reads it
 * (url, method, headers, signal, body, bodyUsed, text(), json(), clone()...), without the cost
 * of constructing one. Node's own Request would parse the URL and copy the headers through
 * its init dictionary's conversions, and make an AbortSignal of its own besides the
 * dispatch's (each signal made through `Object.setPrototypeOf`, which Node 20 pays dearly
 * for): together the largest step of a request's own work before its handler (bench/README.md,
 * "Gateway: the lean API path"). Here the URL is Node's path behind the origin, the headers
 * are made once when first read, from Node's already checked reading of them, and the signal
 * when first read, aborted if the client went away before. The body's web stream is made only
 * when someone asks for it (most bodies are read in Node's form, and a ReadableStream costs
 * Node more to make than the rest of a Request). Code that copies a request names its parts
 * (lib/server/http/request-copy.ts) rather than handing it to Request's constructor, which
 * takes only its own kind.
 */
class DispatchedRequest {
  #incoming;
  #url;
  #headers = null;
  #controller = null;
  #aborted = false;
  /** The body's web stream, once asked for. */
  #body = null;
  #nodeBodyTaken = false;

  constructor(incoming) {
    this.#incoming = incoming;
    this.#url = ORIGIN + incoming.url;
  }

  get url() {
    return this.#url;
  }

  get method() {
    return this.#incoming.method;
  }

  get headers() {
    this.#headers ??= new Headers(headersOf(this.#incoming));
    return this.#headers;
  }

  get signal() {
    if (this.#controller === null) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** The client went away before the answer was written: the signal is (or will be made) aborted. */
  [CLIENT_GONE]() {
    this.#aborted = true;
    this.#controller?.abort();
  }

  get [ABORTED]() {
    return this.#aborted;
  }

  // What a Request made from a URL and a method has, and a server's request never changes.
  get cache() {
    return "default";
  }
  get credentials() {
    return "same-origin";
  }
  get destination() {
    return "";
  }
  get duplex() {
    return "half";
  }
  get integrity() {
    return "";
  }
  get keepalive() {
    return false;
  }
  get mode() {
    return "cors";
  }
  get redirect() {
    return "follow";
  }
  get referrer() {
    return "about:client";
  }
  get referrerPolicy() {
    return "";
  }

  get body() {
    if (!hasBody(this.#incoming.method)) return null;
    this.#body ??= this.#nodeBodyTaken ? takenWebBody() : lazyWebBody(this.#incoming);
    return this.#body;
  }

  get bodyUsed() {
    return this.#nodeBodyTaken || (this.#body !== null && this.#body.locked);
  }

  [NODE_BODY]() {
    if (!hasBody(this.#incoming.method) || this.#body !== null || this.#nodeBodyTaken) return null;
    this.#nodeBodyTaken = true;
    return this.#incoming;
  }

  /**
   * The body read through a Response, whose readers (text(), json()...) a Request shares; the
   * readers are async, so a used body is a rejected promise, as a Request's is.
   */
  #bodyAsResponse() {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    const type = this.headers.get("content-type");
    return new Response(this.body, type === null ? {} : { headers: { "content-type": type } });
  }

  async arrayBuffer() {
    return this.#bodyAsResponse().arrayBuffer();
  }

  async blob() {
    return this.#bodyAsResponse().blob();
  }

  async bytes() {
    return new Uint8Array(await this.#bodyAsResponse().arrayBuffer());
  }

  async formData() {
    return this.#bodyAsResponse().formData();
  }

  async json() {
    return this.#bodyAsResponse().json();
  }

  async text() {
    return this.#bodyAsResponse().text();
  }

  /** A web Request with the same parts; the body, if any, split between the two (a tee). */
  clone() {
    if (this.bodyUsed) throw new TypeError("Request.clone: Body has already been consumed.");
    let body = this.body;
    if (body !== null) [this.#body, body] = body.tee();
    return new Request(this.url, {
      method: this.method,
      headers: this.headers,
      body,
      duplex: "half",
      signal: this.signal,
    });
  }

  get [Symbol.toStringTag]() {
    return "Request";
  }
}

/** Resolves when the client took what was written (true) or went away (false). */
function drained(outgoing) {
  return new Promise((resolve) => {
    const done = (value) => {
      outgoing.off("drain", onDrain);
      outgoing.off("close", onClose);
      resolve(value);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    outgoing.on("drain", onDrain);
    outgoing.on("close", onClose);
  });
}

/**
 * Where an answer made whole (lib/server/http/whole-response.ts) keeps its bytes while its web
 * body is untouched: they go out in one write, and the web stream is never made.
 */
const WHOLE_BODY = Symbol.for("genstudio.wholeResponseBody");

/**
 * The answer's headers as Node's `writeHead` takes them (name, value, name, value...), in the
 * Response's order, its cookies last as one list: written in one step, not a `setHeader` per
 * header (which checks each name and value again, though the Response's Headers already did).
 */
function headerList(response) {
  const list = [];
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") list.push(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) list.push("set-cookie", cookies);
  return list;
}

/** Writes a one-piece answer: its headers, its length (the bytes', whatever the Response said) and its bytes in one write. */
function endWithBody(outgoing, status, headers, bytes) {
  let index = 0;
  while (index < headers.length && headers[index] !== "content-length") index += 2;
  headers[index] = "content-length";
  headers[index + 1] = bytes.byteLength;
  outgoing.writeHead(status, headers);
  outgoing.end(bytes);
}

/**
 * Writes an answer with no body of its own to send. Node works out its framing (a length of
 * 0, or none for a status without a body), as it does for any `end()` before `writeHead`.
 */
function endWithoutBody(outgoing, status, headers) {
  outgoing.statusCode = status;
  for (let index = 0; index < headers.length; index += 2)
    outgoing.setHeader(headers[index], headers[index + 1]);
  outgoing.end();
}

/**
 * Where an answer made whole with the headers its kind always has keeps them (name, value...),
 * while no one has read its `headers`: they are written as they are, no Headers listed.
 */
const WHOLE_HEADERS = Symbol.for("genstudio.wholeResponseHeaders");

async function writeResponse(response, outgoing) {
  const { status } = response;
  const whole = response[WHOLE_BODY];
  if (whole !== undefined) {
    const fixed = response[WHOLE_HEADERS];
    // A copy: the length goes into the list.
    endWithBody(outgoing, status, fixed === undefined ? headerList(response) : [...fixed], whole);
    return;
  }
  const headers = headerList(response);
  if (response.body === null) {
    endWithoutBody(outgoing, status, headers);
    return;
  }
  const reader = response.body.getReader();
  let finished = false;
  // A client that goes away stops the answer at once (a held stream may have nothing to
  // send for a long time), which releases what it holds: its stream slot, its upstream call.
  const stop = () => {
    if (!finished) reader.cancel().catch(() => undefined);
  };
  outgoing.once("close", stop);
  try {
    // A stream's headers go out at once, before its first event. Any other answer that is
    // one piece (a JSON answer made whole) goes out in one write, its length known.
    let pending = null;
    if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      outgoing.writeHead(status, headers);
      outgoing.flushHeaders();
    } else {
      const first = await reader.read();
      if (first.done) {
        finished = true;
        endWithoutBody(outgoing, status, headers);
        return;
      }
      const second = await reader.read();
      if (second.done) {
        finished = true;
        endWithBody(outgoing, status, headers, first.value);
        return;
      }
      outgoing.writeHead(status, headers);
      pending = [first.value, second.value];
    }
    for (const value of pending ?? []) {
      if (!outgoing.write(value) && !(await drained(outgoing))) return;
    }
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) return;
      if (!outgoing.write(value) && !(await drained(outgoing))) return;
    }
    if (outgoing.destroyed) return;
    finished = true;
    outgoing.end();
  } finally {
    outgoing.off("close", stop);
    // The client went away or the body broke: stop whatever feeds the body.
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

const FAILURE_BODY = `${JSON.stringify({ error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } }, null, 2)}\n`;

/** Answers `incoming` with what `handler` (a route's method: web Request in, Response out) makes of it. */
async function serve(handler, incoming, outgoing) {
  markStage("dispatched");
  const request = new DispatchedRequest(incoming);
  markStage("request made");
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) request[CLIENT_GONE]();
  });
  let response;
  try {
    response = await handler(request);
    markStage("answer made");
  } catch (error) {
    if (request[ABORTED]) return;
    warn(`answering ${incoming.method} ${incoming.url.split("?")[0]} failed`, error);
    outgoing.writeHead(500, {
      "content-type": "application/json; charset=UTF-8",
      "content-length": Buffer.byteLength(FAILURE_BODY),
    });
    outgoing.end(FAILURE_BODY);
    return;
  }
  try {
    await writeResponse(response, outgoing);
    markStage("answer written");
    // A body the handler left unread (an answer that did not need it) is read and dropped, as
    // Node does for its own handlers, so the connection's next request starts where it should.
    if (!incoming.complete) {
      incoming.removeAllListeners("data");
      incoming.resume();
    }
  } catch (error) {
    // A body that fails drops the connection, headers sent or not, as Next does: the client
    // sees the answer cut off (an emulator scenario's reset is such a body, on purpose).
    if (!request[ABORTED] && error?.name !== "AbortError")
      warn(`answering ${incoming.method} ${incoming.url.split("?")[0]} failed`, error);
    outgoing.destroy();
  }
}

/**
 * Serves `incoming` when it belongs to the API surface and the route's handler is loaded;
 * false when Next should (then Next's answer is noted, for when dispatch may start).
 */
function dispatchApiRequest(incoming, outgoing) {
  if (
    handlers !== null &&
    DISPATCHED_METHODS.has(incoming.method) &&
    API_SURFACE.test(incoming.url)
  ) {
    void serve(handlers[incoming.method], incoming, outgoing);
    return true;
  }
  if (enabled) noteNextResponse(outgoing);
  return false;
}

module.exports = { dispatchApiRequest, serve };
