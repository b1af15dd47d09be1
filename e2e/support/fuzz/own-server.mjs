/**
 * Starts the production build (`node scripts/start.mjs`) as a server of its own, on a free
 * port and a data directory chosen by the caller, for the hardening suites, the fuzzer and
 * the benches: they need servers they may flood, kill -9, starve of disk and restart, which
 * the shared Playwright webServers must never be. Plain ESM so scripts and specs share it.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const SECRET_VARIABLES = [
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "STUDIO_API_KEYS",
  "STUDIO_ACCESS_CODE",
  "GEMINI_BASE_URL",
];
const LOG_LIMIT = 4 * 1024 * 1024;

/** The process ids whose parent is `pid` (Linux /proc). */
function childrenOf(pid) {
  const children = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces; the parent id follows it.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

/** True while `pid` runs (a zombie waiting to be reaped counts as ended). */
export function isRunning(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Resident set size of a process in bytes (0 once it is gone). */
export function residentBytes(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Starts a server and waits until `/api/session` answers.
 * @param {{dataDir: string, port?: number, env?: Record<string, string>, cwd?: string, readyTimeoutMs?: number}} options
 */
export async function startOwnServer(options) {
  const port = options.port ?? (await freePort());
  const environment = { ...process.env };
  for (const name of SECRET_VARIABLES) delete environment[name];
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: options.cwd ?? process.cwd(),
    env: {
      ...environment,
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: options.dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      ...options.env,
    },
    // Its own process group, so the launcher and the Next process can be killed together.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const append = (chunk) => {
    log += chunk.toString();
    if (log.length > LOG_LIMIT) log = log.slice(-LOG_LIMIT / 2);
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = {
    baseUrl,
    port,
    dataDir: options.dataDir,
    child,
    exited,
    /** Everything the server printed so far (the last few MB). */
    log: () => log,
    /** The Next process (the launcher's child) that actually serves, or the launcher. */
    serverPid: () => childrenOf(child.pid)[0] ?? child.pid,
    /** True while the launcher still runs. */
    alive: () => child.exitCode === null && child.signalCode === null,
    /** Sends `signal` to the whole group and waits for the launcher to end. */
    async stop(signal = "SIGTERM") {
      const serving = childrenOf(child.pid);
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
      await exited;
      // Wait for the Next process too, so the port and the database are free.
      for (let attempt = 0; attempt < 100 && serving.some(isRunning); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (!server.alive()) throw new Error(`the server exited before it was ready:\n${log}`);
    try {
      if ((await fetch(`${baseUrl}/api/session`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop("SIGKILL");
  throw new Error(`the server did not become ready:\n${log}`);
}
