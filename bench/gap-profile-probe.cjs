// What the server's main thread ran while it held its event loop: preloaded into the server
// (`NODE_OPTIONS="--require bench/gap-profile-probe.cjs"`, GENSTUDIO_GAP_PROFILE=<directory>),
// it samples the Next process's main thread with V8's CPU profiler (every 250 µs), notes every
// gap of its event loop of 10 ms or more (a timer due every millisecond, as
// bench/event-loop-probe.cjs) with the thread's own CPU time, and every API request's arrival
// and answer. When the process exits it writes `<pid>.cpuprofile`, `<pid>.gaps.jsonl` and
// `<pid>.requests.jsonl` there; times are microseconds of the monotonic clock the profile's
// samples use (process.hrtime), beside epoch milliseconds. bench/gap-profile-summary.mjs reads
// them. Without GENSTUDIO_GAP_PROFILE it does nothing; the app never loads it.
"use strict";
const directory = process.env.GENSTUDIO_GAP_PROFILE;
const { isMainThread } = require("node:worker_threads");
const isNext = process.argv.some((argument) => /next[\\/]dist[\\/]bin[\\/]next$/.test(argument));
if (directory && isMainThread && isNext) {
  const fs = require("node:fs");
  const http = require("node:http");
  const path = require("node:path");
  const inspector = require("node:inspector");
  const GAP_MS = 10;
  const micros = () => Number(process.hrtime.bigint() / 1000n);
  const schedstat = `/proc/self/task/${process.pid}/schedstat`;
  const cpuMilliseconds = () => Number(fs.readFileSync(schedstat, "utf8").split(" ")[0]) / 1e6;
  const gaps = [];
  const requests = [];

  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 250 });
  session.post("Profiler.start");

  let lastAt = micros();
  let lastCpu = cpuMilliseconds();
  setInterval(() => {
    const at = micros();
    const cpu = cpuMilliseconds();
    if ((at - lastAt) / 1000 - 1 >= GAP_MS)
      gaps.push({
        from: lastAt,
        to: at,
        epoch: Date.now(),
        wall: (at - lastAt) / 1000 - 1,
        cpu: cpu - lastCpu,
      });
    lastAt = at;
    lastCpu = cpu;
  }, 1).unref();

  // Every request the process serves: its path and declared size, when it came and was answered.
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, request, response) {
    if (event === "request") {
      const entry = {
        url: request.url.slice(0, 120),
        bytes: Number(request.headers["content-length"] ?? 0),
        from: micros(),
        epoch: Date.now(),
      };
      requests.push(entry);
      response.once("finish", () => {
        entry.to = micros();
        entry.status = response.statusCode;
      });
    }
    return emit.apply(this, arguments);
  };

  process.on("exit", () => {
    fs.mkdirSync(directory, { recursive: true });
    const base = path.join(directory, String(process.pid));
    // The session is this thread's own: the profile is answered synchronously.
    session.post("Profiler.stop", (error, result) => {
      if (!error) fs.writeFileSync(`${base}.cpuprofile`, JSON.stringify(result.profile));
    });
    fs.writeFileSync(`${base}.gaps.jsonl`, gaps.map((gap) => JSON.stringify(gap)).join("\n"));
    fs.writeFileSync(
      `${base}.requests.jsonl`,
      requests.map((entry) => JSON.stringify(entry)).join("\n"),
    );
  });
  // Next leaves on these signals without running exit handlers of its own choosing.
  for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => process.exit(0));
}
