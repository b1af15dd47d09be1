#!/usr/bin/env node
/**
 * Browser benchmark of the chat page: streams one long answer (20,000 output tokens
 * by default) from the local engine in Debian's chromium and reports the longest main-thread
 * task seen by a PerformanceObserver('longtask') while it streams and settles, plus the
 * JavaScript the /chat route downloads on first load.
 *
 *   npm run build && node bench/chat-render.mjs [--tokens 20000] [--no-diagrams] [--base-url http://127.0.0.1:3000]
 *     [--tokens-per-second 4000] [--app-dir ../other-checkout] [--cpu-profile answer.cpuprofile]
 *
 * Without --base-url it starts the built studio itself (local engine, fresh DATA_DIR, free port),
 * from `--app-dir` when given (another checkout's build, for a before/after), its stream paced
 * at `--tokens-per-second` when given (else the engine's full speed). It also reports how long
 * after the turn's last byte reached the page the answer's last text was shown. `--cpu-profile`
 * writes the page's JavaScript CPU profile (DevTools protocol) from Enter to the end.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchChromium, mainThreadTaskCpu, startServer } from "./chat-bench-support.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const tokens = Number(option("tokens", "20000"));
/** `--no-diagrams`: the document without its Mermaid blocks (as the page was before it drew diagrams). */
const withDiagrams = !process.argv.includes("--no-diagrams");

/**
 * The answer to stream: the local model's "Repeat after me:" skill answers its text exactly,
 * token by token, so the page renders real markdown (headings, paragraphs, lists, tables,
 * highlighted code, inline and display formulas, Mermaid diagrams) at the engine's full speed. Longer than `tokens`, so the answer is cut at
 * exactly maxOutputTokens.
 */
function longMarkdown(minimumCharacters) {
  const sections = [];
  for (let index = 1; sections.join("\n\n").length < minimumCharacters; index++) {
    sections.push(
      [
        `## Section ${index}: rivers and trade`,
        `The river town of number ${index} grew where the road met the water. Merchants brought salt, cloth and iron; boatmen carried grain downstream in the autumn, and the market square filled every Thursday. Over the years the **bridge** was rebuilt three times, each time a little wider, and the *old mill* became a school.`,
        `- Salt from the coast, ${index * 3} carts a week\n- Cloth from the hill villages\n- Iron tools, mostly sickles and nails\n  - some sold on credit`,
        `| Year | Boats | Grain (tonnes) |\n|---:|---:|---:|\n| ${1800 + index} | ${index * 7} | ${index * 130} |\n| ${1850 + index} | ${index * 11} | ${index * 210} |`,
        "```ts\n" +
          `export function tonnage(boats: number, load = ${index}): number {\n  // every boat carries the same load\n  return boats * load;\n}` +
          "\n```",
        `1. Count the boats at dawn.\n2. Weigh a sample of the grain.\n3. Write the totals in the ledger, with \`${index}\` as the page.`,
        // Formulas: inline and display TeX, typeset by KaTeX as they stream.
        `The load follows $L_{${index}} = \\sum_{k=1}^{${index}} b_k \\cdot w_k$ with $w_k \\approx ${index}.5$ tonnes per boat.`,
        `$$\\int_0^{${index}} \\frac{x^2}{1 + x}\\,dx \\le \\sqrt{${index}^2 + ${index * 7}}$$`,
        // A Mermaid diagram, drawn by the sandboxed renderer frame once it stops growing.
        withDiagrams &&
          "```mermaid\n" +
            `flowchart LR\n  A${index}[Dawn count: ${index * 7} boats] --> B${index}{Grain over ${index * 130} t?}\n  B${index} -->|yes| C${index}[Ship downstream]\n  B${index} -->|no| D${index}[Store at the mill]` +
            "\n```",
      ]
        .filter(Boolean)
        .join("\n\n"),
    );
  }
  return sections.join("\n\n");
}

const pace = option("tokens-per-second");
const server = option("base-url")
  ? { baseUrl: option("base-url"), stop() {} }
  : await startServer({
      appDir: option("app-dir"),
      env: pace ? { STUDIO_LOCAL_OUTPUT_TOKENS_PER_SECOND: pace } : {},
    });
const browser = await launchChromium();

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Long tasks are recorded from the very first script of every page.
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
    // When the first answer text is in the DOM: recorded in the page, so a busy main thread
    // cannot delay the mark the way polling from outside would.
    window.__firstAnswerText = null;
    const watcher = new MutationObserver(() => {
      const text =
        document.querySelector('article[aria-label="Answer"] [data-answer-text]')?.textContent ??
        "";
      if (text.length > 0 && window.__firstAnswerText === null) {
        window.__firstAnswerText = performance.now();
        performance.mark("chat-render:first-text");
        watcher.disconnect();
      }
    });
    // When the answer's text last changed: set against the turn's last byte, how far the page
    // was behind the stream at its end.
    window.__lastTextChange = null;
    let lastLength = 0;
    const follower = new MutationObserver(() => {
      const text =
        document.querySelector('article[aria-label="Answer"] [data-answer-text]')?.textContent ??
        "";
      if (text.length !== lastLength) {
        lastLength = text.length;
        window.__lastTextChange = performance.now();
      }
    });
    document.addEventListener("DOMContentLoaded", () => {
      watcher.observe(document.body, { subtree: true, childList: true, characterData: true });
      follower.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  });
  const page = await context.newPage();

  // First load of /chat with a cold cache: every script resource the route pulls in.
  await page.goto(`${server.baseUrl}/chat`, { waitUntil: "load" });
  await page.getByRole("textbox", { name: "Message", exact: true }).waitFor();
  // Scripts requested before the load event: what the route needs to appear. Chunks fetched
  // later on purpose (highlight.js, preloaded when idle) are reported apart.
  const firstLoad = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter(
        (entry) =>
          (entry.initiatorType === "script" || /\.js(\?|$)/.test(entry.name)) &&
          entry.startTime < performance.getEntriesByType("navigation")[0].loadEventStart,
      )
      .reduce(
        (sum, entry) => ({
          transferred: sum.transferred + entry.encodedBodySize,
          decoded: sum.decoded + entry.decodedBodySize,
          files: sum.files + 1,
        }),
        { transferred: 0, decoded: 0, files: 0 },
      ),
  );

  await page.waitForTimeout(3500);
  const later = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter(
        (entry) =>
          /\.js(\?|$)/.test(entry.name) &&
          entry.startTime >= performance.getEntriesByType("navigation")[0].loadEventStart,
      )
      .reduce(
        (sum, entry) => ({
          transferred: sum.transferred + entry.encodedBodySize,
          decoded: sum.decoded + entry.decodedBodySize,
          files: sum.files + 1,
        }),
        { transferred: 0, decoded: 0, files: 0 },
      ),
  );

  await page.getByRole("button", { name: /^Settings/ }).click();
  const settings = page.getByRole("form", { name: "Chat settings" });
  await settings.getByLabel("Max output tokens", { exact: true }).fill(String(tokens));
  await settings.getByLabel("Thinking budget (tokens)", { exact: true }).fill("0");
  await page.getByRole("button", { name: "Close settings" }).click();

  const input = page.getByRole("textbox", { name: "Message", exact: true });
  // Typing 100 KB of many-line text with fill() is slow in the browser; set it as a paste would.
  await input.evaluate(
    (element, value) => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set.call(
        element,
        value,
      );
      element.dispatchEvent(new Event("input", { bubbles: true }));
    },
    `Repeat after me: ${longMarkdown(tokens * 5)}`,
  );
  // A trace as well: its task events carry the main thread's CPU time (`tdur`), which a
  // loaded machine does not inflate the way it inflates wall-clock long tasks.
  const tracePath = path.join(os.tmpdir(), `chat-render-trace-${process.pid}.json`);
  await browser.startTracing(page, {
    path: tracePath,
    categories: [
      "toplevel",
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "blink.user_timing",
    ],
  });
  const profilePath = option("cpu-profile");
  const profiler = profilePath ? await context.newCDPSession(page) : null;
  if (profiler) {
    await profiler.send("Profiler.enable");
    await profiler.send("Profiler.setSamplingInterval", { interval: 200 });
    await profiler.send("Profiler.start");
  }
  const sent = await page.evaluate(() => performance.now());
  await input.press("Enter");
  await page.waitForFunction(() => window.__firstAnswerText !== null, null, { timeout: 120_000 });
  // The window starts with the first streamed text: rendering the (synthetic, 100 KB) prompt
  // and the navigation to the new conversation's URL come before it and are reported apart.
  const start = await page.evaluate(() => window.__firstAnswerText);
  await page.waitForFunction(
    () => document.querySelector('article[aria-label="Answer"][aria-busy="true"]') === null,
    null,
    { timeout: 600_000, polling: 200 },
  );
  // Let the saved answer replace the streamed one and the layout settle, and every diagram be
  // drawn (they draw in the renderer frame, one after another, once their text stops changing).
  await page.waitForTimeout(1500);
  await page.waitForFunction(
    () => document.querySelector('figure[data-diagram="pending"]') === null,
    null,
    { timeout: 300_000, polling: 500 },
  );
  const diagrams = await page.evaluate(() => ({
    drawn: document.querySelectorAll('figure[data-diagram="drawn"]').length,
    failed: document.querySelectorAll('figure[data-diagram="failed"]').length,
  }));
  const end = await page.evaluate(() => {
    performance.mark("chat-render:end");
    return performance.now();
  });
  await browser.stopTracing();
  if (profiler) {
    const { profile } = await profiler.send("Profiler.stop");
    fs.writeFileSync(profilePath, JSON.stringify(profile));
  }
  const cpu = mainThreadTaskCpu(tracePath);
  if (!process.env.KEEP_TRACE) fs.rmSync(tracePath, { force: true });

  const beforeFirstText = await page.evaluate(
    ({ from, to }) =>
      Math.max(
        0,
        ...window.__longTasks
          .filter((task) => task.start >= from && task.start < to)
          .map((task) => task.duration),
      ),
    { from: sent, to: start },
  );
  const result = await page.evaluate(
    ({ from, to }) => {
      const tasks = window.__longTasks.filter((task) => task.start >= from && task.start <= to);
      const text =
        document.querySelector('article[aria-label="Answer"]:last-of-type [data-answer-text]')
          ?.textContent ?? "";
      const usage =
        document.querySelector('article[aria-label="Answer"]:last-of-type [data-usage]')
          ?.textContent ?? "";
      return {
        longest: Math.max(0, ...tasks.map((task) => task.duration)),
        count: tasks.length,
        blocking: tasks.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0),
        characters: text.length,
        usage,
      };
    },
    { from: start, to: end },
  );
  const lag = await page.evaluate(() => {
    const turn = performance
      .getEntriesByType("resource")
      .filter((entry) => /\/api\/conversations\/[^/]+\/turns$/.test(entry.name))
      .at(-1);
    return turn ? window.__lastTextChange - turn.responseEnd : null;
  });
  const outputTokens = Number(
    /output\s*([\d,]+)/.exec(result.usage)?.[1]?.replace(/,/g, "") ?? "0",
  );

  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(
    `chat route first-load JS: ${kib(firstLoad.transferred)} transferred (compressed), ${kib(firstLoad.decoded)} decoded, ${firstLoad.files} files`,
  );
  console.log(
    `JS loaded after the load event (idle preload of highlight.js): ${kib(later.transferred)} transferred, ${kib(later.decoded)} decoded, ${later.files} files`,
  );
  console.log(
    `streamed answer: ${outputTokens.toLocaleString("en")} output tokens, ${result.characters.toLocaleString("en")} characters in ${((end - start) / 1000).toFixed(1)} s (incl. 1.5 s settle)`,
  );
  console.log(`diagrams: ${diagrams.drawn} drawn, ${diagrams.failed} failed`);
  console.log(
    `last answer text shown ${lag === null ? "?" : lag.toFixed(0)} ms after the turn's last byte reached the page (goal < 100 ms; negative: before it)${pace ? `, stream paced at ${pace} tokens/s` : ""}`,
  );
  console.log(
    `long tasks while streaming: ${result.count}, longest ${result.longest.toFixed(0)} ms (goal < 50 ms), total blocking ${result.blocking.toFixed(0)} ms`,
  );
  console.log(
    `longest task between Enter and the first answer text (prompt render, navigation): ${beforeFirstText.toFixed(0)} ms`,
  );
  console.log(
    `main-thread CPU time per task while streaming (trace): longest ${cpu.longest.toFixed(1)} ms, p99 ${cpu.p99.toFixed(1)} ms, ${cpu.over50} tasks over 50 ms${cpu.overList.length ? ` (${cpu.overList.map((task) => `${task.cpu} ms at +${task.at} ms`).join(", ")})` : ""}, ${cpu.tasks} tasks, ${cpu.total.toFixed(0)} ms in all`,
  );
  await context.close();
} finally {
  await browser.close();
  server.stop();
}
