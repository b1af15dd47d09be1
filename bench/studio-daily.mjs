#!/usr/bin/env node
/**
 * Browser benchmark of the studio in daily use, in Debian's chromium against the production
 * build (local engine, fresh DATA_DIR, free port):
 *
 *   npm run build && node bench/studio-daily.mjs [--runs 9] [--paste-mb 5] [--app-dir ../other]
 *
 * 1. First token of the first answer after a start: the server is started, the page opened
 *    and a prompt sent as soon as the composer takes input (a new chat's first answer); then
 *    `--runs` follow-ups in that conversation, and `--runs` first answers of new chats (the page
 *    opened again, sent once the composer takes input): the warm answers of the same kind.
 *    Each is timed in the page, from Enter to the answer's first text in the DOM.
 * 2. Navigation to a typable composer: `--runs` loads of /chat in a browser with a session,
 *    from the navigation's start to the moment the prompt box exists and React has hydrated
 *    it (it then takes what is typed), timed in the page.
 * 3. A paste of `--paste-mb` MB into the prompt box: from the paste event to the attachment's
 *    card in the DOM (or, on a build that keeps pastes in the box, to the box holding it),
 *    then 20 keystrokes, each timed by the Event Timing API (input delay, handling and the
 *    next paint), and the longest long task from the paste to the end of typing.
 *
 * `--app-dir` runs another checkout's build (e.g. the code before a change) the same way.
 */
import { launchChromium, recordLongTasksAndTypable, startServer } from "./chat-bench-support.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const runs = Number(option("runs", "9"));
const pasteMegabytes = Number(option("paste-mb", "5"));
const appDir = option("app-dir");

const median = (values) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
};
const percentile = (values, fraction) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
};
const ms = (value) => `${Math.round(value)} ms`;

/** Timings recorded inside every page besides long tasks and hydration: keystrokes. */
function instrument() {
  window.__keys = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.name === "keydown") window.__keys.push(entry.duration);
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
}

/** Sends a prompt and resolves to the time from Enter to its answer's first text, in the page. */
async function timeFirstToken(page, text) {
  const box = page.getByRole("textbox", { name: "Message", exact: true });
  await box.fill(text);
  const elapsed = page.evaluate(
    () =>
      new Promise((resolve) => {
        const answers = () => document.querySelectorAll('article[aria-label="Answer"]');
        const before = answers().length;
        let sent = 0;
        const watch = () => {
          const last = answers()[answers().length - 1];
          const shown = last?.querySelector("[data-answer-text]")?.textContent ?? "";
          if (answers().length > before && shown.length > 0) resolve(performance.now() - sent);
          else requestAnimationFrame(watch);
        };
        document.getElementById("chat-prompt").addEventListener(
          "keydown",
          () => {
            sent = performance.now();
            requestAnimationFrame(watch);
          },
          { once: true },
        );
      }),
  );
  await box.press("Enter");
  const time = await elapsed;
  await page.waitForFunction(
    () => document.querySelector('article[aria-label="Answer"][aria-busy="true"]') === null,
  );
  return time;
}

const server = await startServer({ appDir });
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(recordLongTasksAndTypable);
  await context.addInitScript(instrument);
  const page = await context.newPage();

  // 1. The first answer after the start, then warm ones.
  await page.goto(`${server.baseUrl}/chat`);
  await page.waitForFunction(() => window.__typable !== null, null, { timeout: 60_000 });
  const sentAfterStart = Date.now() - server.ready;
  const first = await timeFirstToken(page, "Hello! What can you tell me about harbours?");
  const warm = [];
  for (let run = 0; run < runs; run++)
    warm.push(await timeFirstToken(page, `And about lighthouses, number ${run}?`));
  // The same kind of answer on a warm server: the first of a new chat, the page opened again.
  const warmNewChats = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(`${server.baseUrl}/chat`);
    await page.waitForFunction(() => window.__typable !== null, null, { timeout: 60_000 });
    warmNewChats.push(await timeFirstToken(page, `Hello again! What about canals, number ${run}?`));
  }
  console.log(
    `first token, first answer after start (sent ${ms(sentAfterStart)} after the server answered): ${ms(first)}; warm follow-ups median ${ms(median(warm))} (${warm.map(ms).join(", ")}), ratio ${(first / median(warm)).toFixed(2)}; warm new chats median ${ms(median(warmNewChats))} (${warmNewChats.map(ms).join(", ")}), ratio ${(first / median(warmNewChats)).toFixed(2)} (goal ≤ 1.5)`,
  );

  // 2. Navigation to a typable composer, with a session.
  const typable = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(`${server.baseUrl}/chat`);
    await page.waitForFunction(() => window.__typable !== null, null, { timeout: 60_000 });
    typable.push(await page.evaluate(() => window.__typable));
  }
  console.log(
    `navigation to a typable composer: p50 ${ms(median(typable))}, p90 ${ms(percentile(typable, 0.9))}, max ${ms(Math.max(...typable))} (goal p50 < 1 s) over ${runs} loads`,
  );

  // 3. A long paste, then typing.
  await page.goto(`${server.baseUrl}/chat`);
  await page.waitForFunction(() => window.__typable !== null, null, { timeout: 60_000 });
  await page.waitForTimeout(1000);
  const landed = await page.evaluate(
    (characters) =>
      new Promise((resolve) => {
        const line = "The tide comes in over the warm sand and goes out again. ";
        const text = line.repeat(Math.ceil(characters / line.length)).slice(0, characters);
        const box = document.getElementById("chat-prompt");
        const transfer = new DataTransfer();
        transfer.setData("text/plain", text);
        const start = performance.now();
        window.__pasteStart = start;
        const done = () =>
          document.querySelector('li[aria-label^="Pasted text"]') || box.value.length >= characters;
        const event = new ClipboardEvent("paste", {
          clipboardData: transfer,
          bubbles: true,
          cancelable: true,
        });
        // A build that keeps the paste in the box: the browser does not insert a synthetic
        // paste, so the text goes in as a paste's input would.
        if (box.dispatchEvent(event)) {
          Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set.call(
            box,
            text,
          );
          box.dispatchEvent(new Event("input", { bubbles: true }));
        }
        const watch = () => {
          if (done()) {
            // The next frame: the card (or the text) is painted.
            requestAnimationFrame(() => resolve(performance.now() - start));
          } else requestAnimationFrame(watch);
        };
        watch();
      }),
    Math.round(pasteMegabytes * 1_000_000),
  );
  const box = page.getByRole("textbox", { name: "Message", exact: true });
  await box.press("End");
  await page.waitForTimeout(200);
  await page.evaluate(() => (window.__keys.length = 0));
  for (const character of "Summarise it please!".slice(0, 20)) await box.press(character);
  await page.waitForTimeout(1500);
  const typing = await page.evaluate(() => ({
    keys: window.__keys.slice(),
    longest: Math.max(
      0,
      ...window.__longTasks
        .filter((task) => task.start >= window.__pasteStart)
        .map((task) => task.duration),
    ),
  }));
  // The Event Timing API reports only keystrokes that took 16 ms or more (to the next paint).
  const slow = typing.keys;
  const typed = 20;
  const middle =
    slow.length > typed / 2
      ? ms(percentile([...slow, ...Array(typed - slow.length).fill(0)], 0.5))
      : "under 16 ms";
  console.log(
    `paste of ${pasteMegabytes} MB: landed in ${ms(landed)} (goal < 1 s); ${typed} keystrokes after it: median ${middle}, ${slow.length} took 16 ms or more, longest ${ms(Math.max(0, ...slow))} (goal < 50 ms); longest long task from the paste on ${ms(typing.longest)}`,
  );
  await context.close();
} finally {
  await browser.close();
  server.stop();
}
