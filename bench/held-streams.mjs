#!/usr/bin/env node
// Memory per held stream (see bench/README.md, "Gateway: the lean API path"): streams held
// open through the bare proxy (bare-proxy.mjs, the floor for two sockets a stream) and through
// the gateway of this build (and `--compare`'s), one server after the other in front of one
// stand-in upstream (gateway-stand-in.mjs). At each checkpoint: the process tree's resident
// memory as bench/gateway.mjs's streams section reads it, then, after two forced collections
// (bench/memory-probe.cjs), the server's V8 heap, its external and array-buffer bytes, its RSS
// and its active handles; with `--snapshots` also a heap snapshot, and the growth between the
// first two checkpoints by constructor (heap-snapshot-diff.mjs), per stream.
// Usage: node bench/held-streams.mjs [--checkpoints 1000,2000] [--upstream tls|plain]
//   [--hold-every-ms 20000] [--servers bare,gateway,compare] [--compare ../base]
//   [--snapshots on] [--rows 30] [--environment NAME=value,...] [--prompt-kib 0]
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { client, gatewayEnvironment, holdStreams, UPSTREAM_KEY } from "./gateway-operations.mjs";
import {
  benchDir,
  load,
  loopbackCertificate,
  mib,
  root,
  startBareProxy,
  startChild,
  startStudio,
  stopStudio,
  temporaryFolder,
  readOptions,
} from "./gateway-support.mjs";
import { classSizes, diffClasses } from "./heap-snapshot-diff.mjs";

const options = readOptions({
  checkpoints: "1000,2000",
  upstream: "tls",
  "hold-every-ms": 20_000,
  servers: "bare,gateway",
  compare: "",
  snapshots: "off",
  rows: 30,
  // The prompt each stream sends, in KiB of text (0: the word "hold").
  "prompt-kib": 0,
  // Extra environment for the gateways, NAME=value,NAME=value (for trying a setting).
  environment: "",
});
const checkpoints = options.checkpoints.split(",").map(Number);
const probe = path.join(benchDir, "memory-probe.cjs");
const probeFolder = temporaryFolder("memory-probe");
const probeOptions = `--expose-gc --require ${probe}`;

/** The pid of the process that serves: the proxy itself, or the Next server under start.mjs. */
function servingPid(pid) {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return children ? Number(children.split(/\s+/)[0]) : pid;
}

/** Signals the probe in `pid` and waits for its line (and snapshot). */
async function probeOnce(pid, file) {
  const count = () => {
    try {
      return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).length;
    } catch {
      return 0;
    }
  };
  const before = count();
  process.kill(pid, "SIGUSR2");
  for (let waited = 0; count() === before; waited += 200) {
    if (waited > 120_000) throw new Error("the memory probe did not answer");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1));
}

const kib = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(1)} KiB` : "-");
const mibOrNone = (bytes) => (bytes === null ? "-" : mib(bytes));

async function measure(label, server, probeFile) {
  const pid = servingPid(server.pid);
  const idle = await probeOnce(pid, probeFile);
  const probes = [idle];
  const started = new Date().toISOString();
  const startLoad = load();
  const held = await holdStreams(
    server,
    checkpoints.at(-1),
    checkpoints,
    options["hold-every-ms"],
    async () => {
      probes.push(await probeOnce(pid, probeFile));
    },
    options["prompt-kib"] > 0
      ? "hold ".repeat(Math.round((options["prompt-kib"] * 1024) / 5))
      : "hold",
  );
  console.log(`\n### ${label} (${started}, load ${startLoad})`);
  console.log(
    `| open streams | tree RSS | server RSS after GC | V8 heap used (committed) | external | of it array buffers | sockets (TCP, TLS) | timers |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|`);
  const rows = [{ streams: 0, rss: held.baseline }, ...held.results];
  for (const [index, row] of rows.entries()) {
    const line = probes[index];
    const sockets = (line.resources.TCPSocketWrap ?? 0) + (line.resources.TLSWrap ?? 0);
    console.log(
      `| ${row.streams} | ${mib(row.rss)} | ${mibOrNone(line.rss)} | ${mib(line.heapUsed)} (${mib(line.heapTotal)}) | ${mib(line.external)} | ${mibOrNone(line.arrayBuffers)} | ${sockets} (${line.resources.TCPSocketWrap ?? 0}, ${line.resources.TLSWrap ?? 0}) | ${line.resources.Timeout ?? 0} |`,
    );
  }
  const perStream = (from, to, field) =>
    probes[to][field] === null || probes[from][field] === null
      ? "-"
      : kib((probes[to][field] - probes[from][field]) / (rows[to].streams - rows[from].streams));
  const last = rows.length - 1;
  console.log(
    `per stream, ${rows[1].streams} -> ${rows[last].streams} (marginal): tree RSS ${kib((rows[last].rss - rows[1].rss) / (rows[last].streams - rows[1].streams))}, RSS after GC ${perStream(1, last, "rss")}, heap ${perStream(1, last, "heapUsed")} (committed ${perStream(1, last, "heapTotal")}), external ${perStream(1, last, "external")}; 0 -> ${rows[last].streams}: tree RSS ${kib((rows[last].rss - rows[0].rss) / rows[last].streams)}, heap ${perStream(0, last, "heapUsed")}`,
  );
  console.log(`still receiving: ${held.alive}/${held.held}`);
  if (held.failures.count > 0)
    console.log(`failed to open: ${held.failures.count} (the first: ${held.failures.first})`);
  if (options.snapshots === "on") {
    const [, first, second] = probes;
    const per = rows[2].streams - rows[1].streams;
    const diff = diffClasses(classSizes(first.snapshot), classSizes(second.snapshot));
    const total = diff.reduce((sum, row) => sum + row.size, 0);
    console.log(
      `\nheap growth ${rows[1].streams} -> ${rows[2].streams} streams, self size by constructor, per stream:`,
    );
    console.log(`| class | objects | bytes |`);
    console.log(`|---|---|---|`);
    for (const row of diff.slice(0, options.rows))
      console.log(
        `| ${row.name.replaceAll("|", "\\|")} | ${(row.count / per).toFixed(2)} | ${(row.size / per).toFixed(0)} |`,
      );
    console.log(`| all | | ${(total / per).toFixed(0)} |`);
  }
}

async function main() {
  console.log(
    `held streams: ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}, load ${load()}, upstream ${options.upstream}, one event every ${options["hold-every-ms"] / 1000} s a stream, checkpoints ${checkpoints.join(", ")}, prompt ${options["prompt-kib"] ? `${options["prompt-kib"]} KiB` : "one word"}`,
  );
  const certificate = loopbackCertificate();
  const standIn = await startChild("stand-in upstream", "gateway-stand-in.mjs", [
    certificate.key,
    certificate.cert,
    String(options["hold-every-ms"]),
  ]);
  const tls = options.upstream === "tls";
  const upstreamUrl = tls
    ? `https://127.0.0.1:${standIn.tlsPort}`
    : `http://127.0.0.1:${standIn.port}`;
  const trust = tls ? { NODE_EXTRA_CA_CERTS: certificate.cert } : {};
  const snapshots =
    options.snapshots === "on" ? { GENSTUDIO_HEAP_SNAPSHOTS: temporaryFolder("heap") } : {};
  for (const [index, name] of options.servers.split(",").entries()) {
    const probeFile = path.join(probeFolder, `${index}-${name}.jsonl`);
    const probeEnvironment = { GENSTUDIO_MEMORY_PROBE: probeFile, ...snapshots };
    if (name === "bare") {
      const bare = await startBareProxy(upstreamUrl, UPSTREAM_KEY, {
        ...trust,
        ...probeEnvironment,
        NODE_OPTIONS: probeOptions,
      });
      await measure("bare proxy", bare, probeFile);
      bare.child.kill();
      continue;
    }
    const folder = name === "compare" ? path.resolve(root, options.compare) : root;
    const server = await startStudio(
      "gateway",
      gatewayEnvironment(upstreamUrl, {
        extra: {
          ...trust,
          ...probeEnvironment,
          ...Object.fromEntries(
            options.environment
              .split(",")
              .filter(Boolean)
              .map((pair) => pair.split("=")),
          ),
        },
      }),
      { folder, nodeOptions: probeOptions },
    );
    await measure(
      `gateway, ${name === "compare" ? options.compare : "this build"}`,
      server,
      probeFile,
    );
    await stopStudio(server);
  }
  console.log(`\nload at the end: ${load()}`);
  await client.close();
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
