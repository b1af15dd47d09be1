/**
 * Main-thread side of the PDF worker (pdf-worker.mjs): a document's page sizes, read off the
 * request thread. One worker, started on first use and kept while it has work (it does not
 * hold the process open when idle); a worker that dies fails the documents it was reading and
 * is started again for the next.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { TimeSlices } from "@/lib/runtime/time-slices";

/** Where the worker script lives, relative to the repository root (the server's cwd). */
export const PDF_WORKER_SCRIPT = "lib/engine/media/pdf-worker.mjs";

export interface PageSize {
  width: number;
  height: number;
}

/** The worker could not read the document (its message says why). */
export class PdfReadError extends Error {
  override readonly name = "PdfReadError";
}

type Reply = { id: number; pageSizes: PageSize[] } | { id: number; error: string };

interface Pending {
  resolve: (sizes: PageSize[]) => void;
  reject: (error: Error) => void;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

/**
 * The worker script as a file URL built at run time (a literal path would be rewritten by
 * the bundler into a module id; the worker is not bundled on purpose).
 */
function workerScriptUrl(): URL {
  return pathToFileURL(path.resolve(process.cwd(), PDF_WORKER_SCRIPT));
}

function ensureWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(workerScriptUrl(), { name: "pdf-pages" });
  started.on("message", (reply: Reply) => {
    const job = pending.get(reply.id);
    if (!job) return;
    pending.delete(reply.id);
    holdProcess();
    if ("error" in reply) job.reject(new PdfReadError(reply.error));
    else job.resolve(reply.pageSizes);
  });
  const fail = (error: Error) => {
    if (worker !== started) return;
    worker = undefined;
    const failed = [...pending.values()];
    pending.clear();
    for (const job of failed) job.reject(new PdfReadError(`the reader stopped (${error.message})`));
  };
  started.on("error", fail);
  started.on("exit", (code) => fail(new Error(`exit code ${code}`)));
  worker = started;
  return started;
}

/** The worker keeps the process alive only while it has documents to read. */
function holdProcess(): void {
  if (!worker) return;
  if (pending.size) worker.ref();
  else worker.unref();
}

/** Bytes posted to the worker in one message at most. */
const PIECE_BYTES = 1024 * 1024;

/** A document's page sizes, from a file (read by the worker, at most `limit` bytes) or bytes. */
export async function pdfPageSizes(
  input: { path: string; limit: number } | { bytes: Uint8Array },
  signal?: AbortSignal,
): Promise<PageSize[]> {
  const id = nextId++;
  const target = ensureWorker();
  const answered = new Promise<PageSize[]>((resolve, reject) => {
    const onAbort = () => {
      if (!pending.delete(id)) return;
      target.postMessage({ type: "cancel", id });
      holdProcess();
      reject(signal!.reason instanceof Error ? signal!.reason : new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const settle = () => signal?.removeEventListener("abort", onAbort);
    pending.set(id, {
      resolve: (sizes) => {
        settle();
        resolve(sizes);
      },
      reject: (error) => {
        settle();
        reject(error);
      },
    });
  });
  holdProcess();
  if ("path" in input) {
    target.postMessage({ type: "file", id, path: input.path, limit: input.limit });
    return answered;
  }
  // Posted a megabyte at a time with turns of the event loop between: one message of tens
  // of megabytes is copied on this thread in one go.
  const { bytes } = input;
  const slices = new TimeSlices();
  target.postMessage({ type: "begin", id, size: bytes.byteLength });
  for (let from = 0; from < bytes.byteLength && pending.has(id); from += PIECE_BYTES) {
    // A copy of the piece, moved: a view would be cloned with its whole buffer.
    const piece = bytes.slice(from, from + PIECE_BYTES);
    target.postMessage({ type: "piece", id, bytes: piece }, [piece.buffer]);
    if (slices.due()) await slices.pause();
  }
  if (pending.has(id)) target.postMessage({ type: "end", id });
  return answered;
}
