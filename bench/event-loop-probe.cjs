// Preloaded into the server by bench/hostile-input.mjs (NODE_OPTIONS=--require); the app never
// loads it. Measures how long the server's main thread went without serving its event loop:
// a timer due every millisecond (so it runs on nearly every turn of the loop) notes each gap
// between its runs, in wall time and in the main thread's own CPU time
// (/proc/self/task/<pid>/schedstat), the latter hardly moved by other processes on a busy
// machine. It costs the server about 2% of a core. Active only when GENSTUDIO_EVENT_LOOP_PROBE names a file, and
// only on the Next process's main thread; every 100 ms it appends a line there:
// "<epoch ms> <longest gap, wall ms> <longest gap, CPU ms>".
"use strict";
const file = process.env.GENSTUDIO_EVENT_LOOP_PROBE;
const { isMainThread } = require("node:worker_threads");
const isNext = process.argv.some((argument) => /next[\\/]dist[\\/]bin[\\/]next$/.test(argument));
if (file && isMainThread && isNext) {
  const fs = require("node:fs");
  const schedstat = `/proc/self/task/${process.pid}/schedstat`;
  /** CPU time the main thread has run, in ms. */
  const cpuMilliseconds = () => Number(fs.readFileSync(schedstat, "utf8").split(" ")[0]) / 1e6;
  const INTERVAL = 1;
  const descriptor = fs.openSync(file, "a");
  let lastWall = performance.now();
  let lastCpu = cpuMilliseconds();
  let longestWall = 0;
  let longestCpu = 0;
  let lastReport = lastWall;
  const timer = setInterval(() => {
    const wall = performance.now();
    const cpu = cpuMilliseconds();
    longestWall = Math.max(longestWall, wall - lastWall - INTERVAL);
    longestCpu = Math.max(longestCpu, cpu - lastCpu);
    lastWall = wall;
    lastCpu = cpu;
    if (wall - lastReport >= 100) {
      fs.writeSync(
        descriptor,
        `${Date.now()} ${longestWall.toFixed(1)} ${longestCpu.toFixed(1)}\n`,
      );
      longestWall = 0;
      longestCpu = 0;
      lastReport = wall;
    }
  }, INTERVAL);
  timer.unref();
}
