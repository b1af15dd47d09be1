/**
 * The file lifecycle's background step: each finalized file is probed with the media
 * libraries (dimensions, duration, pages, text decoding) off the request path and moves
 * PROCESSING → ACTIVE, or → FAILED with `error` when its media is corrupt or unsupported.
 */
import type { ProbedMedia } from "../media/probe";
import type { FileRecord, FileStore } from "@/lib/db/stores/file-store";

/** Learns what a file's bytes are (lib/engine/media/probe). */
export type MediaProber = (
  filePath: string,
  mimeType: string,
  signal?: AbortSignal,
) => Promise<ProbedMedia>;

/**
 * How a file is processed when told otherwise (the emulator's controls): it stays PROCESSING
 * `delayMs` longer, and ends FAILED with `fail` instead of ACTIVE.
 */
export interface ProcessingPlan {
  delayMs: number;
  fail?: { code: number; message: string };
}

export interface FileProcessorOptions {
  /** A file's processing plan, when one is set for its owner and type. */
  processingPlan?: (file: { ownerId: string; mimeType: string }) => ProcessingPlan | undefined;
  store: FileStore;
  filePath: (fileId: string) => string;
  probe: MediaProber;
  /** Tells a media problem (the file's fault: FAILED with INVALID_ARGUMENT) from our own failure. */
  isMediaProblem: (error: unknown) => boolean;
  now: () => number;
  onError?: (message: string, error: unknown) => void;
  /** Files probed at once; the machine has few cores. */
  concurrency?: number;
  probeTimeoutMs?: number;
}

/** Longest a probe may run before the file is FAILED. */
export const PROBE_TIMEOUT_MS = 10 * 60_000;

/**
 * Probes in a row a file may have: one cut short by a restart is probed again; a file whose
 * probe stopped the process twice is FAILED rather than probed into another crash.
 */
export const PROBES_PER_FILE = 2;

class ProbeTimeoutError extends Error {}

/** google.rpc.Code numbers carried in File.error.code. */
const RPC_INVALID_ARGUMENT = 3;
const RPC_INTERNAL = 13;

/** A small work queue that probes files one (or a few) at a time. */
export class FileProcessor {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private running = 0;
  /** Files whose planned delay is over: processed when next taken from the queue. */
  private readonly delayed = new Set<string>();
  private readonly controller = new AbortController();

  constructor(private readonly options: FileProcessorOptions) {}

  /** Queues a PROCESSING file for probing (no-op when it is already queued). */
  enqueue(fileId: string): void {
    if (this.controller.signal.aborted || this.queued.has(fileId)) return;
    this.queued.add(fileId);
    this.queue.push(fileId);
    this.pump();
  }

  /** Resolves when the file has been processed, or after `timeoutMs`, whichever is first. */
  waitFor(fileId: string, timeoutMs: number): Promise<void> {
    if (!this.queued.has(fileId)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      let set = this.waiters.get(fileId);
      if (!set) this.waiters.set(fileId, (set = new Set()));
      const waiters = set;
      function done(): void {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
  }

  /** True while the file is queued or being probed. */
  isPending(fileId: string): boolean {
    return this.queued.has(fileId);
  }

  /** Stops taking work and aborts probes in flight (their files stay PROCESSING and are re-probed at the next start). */
  stop(): void {
    this.controller.abort();
  }

  private pump(): void {
    const limit = this.options.concurrency ?? 2;
    while (this.running < limit && this.queue.length > 0) {
      const fileId = this.queue.shift()!;
      this.running++;
      void this.process(fileId).finally(() => {
        this.running--;
        this.queued.delete(fileId);
        for (const waiter of [...(this.waiters.get(fileId) ?? [])]) waiter();
        this.waiters.delete(fileId);
        this.pump();
      });
    }
  }

  /** A probe that never ends must not hold a worker slot forever. */
  private probeWithDeadline(fileId: string, mimeType: string): Promise<ProbedMedia> {
    const deadline = this.options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ProbeTimeoutError(
              `Processing the file took longer than ${Math.round(deadline / 1000)} s.`,
            ),
          ),
        deadline,
      );
    });
    return Promise.race([
      this.options.probe(this.options.filePath(fileId), mimeType, this.controller.signal),
      timeout,
    ]).finally(() => clearTimeout(timer));
  }

  /**
   * Follows a processing plan: a delay first, waited without holding a worker slot (the file is
   * queued again when it is over); then FAILED when the plan says so (true: nothing left to do).
   */
  private async followPlan(fileId: string, plan: ProcessingPlan): Promise<boolean> {
    if (plan.delayMs > 0 && !this.delayed.delete(fileId)) {
      const timer = setTimeout(() => {
        this.delayed.add(fileId);
        this.enqueue(fileId);
      }, plan.delayMs);
      this.controller.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
      return true;
    }
    if (!plan.fail) return false;
    await this.options.store.finishProcessing(
      fileId,
      { state: "FAILED", error: plan.fail, probe: null },
      this.options.now(),
    );
    return true;
  }

  private async process(fileId: string): Promise<void> {
    const { store } = this.options;
    const file: FileRecord | undefined = await store.getFile(fileId);
    if (!file || file.state !== "PROCESSING") return;
    const plan = this.options.processingPlan?.(file);
    if (plan && (await this.followPlan(fileId, plan))) return;
    await this.probeAndFinish(fileId, file);
  }

  private async probeAndFinish(fileId: string, file: FileRecord): Promise<void> {
    const { store } = this.options;
    const attempts = await store.startProbeAttempt(fileId);
    if (attempts > PROBES_PER_FILE) {
      await store.finishProcessing(
        fileId,
        {
          state: "FAILED",
          error: {
            code: RPC_INTERNAL,
            message: `The file was not processed again: the server stopped ${attempts - 1} times in a row while processing it.`,
          },
          probe: null,
        },
        this.options.now(),
      );
      return;
    }
    try {
      const probed = await this.probeWithDeadline(fileId, file.mimeType);
      // Decoded text stays on disk: it is read again when a request uses the file.
      const { text: _text, ...probe } = probed;
      await store.finishProcessing(
        fileId,
        { state: "ACTIVE", error: null, probe },
        this.options.now(),
      );
    } catch (error) {
      // Stopped by a clean shutdown: probed again at the next start, as if never begun.
      if (this.controller.signal.aborted) return await store.endProbeAttempt(fileId);
      if (!(await store.getFile(fileId))) return;
      const mediaProblem = this.options.isMediaProblem(error) || error instanceof ProbeTimeoutError;
      if (!mediaProblem) this.options.onError?.(`probing files/${fileId} failed`, error);
      const message =
        mediaProblem && error instanceof Error
          ? error.message
          : "The file could not be processed because of an internal error.";
      await store.finishProcessing(
        fileId,
        {
          state: "FAILED",
          error: { code: mediaProblem ? RPC_INVALID_ARGUMENT : RPC_INTERNAL, message },
          probe: null,
        },
        this.options.now(),
      );
    }
  }
}
