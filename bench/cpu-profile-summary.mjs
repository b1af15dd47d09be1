#!/usr/bin/env node
// Where a server's CPU time went, by part of the request path, from a V8 CPU profile
// (`node --cpu-prof`): each sample is charged to the innermost frame that belongs to a known
// part (a builtin such as JSON.parse counts for the code that called it), frames of the built
// server mapped back to their sources through the build's source maps. Used by
// bench/gateway.mjs --sections profile; also on its own:
//   node bench/cpu-profile-summary.mjs <file.cpuprofile> [requests]
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
/** Source maps are read with the package Next's own tooling brings, when it is there. */
let traceMapping = null;
try {
  traceMapping = require("@jridgewell/trace-mapping");
} catch {
  traceMapping = null;
}

/** Parts of the request path, matched in this order against a frame's source or URL. */
const PARTS = [
  ["authentication", /lib\/server\/auth\//],
  [
    "rate limit and stream slots",
    /lib\/server\/http\/(limits|leases)|lib\/db\/stores\/limit-store/,
  ],
  ["body reading", /lib\/server\/http\/(request-body|body-reader)/],
  [
    "canonical parse",
    /lib\/gemini\/(validate|schemas\/|forwarding-read|json-string-spans)|node_modules\/zod\//,
  ],
  [
    "reference walk",
    /lib\/server\/upstream\/request-references|lib\/gemini\/(references|resource-names)/,
  ],
  ["ownership lookups", /lib\/server\/persistence\/ownership|lib\/db\/stores\/ownership-store/],
  ["database", /lib\/db\/|better-sqlite3|node_modules\/pg/],
  ["response scrubbing", /lib\/server\/upstream\/scrub/],
  ["upstream client (ours)", /lib\/server\/upstream\//],
  ["upstream client (undici)", /node_modules\/undici\//],
  [
    "answer writing",
    /lib\/server\/http\/(responses|sse-response|json-array|api-answer|node-)|lib\/(engine|runtime)\/(json-|piece-writer|time-slices)|lib\/gemini\/sse/,
  ],
  ["the dispatch (start script)", /scripts\/(connection-guard|api-dispatch)/],
  ["request observation (metrics, span, log)", /lib\/server\/(logs|observability)\//],
  ["routing and handlers", /lib\/server\/api\//],
  ["local engine", /lib\/engine\//],
  ["other app code", /lib\/|\[project\]/],
  ["Next's request handling", /node_modules\/next\/|\.next\/server\/chunks\/\[turbopack\]/],
  [
    "web Request, Response and streams",
    /node:internal\/(webstreams|deps\/undici|abort_controller|event_target|url)/,
  ],
  [
    "Node HTTP and sockets",
    /node:(_http|net|internal\/(http|stream|streams|js_stream)|stream|internal\/net)/,
  ],
  ["promise hooks (AsyncLocalStorage)", /^node:(internal\/)?async_hooks/],
  ["Node (other)", /^node:/],
];
const SPECIAL = {
  "(idle)": "idle",
  "(garbage collector)": "garbage collection",
  "(program)": "native (unattributed)",
  "(root)": "native (unattributed)",
  writev: "socket writes (the writev system call)",
};

const maps = new Map();

/** The source a built frame came from (`lib/server/...`), or the frame's own URL. */
function sourceOf(frame) {
  return originalPosition(frame)?.source ?? frame.url;
}

/** Where a frame's code was written: `source:line`, mapped when the build has a source map. */
export function frameSource(frame) {
  const position = originalPosition(frame);
  if (position?.source) return `${position.source}:${position.line}`;
  return frame.url ? `${frame.url}:${frame.lineNumber + 1}` : "";
}

/** A built frame's position in its source, or null where there is no map for it. */
function originalPosition(frame) {
  const url = frame.url;
  if (!traceMapping || !url.includes("/.next/server/")) return null;
  let map = maps.get(url);
  if (map === undefined) {
    map = null;
    try {
      const file = fileURLToPath(url);
      if (existsSync(`${file}.map`))
        map = new traceMapping.TraceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  if (!map) return null;
  return traceMapping.originalPositionFor(map, {
    line: frame.lineNumber + 1,
    column: Math.max(0, frame.columnNumber),
  });
}

function partOf(frame) {
  if (SPECIAL[frame.functionName] && !frame.url) return SPECIAL[frame.functionName];
  if (!frame.url) return null;
  const source = sourceOf(frame);
  for (const [name, pattern] of PARTS) if (pattern.test(source)) return name;
  return "other";
}

/**
 * Milliseconds of CPU by part, and the busy (non-idle) total, of the samples taken within
 * `window` ([from, to] in microseconds of the monotonic clock, process.hrtime's, which the
 * profile's timestamps share), or of all of them.
 */
export function summarizeProfile(profile, window = null) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const partByNode = new Map();
  const resolve = (id) => {
    if (partByNode.has(id)) return partByNode.get(id);
    let part = partOf(nodes.get(id).callFrame);
    if (part === null) {
      const up = parent.get(id);
      part = up === undefined ? "native (unattributed)" : resolve(up);
    }
    partByNode.set(id, part);
    return part;
  };
  const totals = new Map();
  /** Per part, self time by the frame sampled (`function source:line`). */
  const frames = new Map();
  let at = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    const micros = profile.timeDeltas[index] ?? 0;
    at += micros;
    if (window && (at < window[0] || at > window[1])) continue;
    const part = resolve(profile.samples[index]);
    totals.set(part, (totals.get(part) ?? 0) + micros / 1000);
    const frame = nodes.get(profile.samples[index]).callFrame;
    const name = `${frame.functionName || "(anonymous)"} ${frameSource(frame)}`.trim();
    if (!frames.has(part)) frames.set(part, new Map());
    const byFrame = frames.get(part);
    byFrame.set(name, (byFrame.get(name) ?? 0) + micros / 1000);
  }
  const busy = [...totals].filter(([part]) => part !== "idle").reduce((sum, [, v]) => sum + v, 0);
  return { totals, busy, frames };
}

/**
 * The summary as a Markdown table: ms in all, µs per request, share of the busy time; with
 * `framesPerPart`, each part's frames with the most self time under it.
 */
export function profileTable(profile, requests, window = null, framesPerPart = 0) {
  const { totals, busy, frames } = summarizeProfile(profile, window);
  const rows = [...totals].filter(([part]) => part !== "idle").sort((a, b) => b[1] - a[1]);
  const lines = ["| part | CPU ms | µs per request | share |", "|---|---|---|---|"];
  for (const [part, value] of rows) {
    lines.push(
      `| ${part} | ${value.toFixed(1)} | ${((value * 1000) / requests).toFixed(1)} | ${((value / busy) * 100).toFixed(1)}% |`,
    );
  }
  lines.push(
    `| **busy in all** | ${busy.toFixed(1)} | ${((busy * 1000) / requests).toFixed(1)} | 100% |`,
  );
  if (framesPerPart > 0) {
    lines.push("", "| part: frame (self) | µs per request |", "|---|---|");
    for (const [part] of rows) {
      const top = [...frames.get(part)].sort((a, b) => b[1] - a[1]).slice(0, framesPerPart);
      for (const [name, value] of top)
        lines.push(`| ${part}: ${name} | ${((value * 1000) / requests).toFixed(1)} |`);
    }
  }
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, requests = "1"] = process.argv.slice(2);
  console.log(profileTable(JSON.parse(readFileSync(file, "utf8")), Number(requests)));
}
