/**
 * The request thread's side of the body reader workers (body-reader-worker.ts): a body of
 * IN_THREAD_BYTES or more is decoded, parsed and read into its canonical form there, and comes
 * back as JSON pieces that readJsonPieces turns into the request a piece at a time (its long
 * strings beside them, long-strings.ts), so a 16 MB body never holds the event loop for more
 * than a slice, nor arrives as one JSON text of megabytes. Two workers, as for the
 * tokenizer: bodies of BULK_BYTES or more have their own, so a body of a few hundred
 * kilobytes never waits behind one of 100 MB. Where a worker cannot start (a test run
 * without Next's bundling), bodies are read on this thread.
 */
import "server-only";
import { Worker } from "node:worker_threads";
import { readJsonPieces } from "@/lib/runtime/json-pieces";
import {
  apiErrorOf,
  readBodyText,
  readForwardedBody,
  type ForwardedRead,
  sourceText,
  type BodyOf,
  type BodyReaderName,
  type BodyReaderReply,
  type BodyReaderRequest,
  type BodySource,
} from "./body-readers";
import { putBackLongStrings } from "./long-strings";

/** Bodies shorter than this are read on the request's thread (a few milliseconds at most). */
export const IN_THREAD_BYTES = 65_536;
/** Bodies this long or longer go to the bulk worker. */
export const BULK_BYTES = 1_048_576;

export type BodyReaderOutcome = Exclude<BodyReaderReply, { kind: "ready" }>;

interface Pending {
  resolve: (outcome: BodyReaderOutcome | "unavailable") => void;
}

class BodyReaderWorker {
  private worker: Worker | undefined;
  /** Resolves once the worker runs (true), or could not start at all (false). */
  private started: Promise<boolean> | undefined;
  /** Set when the worker could not start at all: bodies are then read on this thread. */
  private unavailable = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly lane: string) {}

  /**
   * The worker's outcome for a body, or "unavailable" when there is no worker to ask. A body
   * is posted only to a worker that has started, so an unavailable one leaves it untouched.
   */
  async run(
    reader: BodyReaderName,
    source: BodySource,
    forward = false,
  ): Promise<BodyReaderOutcome | "unavailable"> {
    if (this.unavailable || !(await this.start())) return "unavailable";
    const worker = this.worker;
    if (!worker) return { id: 0, kind: "failure", message: "body reader stopped" };
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve });
      worker.ref();
      // Bytes are handed over, not copied (they are this body's own copies).
      const transfer = source.bytes.map((bytes) => bytes.buffer as ArrayBuffer);
      worker.postMessage({ id, reader, forward, ...source } satisfies BodyReaderRequest, transfer);
    });
  }

  private start(): Promise<boolean> {
    if (this.worker && this.started) return this.started;
    let worker: Worker;
    try {
      worker = new Worker(new URL("./body-reader-worker.ts", import.meta.url), {
        name: `body-reader-${this.lane}`,
        workerData: { lane: this.lane },
      });
    } catch {
      this.unavailable = true;
      return Promise.resolve(false);
    }
    let ready = false;
    let settle: (started: boolean) => void = () => {};
    this.started = new Promise((resolve) => (settle = resolve));
    worker.on("message", (reply: BodyReaderReply) => {
      if (reply.kind === "ready") {
        ready = true;
        settle(true);
        return;
      }
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      pending.resolve(reply);
    });
    const stop = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.started = undefined;
      // A worker that never got going (no bundle to run) is not tried again.
      if (!ready) {
        this.unavailable = true;
        settle(false);
      }
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const pending of waiting)
        pending.resolve({
          id: 0,
          kind: "failure",
          message: `body reader stopped: ${error.message}`,
        });
    };
    worker.on("error", stop);
    worker.on("exit", (code) => stop(new Error(`worker exited with code ${code}`)));
    worker.unref();
    this.worker = worker;
    return this.started;
  }

  async terminate(): Promise<void> {
    await this.worker?.terminate();
  }
}

// One pair of workers per process, also across Next's hot reloads in development.
const registry = globalThis as typeof globalThis & {
  __genstudioBodyReaders?: Map<string, BodyReaderWorker>;
};
const workers = (registry.__genstudioBodyReaders ??= new Map());

function workerFor(size: number): BodyReaderWorker {
  const lane = size >= BULK_BYTES ? "bulk" : "interactive";
  let worker = workers.get(lane);
  if (!worker) {
    worker = new BodyReaderWorker(lane);
    workers.set(lane, worker);
  }
  return worker;
}

/**
 * A body read by `reader` (readBodyText's result and errors), without holding this thread
 * for more than a slice when the body is large. Bytes are decoded where the body is read: a
 * large body's bytes go to the worker as they came, never decoded or joined here.
 */
export async function readBody<Name extends BodyReaderName>(
  source: BodySource,
  reader: Name,
): Promise<BodyOf<Name>> {
  if (source.size < IN_THREAD_BYTES) return readBodyText(sourceText(source), reader);
  const outcome = await workerFor(source.size).run(reader, source);
  if (outcome === "unavailable") return readBodyText(sourceText(source), reader);
  return bodyOfOutcome(outcome);
}

type ForwardedBodyRead<Name extends BodyReaderName> = ForwardedRead<BodyOf<Name>> & {
  source: BodySource;
};

/**
 * A body read for forwarding (readForwardedBody's result and errors) with its bytes, kept as
 * they came: a large body's go to the worker and come back with the read, never copied.
 */
export async function readBodyForForwarding<Name extends BodyReaderName>(
  source: BodySource,
  reader: Name,
): Promise<ForwardedBodyRead<Name>> {
  return readBodyForForwardingHere(source, reader) ?? readBodyForForwardingApart(source, reader);
}

/**
 * readBodyForForwarding of a body read on this thread (under IN_THREAD_BYTES), at once: no
 * promise to wait for, which is how most requests' bodies are read. Null for a larger body.
 */
export function readBodyForForwardingHere<Name extends BodyReaderName>(
  source: BodySource,
  reader: Name,
): ForwardedBodyRead<Name> | null {
  return source.size < IN_THREAD_BYTES ? { ...readForwardedBody(source, reader), source } : null;
}

/** readBodyForForwarding of a larger body, in the body reader worker. */
async function readBodyForForwardingApart<Name extends BodyReaderName>(
  source: BodySource,
  reader: Name,
): Promise<ForwardedBodyRead<Name>> {
  const outcome = await workerFor(source.size).run(reader, source, true);
  if (outcome === "unavailable") return { ...readForwardedBody(source, reader), source };
  const read = (await bodyOfOutcome(outcome)) as ForwardedRead<BodyOf<Name>>;
  const bytes = outcome.kind === "value" ? outcome.bytes : undefined;
  if (!bytes) throw new Error("body reader answered without the body's bytes");
  return { ...read, source: { bytes, size: source.size } };
}

/** What the worker's outcome means on this thread: the body read in slices, or its error. */
export async function bodyOfOutcome<Name extends BodyReaderName>(
  outcome: BodyReaderOutcome,
): Promise<BodyOf<Name>> {
  switch (outcome.kind) {
    case "value": {
      const value = await readJsonPieces(outcome.pieces);
      putBackLongStrings(value, outcome.long ?? []);
      return value as BodyOf<Name>;
    }
    case "error":
      throw apiErrorOf(outcome.error);
    case "failure":
      throw new Error(outcome.message);
  }
}

/** Stops the body reader workers (tests, shutdown). */
export async function terminateBodyReaders(): Promise<void> {
  await Promise.all([...workers.values()].map((worker) => worker.terminate()));
}
