#!/usr/bin/env node
/**
 * Where the time of a page's first answer goes, against warm ones, in Debian's chromium against
 * the production build (local engine, fresh DATA_DIR, free port):
 *
 *   npm run build && node bench/first-answer-page.mjs [--runs 5] [--app-dir ../other] [--returning] [--trace /tmp/answer]
 *
 * The server is started, /chat opened, and a prompt sent from the new chat as soon as the
 * composer takes input (the first answer after the start); then `--runs` more new chats, each
 * from /chat opened again (warm: the same path, a new conversation each time). For each, from
 * Enter (keydown, in the page's clock):
 * - turn: the turn's POST sent, its response headers, its first body bytes (the server's first
 *   event), from the browser's network events (DevTools protocol);
 * - route: the conversation page's request (the RSC payload `router.replace` fetches) sent and
 *   finished, and the moment the address changed;
 * - page: the answer's article in the DOM, its first text, and the main thread's long tasks
 *   (over 50 ms) between Enter and the first text.
 * `--returning` times the first answer after a restart for a person who used the studio before:
 * the browser opens /chat twice on an earlier instance (same port, same DATA_DIR), which is then
 * stopped and a new one started in its place, so the browser's cache, its compiled scripts and
 * the session carry over and only the server is new; without it the browser is new too.
 * `--trace <prefix>` keeps Chrome traces of the first answer and of the last warm one
 * (`<prefix>-first.json`, `<prefix>-warm.json`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchChromium, recordLongTasksAndTypable, startServer } from "./chat-bench-support.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const runs = Number(option("runs", "5"));
const appDir = option("app-dir");
const tracePrefix = option("trace");
const returning = process.argv.includes("--returning");

/** Marks recorded inside the page besides long tasks and hydration: fetch calls, address changes. */
function instrument() {
  window.__fetches = [];
  const originalFetch = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === "string" ? input : (input.url ?? String(input));
    window.__fetches.push({ url, at: performance.now() });
    return originalFetch.call(this, input, init);
  };
  window.__addresses = [];
  for (const name of ["pushState", "replaceState"]) {
    const original = history[name];
    history[name] = function (...args) {
      const before = location.pathname;
      const result = original.apply(this, args);
      if (location.pathname !== before)
        window.__addresses.push({ path: location.pathname, at: performance.now() });
      return result;
    };
  }
}

/** Network events of the page, in the DevTools protocol's clock (seconds). */
function recordNetwork(session) {
  const requests = new Map();
  session.on("Network.requestWillBeSent", ({ requestId, request, timestamp }) => {
    requests.set(requestId, { url: request.url, method: request.method, sent: timestamp });
  });
  session.on("Network.responseReceived", ({ requestId, timestamp }) => {
    const request = requests.get(requestId);
    if (request) request.headers = timestamp;
  });
  session.on("Network.dataReceived", ({ requestId, timestamp }) => {
    const request = requests.get(requestId);
    if (request && request.firstData === undefined) request.firstData = timestamp;
  });
  session.on("Network.loadingFinished", ({ requestId, timestamp }) => {
    const request = requests.get(requestId);
    if (request) request.finished = timestamp;
  });
  return requests;
}

/** Sends a prompt from a new chat; resolves to the page's marks, in ms since Enter. */
async function timeAnswer(page, requests, text, tracePath) {
  await page.evaluate(() => {
    window.__fetches.length = 0;
    window.__addresses.length = 0;
  });
  const box = page.getByRole("textbox", { name: "Message", exact: true });
  await box.fill(text);
  const marks = page.evaluate(
    () =>
      new Promise((resolve) => {
        const marks = {};
        const watch = () => {
          const answer = document.querySelector('article[aria-label="Answer"]');
          if (answer && marks.article === undefined) marks.article = performance.now();
          const shown = answer?.querySelector("[data-answer-text]")?.textContent ?? "";
          if (shown.length > 0) {
            marks.firstText = performance.now();
            resolve(marks);
          } else requestAnimationFrame(watch);
        };
        document.getElementById("chat-prompt").addEventListener(
          "keydown",
          () => {
            marks.enter = performance.now();
            requestAnimationFrame(watch);
          },
          { once: true },
        );
      }),
  );
  requests.clear();
  if (tracePath) await browser.startTracing(page, { path: tracePath, screenshots: false });
  await box.press("Enter");
  const page_ = await marks;
  if (tracePath) await browser.stopTracing();
  await page.waitForFunction(
    () => document.querySelector('article[aria-label="Answer"][aria-busy="true"]') === null,
  );
  const { fetches, addresses, longTasks } = await page.evaluate(() => ({
    fetches: window.__fetches.slice(),
    addresses: window.__addresses.slice(),
    longTasks: window.__longTasks.slice(),
  }));
  // The turn's POST, seen both in the page (when fetch was called) and on the network: the
  // difference between the two clocks.
  const turnCall = fetches.find((call) => /\/turns$/.test(call.url));
  const network = [...requests.values()];
  const turn = network.find((request) => request.method === "POST" && /\/turns$/.test(request.url));
  const route = network.find(
    (request) => request.method === "GET" && /\/chat\/[^/?]+(\?|$)/.test(request.url),
  );
  const offset = turnCall.at - turn.sent * 1000;
  const since = (timestamp) =>
    timestamp === undefined ? null : Math.round(timestamp * 1000 + offset - page_.enter);
  const relative = (value) => (value === undefined ? null : Math.round(value - page_.enter));
  return {
    turnCalled: relative(turnCall.at),
    turnHeaders: since(turn.headers),
    turnFirstData: since(turn.firstData),
    routeSent: route ? since(route.sent) : null,
    routeHeaders: route ? since(route.headers) : null,
    routeFinished: route ? since(route.finished) : null,
    addressChanged: relative(addresses.find((entry) => entry.path.startsWith("/chat/"))?.at),
    article: relative(page_.article),
    firstText: relative(page_.firstText),
    longTasks: longTasks
      .filter((task) => task.start >= page_.enter && task.start <= page_.firstText)
      .map((task) => `${Math.round(task.start - page_.enter)}+${Math.round(task.duration)}`),
  };
}

const columns = [
  ["turnCalled", "turn fetch called"],
  ["turnHeaders", "turn headers"],
  ["turnFirstData", "turn first bytes"],
  ["routeSent", "route request sent"],
  ["routeHeaders", "route headers"],
  ["routeFinished", "route finished"],
  ["addressChanged", "address changed"],
  ["article", "answer in DOM"],
  ["firstText", "first text"],
];

const dataDir = returning
  ? fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-bench-returning-"))
  : undefined;
const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
await context.addInitScript(recordLongTasksAndTypable);
await context.addInitScript(instrument);
const page = await context.newPage();
const opened = async (baseUrl) => {
  await page.goto(`${baseUrl}/chat`);
  await page.waitForFunction(() => window.__typable !== null, null, { timeout: 60_000 });
};
let port;
if (returning) {
  // The person's earlier visits, on an instance that is then stopped.
  const earlier = await startServer({ appDir, dataDir });
  for (let visit = 0; visit < 2; visit++) {
    await opened(earlier.baseUrl);
    await page.waitForTimeout(1500);
  }
  await page.goto("about:blank");
  await earlier.stop();
  port = earlier.port;
}
const server = await startServer({ appDir, dataDir, port });
try {
  const session = await context.newCDPSession(page);
  await session.send("Network.enable");
  const requests = recordNetwork(session);
  const open = () => opened(server.baseUrl);
  await open();
  const sentAfterStart = Date.now() - server.ready;
  const trace = (name) => (tracePrefix ? `${tracePrefix}-${name}.json` : undefined);
  const results = [
    await timeAnswer(page, requests, "Hello! What can you tell me about harbours?", trace("first")),
  ];
  for (let run = 0; run < runs; run++) {
    await open();
    // As a person would: the page settles (its idle warm-up) before the next prompt.
    await page.waitForTimeout(1500);
    results.push(
      await timeAnswer(
        page,
        requests,
        `And about lighthouses, number ${run}?`,
        run === runs - 1 ? trace("warm") : undefined,
      ),
    );
  }
  console.log(
    `ms after Enter; ${returning ? "a returning browser's " : ""}first answer sent ${sentAfterStart} ms after the server answered, then ${runs} warm new chats`,
  );
  console.log(
    `| mark | first | ${results
      .slice(1)
      .map((_, index) => `warm ${index + 1}`)
      .join(" | ")} |`,
  );
  console.log(
    `|---|---|${results
      .slice(1)
      .map(() => "---|")
      .join("")}`,
  );
  for (const [key, label] of columns)
    console.log(`| ${label} | ${results.map((result) => result[key] ?? "—").join(" | ")} |`);
  console.log(
    `| long tasks (start+duration) | ${results.map((result) => result.longTasks.join(", ") || "none").join(" | ")} |`,
  );
  const warmTexts = results
    .slice(1)
    .map((result) => result.firstText)
    .sort((left, right) => left - right);
  const warmMedian = warmTexts[Math.floor(warmTexts.length / 2)];
  console.log(
    `first text: first answer ${results[0].firstText} ms, warm median ${warmMedian} ms, ratio ${(results[0].firstText / warmMedian).toFixed(2)} (goal ≤ 1.5)`,
  );
} finally {
  await browser.close();
  await server.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
