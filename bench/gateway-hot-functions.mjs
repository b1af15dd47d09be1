#!/usr/bin/env node
// Where a gateway's CPU goes by function under load (see bench/README.md, "Gateway: the lean API
// path"): one gateway of a build (this checkout's, or `--checkout ../other`'s) in front of the
// stand-in upstream (gateway-stand-in.mjs, which costs nothing), profiled with `--cpu-prof` while
// `--callers` concurrent callers send countTokens for `--seconds`; prints the functions with the
// most self time and the most inclusive time, per request and as a share of the busy time, built
// frames mapped to their sources through the build's source maps. Shares are what count: the
// sampling inflates absolute times.
// Usage: node bench/gateway-hot-functions.mjs [--checkout .] [--callers 10] [--seconds 6]
//   [--self 40] [--inclusive 80] [--sources 15] [--server gateway|parsing|bare] [--part-frames 0]
//   [--save file]
// `--part-frames N` lists under that table each part's N frames with the most self time.
// `--save` keeps the profile (a .cpuprofile, for cpu-profile-summary.mjs or Chrome's DevTools).
// `--server parsing` or `bare` profiles the parsing proxy (parsing-proxy.mjs) or the bare proxy
// (bare-proxy.mjs) in the same place instead, for the same tables beside the gateway's. A table
// of the busy time by part of the request path (cpu-profile-summary.mjs's parts) comes last.
// The last table sums self time by source file (a built frame's own source; a native frame by
// its name), which is where Node's async hooks (node:async_hooks, node:internal/async_hooks:
// on for every promise once any AsyncLocalStorage has been entered) show as one figure.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { countOnce, gatewayEnvironment, throughput, UPSTREAM_KEY } from "./gateway-operations.mjs";
import { profileTable } from "./cpu-profile-summary.mjs";
import {
  load,
  loopbackCertificate,
  startBareProxy,
  startChild,
  startParsingProxy,
  startStudio,
  stopStudio,
  temporaryFolder,
  contextSwitches,
  threadCpuMicros,
  treeCpuMicros,
  treeSystemCalls,
  readOptions,
} from "./gateway-support.mjs";

const options = readOptions({
  checkout: ".",
  callers: 10,
  seconds: 6,
  self: 40,
  inclusive: 80,
  sources: 15,
  server: "gateway",
  save: "",
  "part-frames": 0,
});
const checkout = path.resolve(options.checkout);
const traceMapping = createRequire(import.meta.url)("@jridgewell/trace-mapping");
const maps = new Map();

/** A frame's source and line, through the build's source map when it is a built file. */
function where(frame) {
  if (!frame.url) return "";
  if (!frame.url.includes("/.next/server/"))
    return `${frame.url.replace(/^.*node_modules\//, "")}:${frame.lineNumber + 1}`;
  let map = maps.get(frame.url);
  if (map === undefined) {
    map = null;
    const file = fileURLToPath(frame.url);
    if (existsSync(`${file}.map`))
      // FlattenMap reads both plain and sectioned maps (Turbopack writes both).
      map = new traceMapping.FlattenMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    maps.set(frame.url, map);
  }
  if (!map) return frame.url;
  const position = traceMapping.originalPositionFor(map, {
    line: frame.lineNumber + 1,
    column: Math.max(0, frame.columnNumber),
  });
  const source = (position.source ?? frame.url).replace(
    /^.*?\/(lib|scripts|node_modules)\//,
    "$1/",
  );
  return `${source}:${position.line}`;
}

const folder = temporaryFolder("hot-functions");
const certificate = loopbackCertificate();
const standIn = await startChild("stand-in upstream", "gateway-stand-in.mjs", [
  certificate.key,
  certificate.cert,
]);
const profiling = ["--cpu-prof", "--cpu-prof-interval", "200", "--cpu-prof-dir", folder];
const upstreamUrl = `http://127.0.0.1:${standIn.port}`;
const proxies = {
  bare: () => startBareProxy(upstreamUrl, UPSTREAM_KEY, {}, profiling),
  parsing: () => startParsingProxy(upstreamUrl, UPSTREAM_KEY, profiling),
};
const server =
  options.server === "gateway"
    ? await startStudio("gateway", gatewayEnvironment(upstreamUrl), {
        folder: checkout,
        nodeArgs: profiling,
      })
    : await proxies[options.server]?.();
if (!server) throw new Error(`--server is gateway, parsing or bare, not ${options.server}`);
for (let index = 0; index < 500; index++) await countOnce(server);
const callsBefore = treeSystemCalls(server.pid);
const cpuBefore = treeCpuMicros(server.pid);
const switchesBefore = contextSwitches(server.pid);
const threadsBefore = threadCpuMicros(server.pid);
const from = Number(process.hrtime.bigint() / 1000n);
const rate = await throughput(server, options.callers, options.seconds, countOnce);
const to = Number(process.hrtime.bigint() / 1000n);
const callsAfter = treeSystemCalls(server.pid);
const cpuAfter = treeCpuMicros(server.pid);
const switchesAfter = contextSwitches(server.pid);
const threadsAfter = threadCpuMicros(server.pid);
if (options.server === "gateway") await stopStudio(server);
else await stopProxy(server);
standIn.child.kill();
const requests = rate * options.seconds;

// The server's profile is the one busiest in the window (the start script and workers write theirs).
const busyIn = (profile) => {
  const idle = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((node) => node.id),
  );
  let at = profile.startTime;
  let busy = 0;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index];
    if (at >= from && at <= to && !idle.has(id)) busy += profile.timeDeltas[index];
  });
  return busy;
};
const profile = readdirSync(folder)
  .filter((name) => name.endsWith(".cpuprofile"))
  .map((name) => JSON.parse(readFileSync(path.join(folder, name), "utf8")))
  .sort((a, b) => busyIn(b) - busyIn(a))[0];
if (options.save) writeFileSync(options.save, JSON.stringify(profile));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const key = (frame) => `${frame.functionName || "(anonymous)"} ${where(frame)}`.trim();
const self = new Map();
const inclusive = new Map();
const bySource = new Map();
/** A frame's source file without its line; a frame without one (native, GC) by its name. */
const sourceOf = (frame) =>
  where(frame).replace(/:\d+$/, "") || frame.functionName || "(anonymous)";
let busy = 0;
let at = profile.startTime;
profile.samples.forEach((sample, index) => {
  const micros = profile.timeDeltas[index];
  at += micros;
  if (at < from || at > to || nodes.get(sample).callFrame.functionName === "(idle)") return;
  busy += micros;
  const own = key(nodes.get(sample).callFrame);
  self.set(own, (self.get(own) ?? 0) + micros);
  const source = sourceOf(nodes.get(sample).callFrame);
  bySource.set(source, (bySource.get(source) ?? 0) + micros);
  const seen = new Set();
  for (let id = sample; id !== undefined; id = parent.get(id)) {
    const name = key(nodes.get(id).callFrame);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
  }
});
const label = options.server === "gateway" ? `gateway of ${checkout}` : `${options.server} proxy`;
console.log(
  `${label}: ${options.callers} callers, ${rate.toFixed(0)} countTokens/s, busy ${(busy / requests).toFixed(0)} µs per request under the profiler (load ${load()})`,
);
const table = (values, count, title) => {
  console.log(`\n| ${title} | share | µs per request |\n|---|---|---|`);
  for (const [name, micros] of [...values].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(
      `| ${name} | ${((micros / busy) * 100).toFixed(1)} % | ${(micros / requests).toFixed(1)} |`,
    );
};
console.log(
  `CPU per request (user and system, the server's process tree, /proc/<pid>/stat): ${((cpuAfter - cpuBefore) / requests).toFixed(0)} µs`,
);
console.log(
  `CPU per request by thread of the serving process: ${[...threadsAfter]
    .map(([name, micros]) => [name, (micros - (threadsBefore.get(name) ?? 0)) / requests])
    .filter(([, micros]) => micros >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([name, micros]) => `${name} ${micros.toFixed(0)} µs`)
    .join(", ")}`,
);
console.log(
  `Context switches of the serving main thread per request (/proc/<pid>/status): ${((switchesAfter.involuntary - switchesBefore.involuntary) / requests).toFixed(2)} involuntary (another task took the CPU), ${((switchesAfter.voluntary - switchesBefore.voluntary) / requests).toFixed(2)} voluntary (waiting)`,
);
console.log(
  `System calls per request (the server's process tree, /proc/<pid>/io): ${((callsAfter.writes - callsBefore.writes) / requests).toFixed(2)} writes, ${((callsAfter.reads - callsBefore.reads) / requests).toFixed(2)} reads`,
);
table(self, options.self, "self time");
table(inclusive, options.inclusive, "inclusive time");
table(bySource, options.sources, "self time by source");
console.log(`\nBusy time by part of the request path (self time, cpu-profile-summary.mjs):\n`);
console.log(profileTable(profile, requests, [from, to], options["part-frames"]));
process.exit(0);

/** Stops a proxy and waits for it to write its profile (Node writes it at a normal exit). */
async function stopProxy(proxy) {
  const exited = new Promise((resolve) => proxy.child.once("exit", resolve));
  proxy.child.kill("SIGINT");
  await exited;
}
