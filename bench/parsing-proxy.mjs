#!/usr/bin/env node
// The least a gateway that reads what it forwards costs in Node, for bench/gateway.mjs to show
// beside the bare proxy: node:http in front of an upstream, each JSON request body read whole
// and parsed, sent on with undici (a keep-alive pool) under the upstream's key, the answer read
// whole, parsed and written again. No authentication, limits, isolation checks or scrubbing:
// what is left between this and the gateway is the gateway's own per-request work.
// Usage: node bench/parsing-proxy.mjs <port> <upstream base URL> <upstream key>
import http from "node:http";
import { Agent, request } from "undici";

const [port, upstreamUrl, upstreamKey] = process.argv.slice(2);
const dispatcher = new Agent({ keepAliveTimeout: 30_000 });

async function forward(incoming, outgoing) {
  const pieces = [];
  for await (const piece of incoming) pieces.push(piece);
  const body = pieces.length ? JSON.parse(Buffer.concat(pieces).toString("utf8")) : undefined;
  const answer = await request(upstreamUrl + incoming.url, {
    method: incoming.method,
    headers: { "content-type": "application/json", "x-goog-api-key": upstreamKey },
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher,
  });
  const text = JSON.stringify(JSON.parse(await answer.body.text()));
  outgoing.writeHead(answer.statusCode, {
    "content-type": "application/json; charset=UTF-8",
    "content-length": Buffer.byteLength(text),
  });
  outgoing.end(text);
}

const server = http.createServer((incoming, outgoing) => {
  forward(incoming, outgoing).catch(() => {
    if (!outgoing.headersSent) outgoing.writeHead(502);
    outgoing.end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(port), "127.0.0.1", () => process.send?.({ listening: Number(port) }));
// A profiled run (--cpu-prof) writes its profile at a normal exit: stopping is one.
process.on("SIGINT", () => process.exit(0));
