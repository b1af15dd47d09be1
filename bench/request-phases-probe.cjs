// Preloaded into the server by bench/light-request-phases.mjs (NODE_OPTIONS=--require); the app
// never loads it. For each request carrying an `x-bench-request-id` header, appends a line to
// the file GENSTUDIO_REQUEST_PHASES names: "<id> <epoch ms when Node emitted the request>
// <epoch ms when its answer was handed to the socket>" (performance.timeOrigin-based, so the
// bench's own clock lines up with it). Only on the Next process's main thread.
"use strict";
const file = process.env.GENSTUDIO_REQUEST_PHASES;
const { isMainThread } = require("node:worker_threads");
const isNext = process.argv.some((argument) => /next[\\/]dist[\\/]bin[\\/]next$/.test(argument));
if (file && isMainThread && isNext) {
  const fs = require("node:fs");
  const http = require("node:http");
  const descriptor = fs.openSync(file, "a");
  const now = () => performance.timeOrigin + performance.now();
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, request, response) {
    const id = event === "request" ? request.headers["x-bench-request-id"] : undefined;
    if (id) {
      const received = now();
      response.on("finish", () =>
        fs.writeSync(descriptor, `${id} ${received.toFixed(2)} ${now().toFixed(2)}\n`),
      );
    }
    return emit.apply(this, arguments);
  };
}
