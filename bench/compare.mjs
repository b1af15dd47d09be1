#!/usr/bin/env node
/**
 * Browser benchmark of compare mode: one prompt answered by four panes at once
 * (four models of the local engine, each answer `--tokens` long, 5,000 by default), in
 * Debian's chromium. Reports each pane's time to first token and total time as the page saw
 * them, and the page's longest main-thread task (long-task observer, wall clock; and CPU time
 * from a Chrome trace) from the first answer text until every pane is done.
 *
 *   npm run build && node bench/compare.mjs [--panes 4] [--tokens 5000] [--base-url http://127.0.0.1:3000]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchChromium, mainThreadTaskCpu, startServer } from "./chat-bench-support.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const paneCount = Number(option("panes", "4"));
const tokens = Number(option("tokens", "5000"));
/** Panes alternate between two models of the local engine's catalog that can answer without thinking. */
const MODELS = ["models/gemini-2.5-flash", "models/gemini-2.5-flash-lite"];

/** Markdown long enough to be cut at `tokens` (the local model's "Repeat after me:" skill). */
function longMarkdown(minimumCharacters) {
  const sections = [];
  for (let index = 1; sections.join("\n\n").length < minimumCharacters; index++)
    sections.push(
      `## Harbour ${index}\n\nThe ferry of harbour ${index} leaves at dawn with **${index * 3}** passengers and returns at dusk; the *tide tables* are posted by the quay.\n\n- Fares: ${index} coins\n- Crossings: ${index * 2} a day\n\nThe crossing takes $t_{${index}} = d / v$ hours.`,
    );
  return sections.join("\n\n");
}

const server = option("base-url")
  ? { baseUrl: option("base-url"), stop() {} }
  : await startServer();
const browser = await launchChromium();

try {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
    window.__firstAnswerText = null;
    const watcher = new MutationObserver(() => {
      const text = document.querySelector("[data-pane-answer]")?.textContent ?? "";
      if (text.length > 0 && window.__firstAnswerText === null) {
        window.__firstAnswerText = performance.now();
        performance.mark("compare:first-text");
        watcher.disconnect();
      }
    });
    document.addEventListener("DOMContentLoaded", () =>
      watcher.observe(document.body, { subtree: true, childList: true, characterData: true }),
    );
  });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/chat`, { waitUntil: "load" });
  await page.getByRole("textbox", { name: "Message", exact: true }).waitFor();

  // The chat's settings, which new panes start from: long answers, thinking off.
  await page.getByRole("button", { name: /^Settings/ }).click();
  const settings = page.getByRole("form", { name: "Chat settings" });
  await settings.getByLabel("Max output tokens", { exact: true }).fill(String(tokens));
  await settings.getByLabel("Thinking budget (tokens)", { exact: true }).fill("0");
  await page.getByRole("button", { name: "Close settings" }).click();

  await page.getByRole("button", { name: "Compare", exact: true }).click();
  const compare = page.locator("[data-compare]");
  await compare.getByLabel("Panes").selectOption(String(paneCount));
  const panes = compare.getByRole("region", { name: /^Pane \d$/ });
  for (let index = 0; index < paneCount; index++)
    await panes
      .nth(index)
      .getByRole("combobox", { name: "Model" })
      .selectOption(MODELS[index % MODELS.length]);

  const input = page.getByRole("textbox", { name: "Message", exact: true });
  await input.fill(`Repeat after me: ${longMarkdown(tokens * 5)}`);
  const tracePath = path.join(os.tmpdir(), `compare-trace-${process.pid}.json`);
  await browser.startTracing(page, {
    path: tracePath,
    categories: [
      "toplevel",
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "blink.user_timing",
    ],
  });
  await input.press("Enter");
  await page.waitForFunction(() => window.__firstAnswerText !== null, null, { timeout: 120_000 });
  const start = await page.evaluate(() => window.__firstAnswerText);
  await page.waitForFunction(
    (count) =>
      document.querySelectorAll(
        '[data-pane][data-status="done"], [data-pane][data-status="failed"]',
      ).length === count,
    paneCount,
    { timeout: 600_000, polling: 200 },
  );
  await page.waitForTimeout(1000);
  const end = await page.evaluate(() => {
    performance.mark("compare:end");
    return performance.now();
  });
  await browser.stopTracing();
  const cpu = mainThreadTaskCpu(tracePath, "compare");
  if (!process.env.KEEP_TRACE) fs.rmSync(tracePath, { force: true });

  const result = await page.evaluate(
    ({ from, to }) => {
      const tasks = window.__longTasks.filter((task) => task.start >= from && task.start <= to);
      return {
        longest: Math.max(0, ...tasks.map((task) => task.duration)),
        count: tasks.length,
        panes: [...document.querySelectorAll("[data-pane]")].map((pane) => ({
          model: pane.querySelector("select")?.value,
          status: pane.getAttribute("data-status"),
          firstTokenMs: Number(pane.getAttribute("data-first-token-ms")),
          totalMs: Number(pane.getAttribute("data-total-ms")),
          usage: pane.querySelector("[data-usage]")?.textContent ?? "",
        })),
      };
    },
    { from: start, to: end },
  );
  for (const [index, pane] of result.panes.entries()) {
    const output = /output\s*([\d,]+)/.exec(pane.usage)?.[1] ?? "?";
    console.log(
      `pane ${index + 1} (${pane.model?.replace("models/", "")}): ${pane.status}, ${output} output tokens, first token ${pane.firstTokenMs.toFixed(0)} ms, total ${pane.totalMs.toFixed(0)} ms`,
    );
  }
  console.log(
    `long tasks from the first text to all done: ${result.count}, longest ${result.longest.toFixed(0)} ms (wall clock)`,
  );
  console.log(
    `main-thread CPU time per task (trace): longest ${cpu.longest.toFixed(1)} ms, p99 ${cpu.p99.toFixed(1)} ms, ${cpu.over50} tasks over 50 ms, ${cpu.tasks} tasks, ${cpu.total.toFixed(0)} ms in all`,
  );
  if (cpu.overList.length)
    console.log(
      `tasks over 50 ms CPU (ms after the first text: CPU ms): ${cpu.overList.map((task) => `${task.at}: ${task.cpu}`).join(", ")}`,
    );
  await context.close();
} finally {
  await browser.close();
  server.stop();
}
