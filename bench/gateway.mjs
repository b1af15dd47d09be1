#!/usr/bin/env node
// (Over 400 lines: one short function per section, over the helpers of gateway-support.mjs
// and gateway-operations.mjs; they stay in one script so one run measures them side by side.)
// Gateway benchmark, everything side by side in one run (see bench/README.md, "Gateway"): what
// the gateway (upstream mode) costs over calling its upstream directly, against what a bare
// Node proxy (bare-proxy.mjs) costs in the same place.
//   latency     p50/p99 of countTokens, generateContent, the first SSE event and an upload
//               chunk: direct, through the bare proxy, through the gateway, alternating; the
//               ratio of what the gateway adds to what the bare proxy adds is the guard;
//   throughput  requests per second at 1, 10 and 50 concurrent callers through the gateway,
//               the bare proxy and the parsing proxy (parsing-proxy.mjs: body parsed, undici
//               upstream, nothing checked), in front of a stand-in upstream that costs ~nothing;
//   streams     event pass-through delay, then held streams through one gateway (10,000 by
//               default) and its memory per stream;
//   upload      a 1 GiB upload through the gateway, and the gateway's memory growth;
//   stages      in-process stage times of a gateway countTokens (request-stages-probe.cjs),
//               stage by stage, in front of the stand-in upstream and of a local engine;
//   tls-latency p50/p99 of countTokens and of the first SSE event through this build's gateway
//               and `--compare`'s, alternating, both in front of the stand-in's HTTPS port
//               (HTTP/2 offered by ALPN, as the real upstream does);
//   http-latency the same in front of the stand-in's plain-HTTP port (HTTP/1.1 only): what the
//               gateway adds when the upstream costs nearly nothing;
//   profile     a CPU profile (`--cpu-prof`) of the gateway and its in-process stage timings
//               (request-stages-probe.cjs) for each operation, by part of the request path.
// Starts its own servers from the production build (`npm run build` first): a local-engine
// instance (the upstream of latency, upload and profile), a gateway chained to it and the
// bare proxy in front of it; for throughput and streams, the stand-in upstream
// (gateway-stand-in.mjs) with a gateway and a bare proxy in front of it.
// Usage: node bench/gateway.mjs [--samples 400] [--sections latency,throughput,streams,upload]
//   [--streams 10000] [--hold-every-ms 2000] [--seconds 3] [--upload-mib 1024] [--limits on|off]
//   [--stream-upstream h2|h1] [--via-next on|off] [--max-ratio 2] [--compare ../other-checkout]
//   [--app-dir ../other-checkout (whose build is "this build's gateway")]
import { existsSync, readFileSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { request } from "undici";
import {
  client,
  countOnce,
  eventDelays,
  firstEventOnce,
  firstEventThenLeave,
  generateOnce,
  gatewayEnvironment,
  BENCH_LIMITS,
  holdStreams,
  printHeldStreams,
  throughput,
  upload,
  uploadSession,
  UPSTREAM_KEY,
} from "./gateway-operations.mjs";
import {
  benchDir,
  load,
  loopbackCertificate,
  mib,
  ms,
  root,
  rssSampler,
  startBareProxy,
  startChild,
  startParsingProxy,
  startStudio,
  stopStudio,
  summary,
  temporaryFolder,
  treeCpuMicros,
  treeRss,
  readOptions,
} from "./gateway-support.mjs";
import { profileTable, summarizeProfile } from "./cpu-profile-summary.mjs";

const options = readOptions({
  samples: 400,
  sections: "latency,throughput,streams,upload",
  streams: 10_000,
  // How often the stand-in writes an event on a held stream: the CPU the held streams cost
  // (events a second through the gateway and the bench) scales with it, their memory does not.
  "hold-every-ms": 2_000,
  seconds: 3,
  "upload-mib": 1024,
  limits: "on",
  "stream-upstream": "h2",
  "via-next": "on",
  "max-ratio": 0,
  compare: "",
  // Whose build "this build's gateway" is (default: this checkout's): `--app-dir ../other
  // --compare .` swaps two builds' places in the bench's order, as an order control.
  "app-dir": "",
});
const appDir = options["app-dir"] ? path.resolve(options["app-dir"]) : root;
const sections = new Set(options.sections.split(","));
if (!existsSync(path.join(appDir, ".next/BUILD_ID"))) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}

/**
 * The gateway's limits: on, as deployed (every request takes a rate token, every stream a slot),
 * set so high that none is ever refused; off, as earlier runs of this bench had them.
 */
const NO_LIMITS = { STUDIO_RATE_LIMIT_PER_MINUTE: "0", STUDIO_MAX_STREAMS_PER_KEY: "0" };
const LIMITS = options.limits === "on" ? BENCH_LIMITS : NO_LIMITS;
/** The upstream's own limits are off: it stands for the service. */
const UPSTREAM_LIMITS = NO_LIMITS;

/** A gateway in front of `upstreamUrl`, with the limits `--limits` asks for and `extra`. */
function gatewayWith(upstreamUrl, extra = {}) {
  return gatewayEnvironment(upstreamUrl, { limits: LIMITS, extra });
}

function row(label, values) {
  return `| ${label} | ${ms(values.p50)} | ${ms(values.p99)} | ${ms(values.mean)} |`;
}

/**
 * Calls `once` on each server in turn, `samples` rounds after `warmup` rounds, so all see the
 * same machine; prints p50/p99/mean of each and what the bare proxy and the gateway add over
 * the direct call, with the gateway's ratio to the bare proxy. Each round starts one server
 * further on, so every server comes after each of the others equally often (a server's call
 * can gain from the one before it: an upload chunk right after another gateway's on the same
 * engine took 0.4 ms less when the order stayed fixed).
 */
async function sideBySide(label, servers, samples, warmup, once) {
  const times = servers.map(() => []);
  for (let index = 0; index < warmup + samples; index++) {
    for (let turn = 0; turn < servers.length; turn++) {
      const which = (index + turn) % servers.length;
      const value = await once(servers[which], index);
      if (index >= warmup) times[which].push(value);
    }
  }
  const [direct, bare, gateway, ...others] = times.map(summary);
  const added = (through) => ({
    p50: through.p50 - direct.p50,
    p99: through.p99 - direct.p99,
    mean: through.mean - direct.mean,
  });
  const bareAdded = added(bare);
  const gatewayAdded = added(gateway);
  console.log(`\n${label} (${samples} each, alternating; load ${load()})`);
  console.log(`| | p50 | p99 | mean |`);
  console.log(`|---|---|---|---|`);
  console.log(row("direct to the upstream", direct));
  console.log(row("through the bare proxy", bare));
  console.log(row("through the gateway", gateway));
  console.log(row("added by the bare proxy", bareAdded));
  console.log(row("**added by the gateway**", gatewayAdded));
  others.forEach((other, index) =>
    console.log(row(`added by the ${servers[3 + index].label}`, added(other))),
  );
  const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : "n/a");
  console.log(
    `| gateway added / bare proxy added | ${ratio(gatewayAdded.p50, bareAdded.p50)}× | ${ratio(gatewayAdded.p99, bareAdded.p99)}× | ${ratio(gatewayAdded.mean, bareAdded.mean)}× |`,
  );
  return { direct, bare, gateway, bareAdded, gatewayAdded };
}

/** A local-engine upstream, the bare proxy and a gateway in front of it (and another build's). */
async function engineChain({ nodeOptions = "", nodeArgs = [], extra = {} } = {}) {
  const upstream = await startStudio("upstream", {
    STUDIO_API_KEYS: `upstream:${UPSTREAM_KEY}`,
    ...UPSTREAM_LIMITS,
  });
  const bare = await startBareProxy(upstream.baseUrl, UPSTREAM_KEY);
  const gateway = await startStudio("gateway", gatewayWith(upstream.baseUrl, extra), {
    folder: appDir,
    nodeOptions,
    nodeArgs,
  });
  const others = await otherGateways(upstream.baseUrl);
  return { upstream, bare, gateway, others };
}

/**
 * The gateways measured beside this build's: the same build with API requests left to Next's
 * router (STUDIO_API_VIA_NEXT=1, scripts/api-dispatch.cjs), and another checkout's build.
 */
async function otherGateways(upstreamUrl) {
  const others = [];
  if (options["via-next"] === "on") {
    const viaNext = await startStudio(
      "gateway",
      gatewayWith(upstreamUrl, { STUDIO_API_VIA_NEXT: "1" }),
      { folder: appDir },
    );
    others.push(Object.assign(viaNext, { label: "gateway through Next's router" }));
  }
  if (options.compare) {
    const other = await startStudio("gateway", gatewayWith(upstreamUrl), {
      folder: path.resolve(options.compare),
    });
    others.push(Object.assign(other, { label: `gateway of ${options.compare}` }));
  }
  return others;
}

const OPERATIONS = [
  ["Unary countTokens", countOnce, 1],
  ["generateContent (24 tokens)", generateOnce, 4],
  ["Time to the first SSE event (streamGenerateContent)", firstEventOnce, 4],
];

/**
 * The guard: with --max-ratio, a countTokens whose added p50 exceeds that multiple of the bare
 * proxy's fails the run (exit status 1), so a change that makes the hot path dearer shows up
 * before it lands.
 */
function guard({ bareAdded, gatewayAdded }) {
  const limit = options["max-ratio"];
  if (!(limit > 0)) return;
  const ratio = gatewayAdded.p50 / Math.max(bareAdded.p50, 0.01);
  const verdict = ratio <= limit ? "holds" : "FAILS";
  console.log(
    `guard: countTokens added p50 is ${ratio.toFixed(2)}× the bare proxy's (limit ${limit}×): ${verdict}`,
  );
  if (ratio > limit) process.exitCode = 1;
}

async function latencySection() {
  const { upstream, bare, gateway, others } = await engineChain();
  const servers = [upstream, bare, gateway, ...others];
  for (const [label, once, divisor] of OPERATIONS) {
    const samples = Math.max(50, Math.round(options.samples / divisor));
    const result = await sideBySide(label, servers, samples, 30, once);
    if (once === countOnce) guard(result);
  }
  // Upload chunks of 256 KiB, each server in its own session of as many chunks as it sends.
  const chunks = Math.max(50, Math.round(options.samples / 4));
  const sessions = new Map();
  for (const server of servers)
    sessions.set(server, await uploadSession(server, 256 * 1024, chunks + 10));
  await sideBySide("An upload chunk of 256 KiB", servers, chunks, 10, (server) =>
    sessions.get(server)(),
  );
  for (const server of [gateway, upstream, ...others]) await stopStudio(server);
  bare.child.kill();
}

/**
 * This build's gateway and `--compare`'s, alternating, in front of the stand-in: over TLS
 * (`certificate` given: HTTP/2 offered by ALPN) or over plain HTTP.
 */
async function compareLatencySection(standIn, certificate) {
  const section = certificate ? "tls-latency" : "http-latency";
  if (!options.compare) throw new Error(`--sections ${section} needs --compare`);
  const upstreamUrl = certificate
    ? `https://127.0.0.1:${standIn.tlsPort}`
    : `http://127.0.0.1:${standIn.port}`;
  const environment = gatewayWith(
    upstreamUrl,
    certificate ? { NODE_EXTRA_CA_CERTS: certificate.cert } : {},
  );
  const servers = [
    await startStudio("gateway", environment, { folder: appDir }),
    await startStudio("gateway", environment, { folder: path.resolve(options.compare) }),
  ];
  const port = certificate ? "HTTPS port (HTTP/2 offered by ALPN)" : "plain-HTTP port (HTTP/1.1)";
  console.log(
    `\nThrough the gateway to the stand-in's ${port}: this build and ${options.compare}, ${options.samples} each after 30, alternating (load ${load()})`,
  );
  console.log(`| | this build p50 | p99 | ${options.compare} p50 | p99 |`);
  console.log(`|---|---|---|---|---|`);
  for (const [label, once] of [
    ["Unary countTokens", countOnce],
    ["Time to the first SSE event", firstEventThenLeave],
  ]) {
    const times = [[], []];
    for (let index = 0; index < 30 + options.samples; index++) {
      for (let turn = 0; turn < 2; turn++) {
        const which = (index + turn) % 2;
        const value = await once(servers[which], index);
        if (index >= 30) times[which].push(value);
      }
    }
    const [own, other] = times.map(summary);
    console.log(
      `| ${label} | ${ms(own.p50)} | ${ms(own.p99)} | ${ms(other.p50)} | ${ms(other.p99)} |`,
    );
  }
  for (const server of servers) await stopStudio(server);
}

async function throughputSection(standIn) {
  const upstreamUrl = `http://127.0.0.1:${standIn.port}`;
  const bare = await startBareProxy(upstreamUrl, UPSTREAM_KEY);
  const parsing = await startParsingProxy(upstreamUrl, UPSTREAM_KEY);
  const gateway = await startStudio("gateway", gatewayWith(upstreamUrl), {
    folder: appDir,
  });
  const others = await otherGateways(upstreamUrl);
  const servers = [bare, gateway, parsing, ...others];
  for (const server of servers) for (let index = 0; index < 200; index++) await countOnce(server);
  console.log(
    `\nThroughput: countTokens requests per second against the stand-in upstream, ${options.seconds} s per run, three runs each, alternating (load ${load()})`,
  );
  const otherColumns = others.map((other) => ` ${other.label} |`).join("");
  console.log(
    `| concurrent callers | bare proxy | gateway | gateway / bare proxy | parsing proxy |${otherColumns}`,
  );
  console.log(`|---|---|---|---|---|${others.map(() => "---|").join("")}`);
  const median = (values) => [...values].sort((x, y) => x - y)[1];
  const cpuRows = [];
  for (const concurrency of [1, 10, 50]) {
    const rates = servers.map(() => []);
    const cpu = servers.map(() => []);
    for (let round = 0; round < 3; round++) {
      for (const [index, server] of servers.entries()) {
        const before = treeCpuMicros(server.pid);
        const started = performance.now();
        const rate = await throughput(server, concurrency, options.seconds, countOnce);
        const requests = (rate * (performance.now() - started)) / 1000;
        rates[index].push(rate);
        cpu[index].push((treeCpuMicros(server.pid) - before) / requests);
      }
    }
    const [b, g, p, ...o] = rates.map(median);
    const percent = (rate) => `${((rate / b) * 100).toFixed(0)}%`;
    console.log(
      `| ${concurrency} | ${b.toFixed(0)}/s | ${g.toFixed(0)}/s | ${percent(g)} | ${p.toFixed(0)}/s (${percent(p)}) |${o.map((rate) => ` ${rate.toFixed(0)}/s (${percent(rate)}) |`).join("")}`,
    );
    cpuRows.push([concurrency, cpu.map(median)]);
  }
  // The CPU each server's processes used per request in the same runs: what a request costs
  // it whatever share of the machine it got (requests a second fall when other work runs).
  console.log(
    `\nCPU per countTokens (µs, user and system, the server's process tree; median of the same three runs)`,
  );
  console.log(`| concurrent callers | bare proxy | gateway | parsing proxy |${otherColumns}`);
  console.log(`|---|---|---|---|${others.map(() => "---|").join("")}`);
  for (const [concurrency, values] of cpuRows)
    console.log(`| ${concurrency} | ${values.map((value) => value.toFixed(0)).join(" | ")} |`);
  for (const server of [gateway, ...others]) await stopStudio(server);
  bare.child.kill();
  parsing.child.kill();
}

async function streamsSection(standIn, certificate) {
  const h2 = options["stream-upstream"] === "h2";
  const upstreamUrl = h2
    ? `https://127.0.0.1:${standIn.tlsPort}`
    : `http://127.0.0.1:${standIn.port}`;
  const gateway = await startStudio(
    "gateway",
    gatewayWith(upstreamUrl, h2 ? { NODE_EXTRA_CA_CERTS: certificate.cert } : {}),
  );
  await eventDelays(gateway);
  const delays = summary(await eventDelays(gateway));
  console.log(
    `\nEvent pass-through: 100 events the upstream writes 50 ms apart, from its write to the client's read through the gateway: p50 ${ms(delays.p50)}, p99 ${ms(delays.p99)} (load ${load()})`,
  );
  console.log(
    `\nHeld streams through one gateway (upstream over ${h2 ? "HTTPS, whose port offers HTTP/2 by ALPN" : "HTTP/1.1"}; one event every ${options["hold-every-ms"] / 1000} s each; load ${load()})`,
  );
  const total = options.streams;
  printHeldStreams(
    await holdStreams(gateway, total, [Math.round(total / 4), total], options["hold-every-ms"]),
  );
  await stopStudio(gateway);
}

async function uploadSection() {
  const { upstream, gateway } = await engineChain();
  const totalBytes = options["upload-mib"] * 1048576;
  const direct = await upload(upstream, totalBytes);
  // Warm-up: the first upload loads the route's code and opens the database once.
  await upload(gateway, 8 * 1048576);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idle = treeRss(gateway.pid);
  const sampler = rssSampler(gateway.pid);
  const through = await upload(gateway, totalBytes);
  sampler.stop();
  const peak = Math.max(...sampler.samples);
  console.log(
    `\n${mib(totalBytes)} upload in one \`upload, finalize\` request (streamed, Content-Length set; load ${load()})`,
  );
  console.log(`| | time | throughput |`);
  console.log(`|---|---|---|`);
  console.log(
    `| direct to the upstream | ${direct.seconds.toFixed(1)} s | ${direct.throughput.toFixed(0)} MiB/s |`,
  );
  console.log(
    `| through the gateway | ${through.seconds.toFixed(1)} s | ${through.throughput.toFixed(0)} MiB/s |`,
  );
  console.log(
    `gateway RSS: before ${mib(idle)}, peak ${mib(peak)}, growth ${mib(peak - idle)} (goal < 64 MiB; ${sampler.samples.length} samples every 50 ms)`,
  );
  await stopStudio(gateway);
  await stopStudio(upstream);
}

const microseconds = () => Number(process.hrtime.bigint() / 1000n);

/**
 * The stage lines request-stages-probe.cjs wrote within a run: each stage's median time from
 * the request's start, in the order the stages came, with the median of its own step (from the
 * stage before it, request by request).
 */
function stageMedians(lines) {
  const at = new Map();
  const steps = new Map();
  for (const line of lines) {
    let previous = 0;
    for (const field of line.split(" ").slice(2)) {
      const [stage, value] = field.split("=");
      const time = Number(value);
      if (!at.has(stage)) {
        at.set(stage, []);
        steps.set(stage, []);
      }
      at.get(stage).push(time);
      steps.get(stage).push(time - previous);
      previous = time;
    }
  }
  return [...at]
    .map(
      ([stage, times]) =>
        `${stage.replaceAll("_", " ")} ${summary(times).p50.toFixed(3)} ms (+${summary(steps.get(stage)).p50.toFixed(3)})`,
    )
    .join(", ");
}

/**
 * In-process stage times of the gateway's countTokens, sequential requests, in front of the
 * stand-in upstream (which costs nothing) and of a local-engine instance (called directly
 * too): where a request's own time goes, stage by stage, and how long the upstream takes to
 * answer the gateway against a direct call. With `--compare`, the other build's gateway runs
 * alternately beside this one's (a build without the app's named stages still shows Node's:
 * upstream opened, its headers, its last byte, the answer finished).
 */
async function stagesSection(standIn) {
  const folder = temporaryFolder("stages");
  const probe = path.join(benchDir, "request-stages-probe.cjs");
  const engine = await startStudio("upstream", {
    STUDIO_API_KEYS: `upstream:${UPSTREAM_KEY}`,
    ...UPSTREAM_LIMITS,
  });
  const upstreams = [
    ["the stand-in upstream", { baseUrl: `http://127.0.0.1:${standIn.port}` }],
    ["a local-engine upstream", engine],
  ];
  const builds = [
    ["this build", appDir],
    ...(options.compare ? [[options.compare, path.resolve(options.compare)]] : []),
  ];
  for (const [upstreamIndex, [label, upstream]] of upstreams.entries()) {
    const gateways = [];
    for (const [buildIndex, [build, folderOfBuild]] of builds.entries()) {
      const file = path.join(folder, `stages-${upstreamIndex}-${buildIndex}.txt`);
      const gateway = await startStudio(
        "gateway",
        gatewayWith(upstream.baseUrl, { GENSTUDIO_STAGES_PROBE: file }),
        { folder: folderOfBuild, nodeOptions: `--require ${probe}` },
      );
      gateways.push({ build, gateway, file, times: [], before: 0 });
    }
    const direct = upstream === engine;
    const directTimes = [];
    for (let index = 0; index < 300 + options.samples; index++) {
      if (index === 300) for (const entry of gateways) entry.before = readStages(entry.file).length;
      for (const entry of gateways) {
        const time = await countOnce(entry.gateway);
        if (index >= 300) entry.times.push(time);
      }
      if (direct) {
        const time = await countOnce(engine);
        if (index >= 300) directTimes.push(time);
      }
    }
    for (const entry of gateways) {
      const lines = readStages(entry.file).slice(entry.before);
      const directNote = direct
        ? `, direct to the upstream p50 ${ms(summary(directTimes).p50)}`
        : "";
      console.log(
        `\nIn-process stages of a gateway countTokens (${entry.build}) in front of ${label} (${options.samples} sequential requests, alternating, round trip p50 ${ms(summary(entry.times).p50)}${directNote}, load ${load()}); median ms from the request's start (+ median step from the stage before):`,
      );
      for (const stage of stageMedians(lines).split(", ")) console.log(`  ${stage}`);
      await stopStudio(entry.gateway);
    }
  }
  await stopStudio(engine);
}

async function profileSection(standIn) {
  const folder = temporaryFolder("profile");
  const stagesFile = path.join(folder, "stages.txt");
  const probe = path.join(benchDir, "request-stages-probe.cjs");
  const { upstream, bare, gateway } = await engineChain({
    nodeOptions: `--require ${probe}`,
    nodeArgs: ["--cpu-prof", "--cpu-prof-interval", "100", "--cpu-prof-dir", folder],
    extra: { GENSTUDIO_STAGES_PROBE: stagesFile },
  });
  const windows = [];
  const samples = Math.max(50, Math.round(options.samples / 2));
  const chunkSession = await uploadSession(gateway, 256 * 1024, samples + 20);
  const runs = [
    ["countTokens", countOnce],
    ["generateContent", generateOnce],
    ["first SSE event", firstEventOnce],
    ["upload chunk (256 KiB)", () => chunkSession()],
  ];
  // The floor: a trivial route through `next start` against a trivial answer of bare Node.
  const floor = { next: [], node: [] };
  const standInUrl = `http://127.0.0.1:${standIn.port}`;
  for (let index = 0; index < samples + 30; index++) {
    const started = performance.now();
    await plainGet(`${gateway.baseUrl}/api/session`);
    const middle = performance.now();
    await plainGet(`${standInUrl}/nothing`);
    if (index >= 30) {
      floor.next.push(middle - started);
      floor.node.push(performance.now() - middle);
    }
  }
  for (const [label, once] of runs) {
    for (let index = 0; index < 20; index++) await once(gateway, index);
    const before = readStages(stagesFile).length;
    const from = microseconds();
    const times = [];
    for (let index = 0; index < samples; index++) times.push(await once(gateway, index));
    windows.push({ label, window: [from, microseconds()], times, before });
  }
  const lines = readStages(stagesFile);
  await stopStudio(gateway);
  const whole = [windows[0].window[0], windows.at(-1).window[1]];
  const profileFile = readdirSync(folder)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => path.join(folder, name))
    .map((file) => JSON.parse(readFileSync(file, "utf8")))
    // The start script and the workers write profiles too, idle nearly throughout: the
    // server's is the one busiest while the requests ran.
    .map((profile) => ({ profile, busy: summarizeProfile(profile, whole).busy }))
    .sort((a, b) => b.busy - a.busy)[0];
  const [next, node] = [summary(floor.next), summary(floor.node)];
  console.log(
    `\nThe floor (load ${load()}): GET /api/session through \`next start\` p50 ${ms(next.p50)} (p99 ${ms(next.p99)}); a GET a bare Node server answers (the stand-in's 404) p50 ${ms(node.p50)} (p99 ${ms(node.p99)})`,
  );
  for (const [index, { label, window, times, before }] of windows.entries()) {
    const after = windows[index + 1]?.before ?? lines.length;
    console.log(
      `\nGateway CPU profile: ${label} (${samples} requests, p50 ${ms(summary(times).p50)}; in-process stages, median from the request's start: ${stageMedians(lines.slice(before, after))})`,
    );
    console.log(profileTable(profileFile.profile, samples, window));
  }
  await stopStudio(upstream);
  bare.child.kill();
}

async function plainGet(url) {
  const response = await request(url, { dispatcher: client });
  await response.body.text();
}

function readStages(file) {
  try {
    return readFileSync(file, "utf8").trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

async function main() {
  console.log(
    `gateway bench: ${os.cpus().length} cores, ${mib(os.totalmem())} RAM, Node ${process.version}, ${new Date().toISOString()}, load ${load()}, limits ${options.limits}`,
  );
  if (sections.has("latency")) await latencySection();
  const certificate = loopbackCertificate();
  const standIn = await startChild("stand-in upstream", "gateway-stand-in.mjs", [
    certificate.key,
    certificate.cert,
    String(options["hold-every-ms"]),
  ]);
  if (sections.has("stages")) await stagesSection(standIn);
  if (sections.has("profile")) await profileSection(standIn);
  if (sections.has("tls-latency")) await compareLatencySection(standIn, certificate);
  if (sections.has("http-latency")) await compareLatencySection(standIn);
  if (sections.has("throughput")) await throughputSection(standIn);
  if (sections.has("streams")) await streamsSection(standIn, certificate);
  if (sections.has("upload")) await uploadSection();
  console.log(`\nload at the end: ${load()}`);
  await client.close();
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
