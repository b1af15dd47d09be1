#!/usr/bin/env node
/**
 * The first answer after a start against warm ones, over the API (no browser): the built studio
 * is started (local engine, fresh DATA_DIR, free port), left `--settle` seconds (its warm-up
 * runs then), and asked `--runs` + 1 streamed answers of gemini-2.5-flash one after another;
 * each is timed from the request to its first SSE chunk. Then, after the same `--settle` seconds
 * of quiet, one more: a warm server's answer after the idle time the first one had. `--stages`
 * also prints each answer's way through the server (bench/request-stages-probe.cjs: ms after its
 * headers were parsed at each named point; "answer made" is when its first chunk was ready).
 * `--warm-client` first runs this process's own client (fetch, its streamed body, the SSE read)
 * against a throwaway server of its own, so the first answer's figure holds the server's first
 * run and not the bench client's.
 *
 *   npm run build && node bench/first-answer.mjs [--runs 9] [--settle 10] [--app-dir ../other] [--stages] [--warm-client]
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./chat-bench-support.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const runs = Number(option("runs", "9"));
const settleSeconds = Number(option("settle", "10"));
const stagesFile = process.argv.includes("--stages")
  ? path.join(os.tmpdir(), `first-answer-stages-${process.pid}.txt`)
  : null;
const probe = fileURLToPath(new URL("./request-stages-probe.cjs", import.meta.url));
const server = await startServer({
  appDir: option("app-dir"),
  env: stagesFile ? { NODE_OPTIONS: `--require ${probe}`, GENSTUDIO_STAGES_PROBE: stagesFile } : {},
});

/** Milliseconds from the request to the first chunk of a streamed answer to `text`. */
async function firstChunk(text, baseUrl = server.baseUrl) {
  const start = performance.now();
  const response = await fetch(
    `${baseUrl}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
    {
      method: "POST",
      // The key a server without configured credentials accepts (development defaults).
      headers: { "content-type": "application/json", "x-goog-api-key": "genstudio-dev-key" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text }] }] }),
    },
  );
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const reader = response.body.getReader();
  await reader.read();
  const elapsed = performance.now() - start;
  while (!(await reader.read()).done);
  return elapsed;
}

/** This process's client run a few times against a server of its own that streams three events. */
async function warmClient() {
  const stand = http.createServer((request, response) => {
    request.resume().on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (let event = 0; event < 3; event++) response.write(`data: {"event":${event}}\r\n\r\n`);
      response.end();
    });
  });
  await new Promise((resolve) => stand.listen(0, "127.0.0.1", resolve));
  try {
    for (let run = 0; run < 20; run++)
      await firstChunk("Warming the client.", `http://127.0.0.1:${stand.address().port}`);
  } finally {
    stand.close();
  }
}

try {
  if (process.argv.includes("--warm-client")) await warmClient();
  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  const first = await firstChunk("Hello! What can you tell me about harbours?");
  const warm = [];
  for (let run = 0; run < runs; run++)
    warm.push(await firstChunk(`And about lighthouses, number ${run}?`));
  const median = [...warm].sort((left, right) => left - right)[Math.floor(warm.length / 2)];
  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  const afterIdle = await firstChunk("Hello again! What about canals?");
  console.log(
    `first chunk of the first answer ${settleSeconds} s after start: ${first.toFixed(0)} ms; warm median ${median.toFixed(0)} ms (${warm.map((value) => value.toFixed(0)).join(", ")}); ratio ${(first / median).toFixed(2)} (goal ≤ 1.5); a warm answer after ${settleSeconds} s of quiet: ${afterIdle.toFixed(0)} ms`,
  );
  if (stagesFile) {
    // The answers' lines, in order: the first, the warm ones, the one after the quiet.
    const answers = fs
      .readFileSync(stagesFile, "utf8")
      .split("\n")
      .filter((line) => line.includes(":streamGenerateContent"));
    const shown = [
      ["first", answers[0]],
      ["warm (median run)", answers[1 + Math.floor(runs / 2)]],
      ["after the quiet", answers.at(-1)],
    ];
    for (const [name, line] of shown)
      console.log(`${name}: ${line?.replace(/^\S+ \S+ /, "").replaceAll("_", " ")}`);
  }
} finally {
  server.stop();
  if (stagesFile) fs.rmSync(stagesFile, { force: true });
}
