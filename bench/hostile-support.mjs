// What the hostile benches share (bench/hostile-input.mjs: hostile request text against the
// local engine; bench/hostile-upstream.mjs: hostile upstream answers against the gateway): a
// production server with the event-loop probe preloaded, the probe's longest gaps, light
// requests every 50 ms and their percentiles, and the table of rows.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startOwnServer } from "../e2e/support/fuzz/own-server.mjs";

export const MiB = 2 ** 20;

/**
 * The hostile benches' command line: `--sizes 1,2,4,8,16` (MiB), `--shapes all|name,...` (of
 * `shapeNames`), `--operations all|none|name,...`, `--timeout-s 120`, `--app-dir DIR` and
 * `--compare-app-dir DIR` (a second build measured beside the first).
 */
export function benchOptions(shapeNames) {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "1,2,4,8,16" },
      shapes: { type: "string", default: "all" },
      "timeout-s": { type: "string", default: "120" },
      "app-dir": { type: "string" },
      "compare-app-dir": { type: "string" },
      operations: { type: "string", default: "all" },
    },
  });
  return {
    sizes: values.sizes.split(",").map(Number),
    shapes:
      values.shapes === "all"
        ? shapeNames
        : values.shapes.split(",").filter((name) => shapeNames.includes(name)),
    timeoutMs: Number(values["timeout-s"]) * 1000,
    /** `--operations all|none|name,...`: the single hostile requests of each operation. */
    operations: values.operations,
    appDirs: [values["app-dir"] ?? process.cwd(), values["compare-app-dir"]]
      .filter(Boolean)
      .map((dir) => path.resolve(dir)),
  };
}
const probeScript = fileURLToPath(new URL("./event-loop-probe.cjs", import.meta.url));

export const round = (value) => Math.round(value * 10) / 10;

/** A production server of the build in `cwd`, its own data, and the event-loop probe. */
export async function startProbedServer(cwd, env) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-hostile-bench-"));
  const probeFile = path.join(dataDir, "event-loop-probe.log");
  const server = await startOwnServer({
    dataDir,
    cwd,
    env: {
      ...env,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${probeScript}`.trim(),
      GENSTUDIO_EVENT_LOOP_PROBE: probeFile,
    },
  });
  return { build: path.basename(cwd), server, probeFile, idleP50: NaN };
}

/** The longest event-loop gaps (wall ms, CPU ms) a probe noted between two moments (epoch ms). */
export function longestGaps(probeFile, from, to) {
  let wall = 0;
  let cpu = 0;
  for (const line of fs.readFileSync(probeFile, "utf8").split("\n")) {
    const [at, lineWall, lineCpu] = line.split(" ").map(Number);
    // A line covers the 100 ms before it (longer when the loop was held).
    if (!(at >= from && at <= to + 200)) continue;
    wall = Math.max(wall, lineWall);
    cpu = Math.max(cpu, lineCpu);
  }
  return { wall: round(wall), cpu: round(cpu) };
}

/** Longest a light request is waited for; past it, it counts as this long (and as timed out). */
export const LIGHT_TIMEOUT_MS = 30_000;

/**
 * `send(signal)` (a light request answering its status) every 50 ms, start to start, until
 * stopped: the stop function answers their latencies in ms, sorted.
 */
export function lightRequests(send) {
  const latencies = [];
  const inFlight = new Set();
  const timer = setInterval(() => {
    const begun = performance.now();
    const done = send(AbortSignal.timeout(LIGHT_TIMEOUT_MS)).then(
      (status) => {
        if (status !== 200) throw new Error(`light request answered ${status}`);
        latencies.push(performance.now() - begun);
        inFlight.delete(done);
      },
      () => {
        latencies.push(LIGHT_TIMEOUT_MS);
        inFlight.delete(done);
      },
    );
    inFlight.add(done);
  }, 50);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
    return latencies.sort((left, right) => left - right);
  };
}

export function percentile(sorted, fraction) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

/** The light requests' latency on an idle server: its p50 is what "wait" is measured from. */
export async function idleLatency(target, send) {
  const begun = Date.now();
  const stop = lightRequests(send);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = await stop();
  target.idleP50 = percentile(idle, 0.5);
  const gaps = longestGaps(target.probeFile, begun, Date.now());
  console.log(
    `${target.build}: idle light requests: n=${idle.length} p50 ${round(target.idleP50)} ms, p99 ${round(percentile(idle, 0.99))} ms; longest event-loop gap ${gaps.wall} ms wall, ${gaps.cpu} ms CPU`,
  );
}

/**
 * One hostile request (`hostile()` answering its status) on a target while light requests
 * (`send`) run, for `minimumMs` at least: the row of the table.
 */
export async function measureRow(target, labels, hostile, send, { minimumMs = 0 } = {}) {
  const stopLight = lightRequests(send);
  const window = new Promise((resolve) => setTimeout(resolve, minimumMs));
  const begunAt = Date.now();
  const begun = performance.now();
  let status;
  try {
    status = await hostile();
  } catch (error) {
    status =
      error.name === "TimeoutError" || error.code === "UND_ERR_ABORTED" ? "timeout" : error.message;
  }
  const hostileMs = performance.now() - begun;
  await window;
  const light = await stopLight();
  const gaps = longestGaps(target.probeFile, begunAt, Date.now());
  return {
    build: target.build,
    ...labels,
    status,
    hostileSeconds: round(hostileMs / 1000),
    light: light.length,
    lightP50: round(percentile(light, 0.5)),
    lightP99: round(percentile(light, 0.99)),
    lightMax: round(light.at(-1) ?? NaN),
    waitP99: round(percentile(light, 0.99) - target.idleP50),
    gapWall: gaps.wall,
    gapCpu: gaps.cpu,
  };
}

/** The rows as a Markdown table (with a build column when several builds were compared). */
export function printTable(rows, compared) {
  const build = (row) => (compared ? ` ${row.build} |` : "");
  console.log(
    `\n|${compared ? " build |" : ""} shape | MiB | status | hostile s | light n | light p50 ms | light p99 ms | max ms | p99 wait ms | longest block, wall ms | longest block, CPU ms |`,
  );
  console.log(`|${compared ? "---|" : ""}---|---|---|---|---|---|---|---|---|---|---|`);
  for (const row of rows)
    console.log(
      `|${build(row)} ${row.shape} | ${row.MiB} | ${row.status} | ${row.hostileSeconds} | ${row.light} | ${row.lightP50} | ${row.lightP99} | ${row.lightMax} | ${row.waitP99} | ${row.gapWall} | ${row.gapCpu} |`,
    );
  for (const name of new Set(rows.map((row) => row.build))) {
    const own = rows.filter((row) => row.build === name);
    // A hostile request answered before the first light one started has no wait to show.
    const waited = own.filter((row) => row.light > 0);
    const under = waited.filter((row) => row.waitP99 < 50).length;
    const cpuUnder = own.filter((row) => row.gapCpu < 50).length;
    console.log(
      `${name}: p99 wait under 50 ms in ${under} of the ${waited.length} rows with light requests (worst ${Math.max(...waited.map((row) => row.waitP99))} ms); longest block under 50 ms of CPU in ${cpuUnder} of ${own.length} (worst ${Math.max(...own.map((row) => row.gapCpu))} ms)`,
    );
  }
  console.log(
    `\nmachine: ${os.cpus().length} cpus, load ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")}`,
  );
}
