// Garbage collections of a server process, for telling a held event loop's own work from the
// collector's: preloaded with `NODE_OPTIONS="--require bench/gc-probe.cjs"` and
// GENSTUDIO_GC_PROBE=<file>, it appends one line per collection, "<epoch ms at its start>
// <kind> <duration ms> <pid> <why> <thread>" (kind: minor = scavenge, major = mark-compact, incremental,
// weakcb; why: "external" when V8 collected for the memory held outside its heap (array
// buffers' bytes), "forced" when asked for, else "-"; thread: 0 for the main thread, else the
// worker's threadId),
// written once a second so the probe's own writes stay off the measured thread's way.
// Without GENSTUDIO_GC_PROBE it does nothing. Processes the server starts (workers) inherit
// NODE_OPTIONS, and each writes its lines with its pid.
const fs = require("node:fs");
const { PerformanceObserver, constants, performance } = require("node:perf_hooks");
const { threadId } = require("node:worker_threads");

const file = process.env.GENSTUDIO_GC_PROBE;
if (file) {
  const KINDS = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
  };
  let lines = [];
  const origin = performance.timeOrigin;
  const why = (flags = 0) =>
    flags & constants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY
      ? "external"
      : flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED
        ? "forced"
        : "-";
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      lines.push(
        `${Math.round(origin + entry.startTime)} ${KINDS[entry.detail?.kind] ?? "other"} ${entry.duration.toFixed(2)} ${process.pid} ${why(entry.detail?.flags)} ${threadId}`,
      );
  }).observe({ entryTypes: ["gc"] });
  setInterval(() => {
    if (lines.length === 0) return;
    fs.appendFileSync(file, lines.join("\n") + "\n");
    lines = [];
  }, 1000).unref();
}
