// What bench/gateway.mjs starts and measures with: studio servers from a production build,
// the bare proxy and the stand-in upstream as child processes, resident memory of a process
// tree, percentiles, the machine's load.
import { execFileSync, fork, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(benchDir, "..");

const children = [];
const temporary = [];

function cleanup() {
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
}
process.on("exit", cleanup);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(1));

/**
 * A bench's `--name value` options over its `defaults`: a value whose default is a number is
 * read as one; an option the defaults do not name is refused by name.
 */
export function readOptions(defaults, argv = process.argv.slice(2)) {
  const options = { ...defaults };
  for (let index = 0; index < argv.length; index += 2) {
    const name = argv[index].replace(/^--/, "");
    if (!(name in options)) throw new Error(`unknown option --${name}`);
    const value = argv[index + 1];
    options[name] = typeof options[name] === "number" ? Number(value) : value;
  }
  return options;
}

export function temporaryFolder(name) {
  const folder = mkdtempSync(path.join(os.tmpdir(), `genstudio-bench-${name}-`));
  temporary.push(folder);
  return folder;
}

export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The environment of a child: this one's, without any key or studio setting of the caller's. */
function cleanEnvironment() {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(GEMINI_|GOOGLE_API_KEY|STUDIO_|NODE_OPTIONS$)/.test(key),
    ),
  );
}

async function waitForAnswer(url, name) {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      const response = await request(url);
      await response.body.dump();
      if (response.statusCode < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not start`);
}

/**
 * A studio server from the production build in `folder` (scripts/start.mjs), on a free loopback
 * port with a fresh DATA_DIR. `nodeOptions` go to the server's own process (NODE_OPTIONS),
 * `nodeArgs` to the start script, which hands them on to the server.
 */
export async function startStudio(
  name,
  environment,
  { folder = root, nodeOptions = "", nodeArgs = [] } = {},
) {
  const port = await freePort();
  const dataDir = temporaryFolder(name);
  const child = spawn(process.execPath, [...nodeArgs, "scripts/start.mjs"], {
    cwd: folder,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...cleanEnvironment(),
      NEXT_TELEMETRY_DISABLED: "1",
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      ...environment,
    },
  });
  children.push(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForAnswer(`${baseUrl}/api/session`, name);
  return { name, baseUrl, pid: child.pid, child };
}

/** Stops a studio server with SIGINT (so a CPU profile is written) and waits for it to exit. */
export async function stopStudio(server) {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  try {
    process.kill(-server.pid, "SIGINT");
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
}

/**
 * A Node module of this folder in a child process that says `{ listening: port }` when up;
 * `nodeArgs` go to its Node (a profiler's flags, which NODE_OPTIONS does not take).
 */
export async function startChild(name, script, args = [], environment = {}, nodeArgs = []) {
  const child = fork(path.join(benchDir, script), args, {
    execArgv: [...process.execArgv, ...nodeArgs],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: { ...cleanEnvironment(), ...environment },
    detached: true,
  });
  children.push(child);
  const said = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return { ...said, name, pid: child.pid, port: said.listening, child };
}

/** The bare proxy (bare-proxy.mjs) in front of `upstreamUrl`, with the upstream's key. */
export async function startBareProxy(upstreamUrl, upstreamKey, environment = {}, nodeArgs = []) {
  return startProxy("bare", "bare-proxy.mjs", upstreamUrl, upstreamKey, environment, nodeArgs);
}

/** The parsing proxy (parsing-proxy.mjs): the least a gateway that reads its JSON costs. */
export async function startParsingProxy(upstreamUrl, upstreamKey, nodeArgs = []) {
  return startProxy("parsing", "parsing-proxy.mjs", upstreamUrl, upstreamKey, {}, nodeArgs);
}

async function startProxy(name, script, upstreamUrl, upstreamKey, environment = {}, nodeArgs = []) {
  const port = await freePort();
  const proxy = await startChild(
    `${name} proxy`,
    script,
    [String(port), upstreamUrl, upstreamKey],
    environment,
    nodeArgs,
  );
  return { ...proxy, name, baseUrl: `http://127.0.0.1:${port}` };
}

/**
 * A self-signed certificate for 127.0.0.1 (openssl), and the file a gateway trusts it from
 * (NODE_EXTRA_CA_CERTS), for the stand-in upstream's HTTPS port.
 */
export function loopbackCertificate() {
  const folder = temporaryFolder("tls");
  const key = path.join(folder, "key.pem");
  const cert = path.join(folder, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  return { key, cert };
}

/**
 * Calls `visit` with a process and each of its descendants (Linux /proc); one that exits
 * meanwhile is passed over with what is below it.
 */
function eachProcessOfTree(pid, visit) {
  const walk = (id) => {
    try {
      visit(id);
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const list = readFileSync(`/proc/${id}/task/${task}/children`, "utf8").trim();
        for (const child of list ? list.split(/\s+/) : []) walk(Number(child));
      }
    } catch {
      // exited meanwhile
    }
  };
  walk(pid);
}

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
export function treeRss(pid) {
  let total = 0;
  eachProcessOfTree(pid, (id) => {
    const status = readFileSync(`/proc/${id}/status`, "utf8");
    total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  });
  return total;
}

/**
 * Read and write system calls made so far by a process and all its descendants (Linux
 * /proc/<pid>/io: `syscr` counts read, readv, recvmsg...; `syscw` write, writev, sendmsg...).
 */
export function treeSystemCalls(pid) {
  const total = { reads: 0, writes: 0 };
  eachProcessOfTree(pid, (id) => {
    const io = readFileSync(`/proc/${id}/io`, "utf8");
    total.reads += Number(/syscr:\s+(\d+)/.exec(io)?.[1] ?? 0);
    total.writes += Number(/syscw:\s+(\d+)/.exec(io)?.[1] ?? 0);
  });
  return total;
}

/**
 * The serving process of a server started at `pid`: the deepest of its first children (for a
 * studio, the start script and `next start` are its parents; a proxy is its own).
 */
function servingPid(pid) {
  let serving = pid;
  for (;;) {
    let children = [];
    try {
      children = readFileSync(`/proc/${serving}/task/${serving}/children`, "utf8")
        .trim()
        .split(/\s+/);
    } catch {
      break;
    }
    if (!children[0]) break;
    serving = Number(children[0]);
  }
  return serving;
}

/**
 * How often the main thread of the serving process (`servingPid`) gave up the CPU waiting
 * (voluntary) or was taken off it (involuntary: another task ran), from /proc/<pid>/status.
 */
export function contextSwitches(pid) {
  const serving = servingPid(pid);
  try {
    const status = readFileSync(`/proc/${serving}/status`, "utf8");
    return {
      voluntary: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
      involuntary: Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
    };
  } catch {
    return { voluntary: 0, involuntary: 0 };
  }
}

/** Clock ticks a second, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS =
  Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/**
 * CPU time used so far by a process and all its descendants, in microseconds (user and
 * system, every thread; Linux /proc/<pid>/stat). What a request costs a server whatever share
 * of the machine it got: unlike requests a second, it does not fall when other work runs.
 */
export function treeCpuMicros(pid) {
  let ticks = 0;
  const visit = (id) => {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const list = readFileSync(`/proc/${id}/task/${task}/children`, "utf8").trim();
        for (const child of list ? list.split(/\s+/) : []) visit(Number(child));
      }
    } catch {
      // exited meanwhile
    }
  };
  visit(pid);
  return (ticks / CLOCK_TICKS) * 1e6;
}

/**
 * CPU time used so far by each thread of the serving process (`servingPid`), in microseconds,
 * summed by thread name (`/proc/<pid>/task/<tid>/stat`): the main thread apart from V8's
 * helpers, libuv's pool and worker threads.
 */
export function threadCpuMicros(pid) {
  const serving = servingPid(pid);
  const byName = new Map();
  try {
    for (const task of readdirSync(`/proc/${serving}/task`)) {
      const stat = readFileSync(`/proc/${serving}/task/${task}/stat`, "utf8");
      const name =
        Number(task) === serving
          ? "(main thread)"
          : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const micros = ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1e6;
      byName.set(name, (byName.get(name) ?? 0) + micros);
    }
  } catch {
    // exited meanwhile
  }
  return byName;
}

export function rssSampler(pid) {
  const samples = [treeRss(pid)];
  const timer = setInterval(() => samples.push(treeRss(pid)), 50);
  return { samples, stop: () => clearInterval(timer) };
}

export const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
export const ms = (value) => `${value.toFixed(2)} ms`;
export const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function summary(values) {
  return {
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    mean: values.reduce((a, b) => a + b, 0) / values.length,
  };
}
