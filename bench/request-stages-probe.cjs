// Preloaded into a server by bench/gateway.mjs (profile and stages sections; NODE_OPTIONS=--require);
// the app never loads it. Times each request's stages in the server: Node's own diagnostics
// channels (the request's headers parsed, the gateway's upstream request opened, the upstream's
// headers and last byte, the answer finished) and the app's named points on the request's path
// (lib/server/observability/request-stages.ts and scripts/api-dispatch.cjs publish them on
// "genstudio:request-stage"; with no subscriber they cost nothing). Meant for one request at a
// time (every event belongs to the request in flight). Active only when GENSTUDIO_STAGES_PROBE
// names a file, on the main thread of the Next process; one line per request:
// "<method> <path> <stage>=<ms> <stage>=<ms> ..." (ms since the request's headers were parsed,
// in the order the stages happened; a stage reached twice keeps its first time).
"use strict";
const file = process.env.GENSTUDIO_STAGES_PROBE;
const { isMainThread } = require("node:worker_threads");
const isServer = process.argv.some((argument) => /next[\\/]dist[\\/]bin[\\/]next$/.test(argument));
if (file && isMainThread && isServer) {
  const fs = require("node:fs");
  const channels = require("node:diagnostics_channel");
  const descriptor = fs.openSync(file, "a");
  let current = null;
  const now = () => process.hrtime.bigint();
  const mark = (stage) => {
    if (current && !current.stages.has(stage)) current.stages.set(stage, now());
  };
  channels.subscribe("http.server.request.start", ({ request }) => {
    current = { method: request.method, path: request.url, start: now(), stages: new Map() };
  });
  channels.subscribe("genstudio:request-stage", (stage) => mark(stage));
  channels.subscribe("undici:request:create", () => mark("upstream opened"));
  channels.subscribe("undici:request:headers", () => mark("upstream headers"));
  channels.subscribe("undici:request:trailers", () => mark("upstream done"));
  channels.subscribe("http.server.response.finish", () => {
    if (!current) return;
    const record = current;
    current = null;
    record.stages.set("answer finished", now());
    const fields = [...record.stages].map(
      ([stage, at]) =>
        `${stage.replaceAll(" ", "_")}=${(Number(at - record.start) / 1e6).toFixed(3)}`,
    );
    fs.writeSync(descriptor, `${record.method} ${record.path} ${fields.join(" ")}\n`);
  });
}
