// What a server process holds, on request: preloaded with `--require bench/memory-probe.cjs`
// and GENSTUDIO_MEMORY_PROBE=<file>, on SIGUSR2 it collects garbage (when started with
// --expose-gc), appends one JSON line to <file> (process.memoryUsage() and the count of each
// kind of active handle: sockets, timers...) and, with GENSTUDIO_HEAP_SNAPSHOTS=<folder>, writes
// a heap snapshot there. Without GENSTUDIO_MEMORY_PROBE it does nothing. bench/held-streams.mjs
// signals it at each checkpoint of held streams.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const v8 = require("node:v8");

const file = process.env.GENSTUDIO_MEMORY_PROBE;
if (file) {
  // Opened now: a server at its open-file limit (every held stream costs it sockets) could not
  // open the file, nor /proc/self/stat for its RSS, when asked.
  const output = fs.openSync(file, "a");
  let taken = 0;
  process.on("SIGUSR2", () => {
    if (typeof globalThis.gc === "function") {
      globalThis.gc();
      globalThis.gc();
    }
    const resources = {};
    for (const kind of process.getActiveResourcesInfo())
      resources[kind] = (resources[kind] ?? 0) + 1;
    let memory;
    try {
      memory = process.memoryUsage();
    } catch {
      const heap = v8.getHeapStatistics();
      memory = {
        rss: null,
        heapTotal: heap.total_heap_size,
        heapUsed: heap.used_heap_size,
        external: heap.external_memory,
        arrayBuffers: null,
      };
    }
    const line = { pid: process.pid, at: Date.now(), ...memory, resources };
    const folder = process.env.GENSTUDIO_HEAP_SNAPSHOTS;
    if (folder) {
      line.snapshot = path.join(folder, `${process.pid}-${++taken}.heapsnapshot`);
      v8.writeHeapSnapshot(line.snapshot);
    }
    fs.writeSync(output, JSON.stringify(line) + "\n");
  });
}
