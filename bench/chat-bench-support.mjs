/**
 * What the browser benches of the chat page share (chat-render.mjs, compare.mjs): the built
 * studio started on a free port with a fresh DATA_DIR, Debian's chromium, and main-thread task
 * CPU times read from a Chrome trace.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Starts the built studio of `appDir` (default: this checkout) with `env` added to its
 * environment (e.g. STUDIO_LOCAL_OUTPUT_TOKENS_PER_SECOND); `ready` is when it first answered.
 * `port` and `dataDir` start it where an earlier instance ran (a restart: the browser's cache
 * and the person's session still apply); a `dataDir` given is the caller's and stays on stop.
 * `stop()` resolves once the process has exited.
 */
export async function startServer({ env = {}, appDir = process.cwd(), port, dataDir } = {}) {
  const listenPort = port ?? (await freePort());
  const ownData = dataDir === undefined;
  const data = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-"));
  const {
    GEMINI_API_KEY: _key,
    GOOGLE_API_KEY: _google,
    STUDIO_API_KEYS: _keys,
    STUDIO_ACCESS_CODE: _code,
    ...environment
  } = process.env;
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: appDir,
    env: {
      ...environment,
      PORT: String(listenPort),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: data,
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const baseUrl = `http://127.0.0.1:${listenPort}`;
  await waitFor(`${baseUrl}/api/session`, 60_000);
  return {
    baseUrl,
    port: listenPort,
    ready: Date.now(),
    async stop() {
      child.kill("SIGTERM");
      await exited;
      if (ownData) fs.rmSync(data, { recursive: true, force: true });
    },
  };
}

/**
 * Main-thread tasks of the page's renderer from a Chrome trace, in thread CPU time, between
 * the page's own marks (first answer text → end), the same window as the long-task figure.
 */
export function mainThreadTaskCpu(tracePath, markPrefix = "chat-render") {
  const events = JSON.parse(fs.readFileSync(tracePath, "utf8")).traceEvents;
  const mark = (name) => events.find((event) => event.name === name)?.ts;
  const from = mark(`${markPrefix}:first-text`);
  const to = mark(`${markPrefix}:end`);
  const threadNames = new Map(
    events
      .filter((event) => event.name === "thread_name")
      .map((event) => [`${event.pid}:${event.tid}`, event.args.name]),
  );
  const markEvent = events.find((event) => event.name === `${markPrefix}:first-text`);
  const tasks = events.filter(
    (event) =>
      event.name === "RunTask" &&
      event.ph === "X" &&
      event.pid === markEvent?.pid &&
      threadNames.get(`${event.pid}:${event.tid}`) === "CrRendererMain" &&
      event.ts >= from &&
      event.ts <= to,
  );
  const inWindow = tasks
    .map((event) => (event.tdur ?? event.dur) / 1000)
    .sort((left, right) => left - right);
  return {
    longest: inWindow[inWindow.length - 1] ?? 0,
    p99: inWindow[Math.floor(inWindow.length * 0.99)] ?? 0,
    over50: inWindow.filter((duration) => duration > 50).length,
    tasks: inWindow.length,
    total: inWindow.reduce((sum, duration) => sum + duration, 0),
    /** Tasks over 50 ms CPU: when (ms after the first text) and how long. */
    overList: tasks
      .filter((event) => (event.tdur ?? event.dur) > 50_000)
      .map((event) => ({
        at: Math.round((event.ts - from) / 1000),
        cpu: Math.round((event.tdur ?? event.dur) / 1000),
      })),
  };
}

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * An init script (context.addInitScript) recording in every page its long tasks
 * (`window.__longTasks`) and when the composer became live (`window.__typable`, ms): React marks
 * an element it has hydrated with its props, and from then on the box takes input.
 */
export function recordLongTasksAndTypable() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  window.__typable = null;
  const look = () => {
    const box = document.getElementById("chat-prompt");
    if (box && Object.keys(box).some((key) => key.startsWith("__reactProps"))) {
      window.__typable = performance.now();
      return;
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}
