/**
 * Main-thread side of the tokenizer workers (api-notes §4): per vocabulary family, one worker
 * for ordinary requests and one for bulk texts (BULK_CHARACTERS or more together, or a run of
 * LONG_RUN_UNITS without a word start, however short the texts), each started on
 * first use and kept for the process; requests are cancellable with an AbortSignal. Two
 * lanes, because a worker shares its time fairly between jobs only between slices, and a
 * hostile megabyte-long run (spaces, one long line) has slices of hundreds of milliseconds:
 * ordinary counts never queue behind it. A loaded worker costs about 85 MB.
 * The worker is a plain .mjs file started from the repository root, never bundled. Texts of
 * megabytes are posted in pieces with event-loop turns between them: copying 16 MB into one
 * message held this thread for tens of milliseconds. A text held as its code units in shared
 * memory (lib/runtime/encoded-text.ts: a long prompt from the body reader worker) is posted as
 * it is, not copied, and decoded in the worker.
 */
import "server-only";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { TokenizerFamily } from "@/lib/gemini/model-traits";
import { encodedLength, type EncodedText } from "@/lib/runtime/encoded-text";
import { TimeSlices } from "@/lib/runtime/time-slices";

/** Where the worker script lives, relative to the repository root (the server's cwd). */
export const WORKER_SCRIPT = "lib/engine/tokens/tokenizer-worker.mjs";

/**
 * The worker script as a file URL built at run time. Turbopack rewrites a literal
 * `new Worker(path.join(process.cwd(), ...))` into a module id, which breaks `next start`;
 * a URL object it cannot follow keeps the plain file (the worker is not bundled on purpose).
 */
function workerScriptUrl(): URL {
  return pathToFileURL(path.resolve(process.cwd(), WORKER_SCRIPT));
}

type Reply =
  | { type: "result"; id: number; counts?: number[]; ids?: Int32Array; ends?: Int32Array }
  | { type: "vocabulary"; id: number; pieces: string[]; controlIds: number[] }
  | { type: "error"; id: number; message: string };

/** A text to tokenize: a string, or one held as its code units in shared memory. */
export type TokenizerText = string | EncodedText;

type Request = { type: "count" | "encode"; texts: TokenizerText[] } | { type: "vocabulary" };

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/** A tokenizer worker failed (could not load its vocabulary, or crashed). */
export class TokenizerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenizerError";
  }
}

/** Texts of this many characters or more (all of a request's together) go to the bulk worker. */
export const BULK_CHARACTERS = 262_144;

/** Characters (and texts) posted in one message at most. */
const POST_CHARACTERS = 1_048_576;
const POST_TEXTS = 16_384;

export type TokenizerLane = "interactive" | "bulk";

class TokenizerWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly family: TokenizerFamily,
    private readonly lane: TokenizerLane,
  ) {}

  request(message: Request, signal?: AbortSignal): Promise<Reply> {
    signal?.throwIfAborted();
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        worker.postMessage({ type: "cancel", id });
        this.updateReference();
        reject(
          signal?.reason instanceof Error
            ? signal.reason
            : new DOMException("The operation was aborted.", "AbortError"),
        );
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => signal?.removeEventListener("abort", onAbort);
      this.pending.set(id, {
        resolve: (reply) => {
          settle();
          resolve(reply);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      this.updateReference();
      if (message.type === "vocabulary" || !isLarge(message.texts)) {
        worker.postMessage({ ...message, id });
        return;
      }
      this.postInPieces(worker, id, message.type, message.texts).catch(onAbort);
    });
  }

  /**
   * A job of many or long texts, posted piece by piece (the worker joins them); an encoded
   * text goes as it is (its memory is shared, not copied into the message).
   */
  private async postInPieces(
    worker: Worker,
    id: number,
    kind: "count" | "encode",
    texts: readonly TokenizerText[],
  ): Promise<void> {
    const slices = new TimeSlices();
    worker.postMessage({ type: "begin", id, kind });
    let batch: TokenizerText[] = [];
    let characters = 0;
    /** Whether the batch's first piece goes on with the previous batch's last text. */
    let continues = false;
    const send = async () => {
      if (!this.pending.has(id)) throw new Error("cancelled");
      worker.postMessage({ type: "texts", id, texts: batch, continues });
      batch = [];
      characters = 0;
      if (slices.due()) await slices.pause();
    };
    for (const text of texts) {
      if (typeof text !== "string") {
        batch.push(text);
        if (batch.length >= POST_TEXTS) {
          await send();
          continues = false;
        }
        continue;
      }
      let from = 0;
      do {
        const room = POST_CHARACTERS - characters;
        const piece = text.length - from <= room ? text.slice(from) : text.slice(from, from + room);
        batch.push(piece);
        characters += piece.length;
        from += piece.length;
        if (characters >= POST_CHARACTERS || batch.length >= POST_TEXTS) {
          await send();
          continues = from < text.length;
        }
      } while (from < text.length);
    }
    if (batch.length) await send();
    if (this.pending.has(id)) worker.postMessage({ type: "end", id });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerScriptUrl(), {
      workerData: { family: this.family, lane: this.lane },
      name: `tokenizer-${this.family}-${this.lane}`,
    });
    worker.on("message", (reply: Reply) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      this.updateReference();
      if (reply.type === "error")
        pending.reject(new TokenizerError(`The ${this.family} tokenizer failed: ${reply.message}`));
      else pending.resolve(reply);
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const failures = [...this.pending.values()];
      this.pending.clear();
      for (const pending of failures)
        pending.reject(
          new TokenizerError(`The ${this.family} tokenizer stopped: ${error.message}`),
        );
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  /** An idle worker must not keep the process alive; a busy one must, or awaited counts never finish. */
  private updateReference(): void {
    if (!this.worker) return;
    if (this.pending.size > 0) this.worker.ref();
    else this.worker.unref();
  }

  /** Stops the worker; pending requests fail. */
  async terminate(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await worker.terminate();
  }
}

// One set of workers per process, also across Next's hot reloads in development.
const registry = globalThis as typeof globalThis & {
  __genstudioTokenizerWorkers?: Map<string, TokenizerWorker>;
};
const workers = (registry.__genstudioTokenizerWorkers ??= new Map());

/** The worker of a family and lane, started on first use. */
export function tokenizerWorker(
  family: TokenizerFamily,
  lane: TokenizerLane = "interactive",
): TokenizerWorker {
  if (family !== "gemma" && family !== "gemma3")
    throw new TokenizerError(`Unknown tokenizer family: ${String(family)}`);
  const key = `${family}:${lane}`;
  let worker = workers.get(key);
  if (!worker) {
    worker = new TokenizerWorker(family, lane);
    workers.set(key, worker);
  }
  return worker;
}

/** Whether a job's texts are posted in pieces: encoded texts count nothing (they are not copied). */
function isLarge(texts: readonly TokenizerText[]): boolean {
  if (texts.length > POST_TEXTS) return true;
  let characters = 0;
  for (const text of texts) if (typeof text === "string") characters += text.length;
  return characters > POST_CHARACTERS;
}

/**
 * A run of this many units with no word start (a space after another character: spaces, one
 * long line) is merged by the BPE in steps over the whole run, slowly: 48,000 spaces took
 * 400 ms, and counts behind them in the same worker waited up to 120 ms.
 */
export const LONG_RUN_UNITS = 4_096;

/**
 * The lane for a request's texts: bulk when they are long together, or hold a long run (an
 * encoded text is not looked into: its length alone decides, and one is only ever made of a
 * text of a megabyte or more).
 */
export function laneFor(texts: readonly TokenizerText[]): TokenizerLane {
  let characters = 0;
  for (const text of texts) {
    characters += typeof text === "string" ? text.length : encodedLength(text);
    if (characters >= BULK_CHARACTERS) return "bulk";
    if (typeof text === "string" && hasLongRun(text)) return "bulk";
  }
  return "interactive";
}

function hasLongRun(text: string): boolean {
  if (text.length < LONG_RUN_UNITS) return false;
  let runStart = 0;
  for (let index = 1; index < text.length; index++) {
    if (text.charCodeAt(index) === 0x20 && text.charCodeAt(index - 1) !== 0x20) runStart = index;
    else if (index - runStart >= LONG_RUN_UNITS) return true;
  }
  return false;
}

/** Stops every tokenizer worker (tests, shutdown). */
export async function terminateTokenizerWorkers(): Promise<void> {
  await Promise.all([...workers.values()].map((worker) => worker.terminate()));
}
