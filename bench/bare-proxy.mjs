#!/usr/bin/env node
// The bare Node proxy bench/gateway.mjs measures the gateway against: node:http in front of an
// upstream, a keep-alive pool to it, the client's key swapped for the upstream's, bytes piped
// both ways with nothing read, parsed or checked. What any proxy in Node costs at the least.
// Usage: node bench/bare-proxy.mjs <port> <upstream base URL> <upstream key>
import http from "node:http";
import https from "node:https";

const [port, upstreamUrl, upstreamKey] = process.argv.slice(2);
const upstream = new URL(upstreamUrl);
// An https:// upstream is called over TLS (HTTP/1.1), as the gateway calls one.
const transport = upstream.protocol === "https:" ? https : http;
const agent = new transport.Agent({
  keepAlive: true,
  maxSockets: Infinity,
  keepAliveMsecs: 10_000,
});

const server = http.createServer((incoming, outgoing) => {
  const headers = { ...incoming.headers, host: upstream.host, "x-goog-api-key": upstreamKey };
  const forwarded = transport.request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: incoming.method,
      path: incoming.url,
      headers,
      agent,
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on("error", () => {
    if (!outgoing.headersSent) outgoing.writeHead(502);
    outgoing.end();
  });
  // A client that leaves mid-answer ends the upstream exchange too.
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) forwarded.destroy();
  });
  incoming.pipe(forwarded);
});
server.keepAliveTimeout = 30_000;
server.listen(Number(port), "127.0.0.1", () => process.send?.({ listening: Number(port) }));
// A profiled run (--cpu-prof) writes its profile at a normal exit: stopping is one.
process.on("SIGINT", () => process.exit(0));
