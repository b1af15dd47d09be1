// Preloaded by bench/answer-write.mjs (NODE_OPTIONS=--require) into a gateway's Next process, or
// into the bench's own bare server; the app never loads it. Times the writing of every POST's
// answer as it runs (synchronously): `writeHead`, when the server calls it before `end`, and
// `end` itself (the headers made, the socket's write issued); inside them, the headers' making
// (`writeHead`, or `_implicitHeader` when `end` makes them) and the native write to the socket
// (the TCP handle's write or writev call: the system call, with whatever the kernel does in
// it, waking the reader included). Also counts the process's involuntary context switches
// across `end` (getrusage): one there means the process was taken off the CPU in the middle,
// most often for the client the write just woke. Active only when
// GENSTUDIO_ANSWER_WRITE_PROBE names a file, on a main thread; one line per answer:
// "<writeHead + end µs> <headers µs> <native write µs> <involuntary switches>".
"use strict";
const file = process.env.GENSTUDIO_ANSWER_WRITE_PROBE;
const { isMainThread } = require("node:worker_threads");
if (file && isMainThread) {
  const http = require("node:http");
  const fs = require("node:fs");
  const now = () => process.hrtime.bigint();
  const lines = [];
  let inEnd = false;
  let headers = 0n;
  let native = 0n;

  const timed = (original, add) =>
    function (...args) {
      if (!inEnd) return original.apply(this, args);
      const started = now();
      try {
        return original.apply(this, args);
      } finally {
        add(now() - started);
      }
    };

  const { writeHead, _implicitHeader: implicitHeader, end } = http.ServerResponse.prototype;
  /** The time a response spent in a `writeHead` called before its `end`. */
  const headTime = new WeakMap();
  http.ServerResponse.prototype.writeHead = function (...args) {
    if (inEnd || this.req?.method !== "POST") return writeHead.apply(this, args);
    const started = now();
    try {
      return writeHead.apply(this, args);
    } finally {
      headTime.set(this, (headTime.get(this) ?? 0n) + now() - started);
    }
  };
  http.ServerResponse.prototype._implicitHeader = timed(
    implicitHeader,
    (time) => (headers += time),
  );
  // The TCP handle's own write methods (process.binding is the only way in from user land).
  const { TCP } = process.binding("tcp_wrap");
  for (const name of ["writev", "writeBuffer", "writeUtf8String", "writeLatin1String"]) {
    TCP.prototype[name] = timed(TCP.prototype[name], (time) => (native += time));
  }
  const flush = () => {
    if (lines.length > 0) fs.appendFileSync(file, lines.splice(0).join(""));
  };
  http.ServerResponse.prototype.end = function (...args) {
    if (this.req?.method !== "POST" || inEnd) return end.apply(this, args);
    inEnd = true;
    headers = 0n;
    native = 0n;
    const switches = process.resourceUsage().involuntaryContextSwitches;
    const started = now();
    try {
      return end.apply(this, args);
    } finally {
      const head = headTime.get(this) ?? 0n;
      const took = now() - started + head;
      headers += head;
      inEnd = false;
      const preempted = process.resourceUsage().involuntaryContextSwitches - switches;
      lines.push(
        `${Number(took) / 1e3} ${Number(headers) / 1e3} ${Number(native) / 1e3} ${preempted}\n`,
      );
      if (lines.length >= 100) flush();
    }
  };
  process.on("exit", flush);
  setInterval(flush, 200).unref();
}
