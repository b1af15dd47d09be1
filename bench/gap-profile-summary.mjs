#!/usr/bin/env node
// What ran in each held turn of a server's event loop, from what bench/gap-profile-probe.cjs
// wrote: for every gap of at least --min-ms (wall), the requests in flight (of at least
// --min-bytes declared), the gap's wall and CPU time, its samples by part of the request path
// (bench/cpu-profile-summary.mjs) and its heaviest frames (self time, mapped to their sources
// through the build's source maps), and the collections bench/gc-probe.cjs noted in it.
//
//   node bench/gap-profile-summary.mjs <directory> [--min-ms 20] [--min-bytes 1048576]
//                                      [--gc <gc-probe file>] [--frames 8]
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { frameSource, summarizeProfile } from "./cpu-profile-summary.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "min-ms": { type: "string", default: "20" },
    "min-bytes": { type: "string", default: "1048576" },
    gc: { type: "string" },
    frames: { type: "string", default: "8" },
  },
});
const directory = positionals[0];
if (!directory) {
  console.error(
    "usage: node bench/gap-profile-summary.mjs <directory written by gap-profile-probe.cjs> [options]",
  );
  process.exit(2);
}
const minMs = Number(values["min-ms"]);
const minBytes = Number(values["min-bytes"]);
const frameCount = Number(values.frames);
const lines = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const collections = values.gc
  ? readFileSync(values.gc, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split(" "))
      .map(([at, kind, ms, pid, why, thread]) => ({
        at: Number(at),
        kind,
        ms: Number(ms),
        pid: Number(pid),
        why: why ?? "-",
        thread: Number(thread ?? 0),
      }))
  : [];

for (const name of readdirSync(directory).filter((file) => file.endsWith(".cpuprofile"))) {
  const pid = Number(name.split(".")[0]);
  const profile = JSON.parse(readFileSync(path.join(directory, name), "utf8"));
  const gaps = lines(path.join(directory, `${pid}.gaps.jsonl`));
  const requestsFile = path.join(directory, `${pid}.requests.jsonl`);
  const requests = existsSync(requestsFile) ? lines(requestsFile) : [];
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((at += delta));
  console.log(`# server ${pid}: ${gaps.length} gaps of 10 ms or more`);
  for (const gap of gaps.filter((entry) => entry.wall >= minMs)) {
    const inFlight = requests.filter(
      (request) =>
        request.bytes >= minBytes && request.from <= gap.to && (request.to ?? Infinity) >= gap.from,
    );
    const during = collections.filter(
      (collection) =>
        collection.pid === pid &&
        collection.thread === 0 &&
        collection.at >= gap.epoch - gap.wall - 2 &&
        collection.at <= gap.epoch + 1,
    );
    console.log(
      `\n## gap ${gap.wall.toFixed(1)} ms wall, ${gap.cpu.toFixed(1)} ms CPU, ended ${new Date(gap.epoch).toISOString()}; in flight: ${
        inFlight
          .map(
            (request) =>
              `${request.url} (${request.bytes} B, ${((gap.to - request.from) / 1000).toFixed(0)} ms in, ${request.status ?? "open"})`,
          )
          .join("; ") || "none that large"
      }`,
    );
    if (during.length)
      console.log(
        `collections: ${during.map((collection) => `${collection.kind} ${collection.ms.toFixed(1)} ms (${collection.why})`).join(", ")}`,
      );
    const { totals } = summarizeProfile(profile, [gap.from, gap.to]);
    console.log(
      [...totals]
        .filter(([part]) => part !== "idle")
        .sort((a, b) => b[1] - a[1])
        .map(([part, ms]) => `${part} ${ms.toFixed(1)}`)
        .join(", "),
    );
    const self = new Map();
    for (let index = 0; index < times.length; index++) {
      if (times[index] < gap.from || times[index] > gap.to) continue;
      const node = nodes.get(profile.samples[index]);
      const frame = node.callFrame;
      const key = `${frame.functionName || "(anonymous)"} ${frameSource(frame)}`;
      self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
    }
    for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, frameCount))
      console.log(`  ${ms.toFixed(1)} ms  ${key}`);
  }
}
