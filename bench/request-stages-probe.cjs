// Preloaded into a server by bench/gateway.mjs --profile (NODE_OPTIONS=--require); the app
// never loads it. Times each request's stages in the server from Node's own diagnostics
// channels, without touching the app: when the request's headers were parsed, when the
// gateway opened its upstream request, when the upstream's headers and its last byte came,
// and when the answer was finished. Meant for one request at a time (upstream events belong
// to the request in flight). Active only when GENSTUDIO_STAGES_PROBE names a file, on the
// main thread of the Next process; one line per request:
// "<method> <path> <start> <upstream opened> <upstream headers> <upstream done> <finished>"
// (ms since the request began, "-" for a stage that did not happen).
"use strict";
const file = process.env.GENSTUDIO_STAGES_PROBE;
const { isMainThread } = require("node:worker_threads");
const isServer = process.argv.some((argument) => /next[\\/]dist[\\/]bin[\\/]next$/.test(argument));
if (file && isMainThread && isServer) {
  const fs = require("node:fs");
  const channels = require("node:diagnostics_channel");
  const descriptor = fs.openSync(file, "a");
  let current = null;
  const now = () => performance.now();
  channels.subscribe("http.server.request.start", ({ request }) => {
    current = { method: request.method, path: request.url, start: now() };
  });
  channels.subscribe("undici:request:create", () => {
    if (current && current.opened === undefined) current.opened = now();
  });
  channels.subscribe("undici:request:headers", () => {
    if (current && current.headers === undefined) current.headers = now();
  });
  channels.subscribe("undici:request:trailers", () => {
    if (current && current.done === undefined) current.done = now();
  });
  channels.subscribe("http.server.response.finish", () => {
    if (!current) return;
    const record = current;
    current = null;
    const at = (value) => (value === undefined ? "-" : (value - record.start).toFixed(3));
    fs.writeSync(
      descriptor,
      `${record.method} ${record.path} ${at(record.opened)} ${at(record.headers)} ${at(record.done)} ${at(now())}\n`,
    );
  });
}
