/**
 * Runs batches in the background, one batch at a time and at most `concurrency` requests of
 * it at once, always behind interactive work (see InteractiveWork). Outcomes are committed
 * in request order, so a stop at any moment resumes after the last committed request: a
 * batch that was running is picked up first when the engine starts again. Each request is
 * answered as generateContent (an embedding batch's as embedContent) would answer it for the
 * batch's owner; one failing request fails only itself. Where the requests come from is
 * batch-items.ts. A little over 400 lines, whole: the claim, the ordered commits and the
 * resume at start are one protocol, read together.
 */
import fs from "node:fs/promises";
import { ApiError, rpcStatusOf } from "@/lib/gemini/api-error";
import type { EmbedContentRequest, EmbedContentResponse } from "@/lib/gemini/embedding-types";
import type {
  GenerateContentRequest,
  GenerateContentResponse,
  OperationStatus,
} from "@/lib/gemini/types";
import type { FileService } from "../files/file-service";
import { writeAll } from "../files/part-file";
import { mergeChunks } from "../generate";
import type { BatchRecord } from "@/lib/db/stores/batch-store";
import { DEFAULT_MAX_LINE_BYTES, fileItems, inlineItems, type WorkItem } from "./batch-items";
import { resultsFileId } from "./batch-paths";
import { batchKind, type BatchService, type BatchWork } from "./batch-service";
import type { InteractiveWork } from "./interactive-work";
import { jsonBytePieces, stringifyJsonInSlices } from "@/lib/runtime/json-stringify-in-slices";

/** One request's generation, for the batch's owner: validated by the rules, then streamed. */
export type BatchGeneration = (input: {
  model: string;
  request: GenerateContentRequest;
  ownerId: string;
  signal: AbortSignal;
}) => AsyncIterable<GenerateContentResponse>;

/** One request's embedding, for the batch's owner: validated by the rules, then embedded. */
export type BatchEmbedding = (input: {
  model: string;
  request: EmbedContentRequest;
  ownerId: string;
  signal: AbortSignal;
}) => Promise<EmbedContentResponse>;

export interface BatchRunnerOptions {
  service: BatchService;
  files: FileService;
  generate: BatchGeneration;
  embed: BatchEmbedding;
  interactive: InteractiveWork;
  /** Requests of one batch in flight at once (default 2). */
  concurrency?: number;
  /** Longest JSONL line read as a request (default 20 MiB, the service's inline limit). */
  maxLineBytes?: number;
  now?: () => number;
  onError?: (message: string, error: unknown) => void;
  /** Each answer once it is committed: its usage is recorded for the batch's owner. */
  onAnswer?: (answer: {
    ownerId: string;
    model: string;
    response: GenerateContentResponse;
  }) => void;
}

interface Outcome {
  item: WorkItem;
  /** How long the request took, waits for interactive work included. */
  milliseconds: number;
  response?: GenerateContentResponse | EmbedContentResponse;
  error?: OperationStatus;
}

/** How often an idle runner looks for work another instance left or created. */
const POLL_MS = 5_000;
const NEW_LINE = new Uint8Array([0x0a]);
/** Candidates looked at per round: the first may be another instance's. */
const CANDIDATES = 16;
/**
 * While interactive callers were seen this recently, a batch runs one request at a time and
 * rests after each for `REST_FACTOR` times as long as it took (so it takes at most half the
 * time). Waiting for idle moments is
 * not enough on its own: generation allocates heavily, and the garbage collector's pauses
 * (tens of ms, measured) land on whichever request is running when they come, so the batch's
 * share of the time is what interactive latency pays for. With no interactive traffic the
 * batch runs at full speed.
 */
const RECENT_INTERACTIVE_MS = 2_000;
/**
 * Starts in a row that may find a batch at the same committed request: one interrupted start
 * (a restart, a deploy) is resumed; work that stopped the process twice at the same place is
 * not run a third time, but ends FAILED, so one request cannot keep the server in a crash loop.
 */
export const STARTS_WITHOUT_PROGRESS = 2;
const REST_FACTOR = 1;
const LONGEST_REST_MS = 1_000;
class BatchStopped extends Error {
  constructor() {
    super("batch work stopped");
    this.name = "BatchStopped";
  }
}

export class BatchRunner implements BatchWork {
  private readonly now: () => number;
  private readonly concurrency: number;
  private current: { id: string; controller: AbortController } | null = null;
  private closed = false;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly options: BatchRunnerOptions) {
    this.now = options.now ?? Date.now;
    this.concurrency = Math.max(1, options.concurrency ?? 2);
  }

  /** Starts working through waiting batches (an interrupted one first). */
  start(): void {
    this.loop ??= this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  stop(batchId: string): void {
    if (this.current?.id === batchId) this.current.controller.abort();
  }

  /** Stops at once; running batches stay RUNNING and resume at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    this.current?.controller.abort();
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      let worked = false;
      try {
        worked = await this.workOnNext();
      } catch (error) {
        // The database went away for a moment, say: the next round tries again.
        this.options.onError?.("looking for batch work failed", error);
      }
      if (!worked) await this.sleep();
    }
  }

  /** Works on the first waiting batch no other instance holds; false when there was none. */
  private async workOnNext(): Promise<boolean> {
    const { store } = this.options.service;
    for (const candidate of await store.runnable(CANDIDATES)) {
      if (this.closed) return true;
      const release = await store.claim(candidate.id);
      if (!release) continue;
      try {
        // Read again under the claim: another instance may have moved it on meanwhile.
        const batch = await store.get(candidate.id);
        if (
          !batch ||
          (batch.state !== "BATCH_STATE_PENDING" && batch.state !== "BATCH_STATE_RUNNING")
        )
          continue;
        await this.work(batch);
        return true;
      } finally {
        await release();
      }
    }
    return false;
  }

  private async work(batch: BatchRecord): Promise<void> {
    const controller = new AbortController();
    this.current = { id: batch.id, controller };
    try {
      await this.process(batch, controller.signal);
    } catch (error) {
      if (!(error instanceof BatchStopped) && !controller.signal.aborted) {
        this.options.onError?.(`batch batches/${batch.id} failed`, error);
        await this.fail(batch, error);
      }
      // A clean shutdown is no failed start: the batch resumes at the next start as ever.
      if (this.closed) await this.options.service.store.endAttempt(batch.id);
    } finally {
      this.current = null;
    }
  }

  /** Waits for a wake-up, or for the next poll (work of other instances is not woken for). */
  private async sleep(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      timer.unref?.();
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = null;
    this.woken = false;
  }

  private async process(batch: BatchRecord, signal: AbortSignal): Promise<void> {
    const { store } = this.options.service;
    // PENDING until its first request can really start.
    await this.options.interactive.idle(signal);
    if (signal.aborted) throw new BatchStopped();
    await store.markRunning(batch.id, this.now());
    const attempts = await store.startAttempt(batch.id);
    if (attempts > STARTS_WITHOUT_PROGRESS) throw crashLoop(batch, attempts - 1);
    if (batch.inputFileName === null) {
      await this.runAll(
        batch,
        inlineItems(this.options.service.store, batch, signal),
        signal,
        async (outcome) =>
          store.commit(
            batch.id,
            {
              position: outcome.item.position,
              succeeded: outcome.response !== undefined,
              // In slices: a speech answer is tens of megabytes of base64, made from its bytes.
              outcomeJson: (await stringifyJsonInSlices(
                outcome.response ? { response: outcome.response } : { error: outcome.error },
              ))!,
            },
            this.now(),
          ),
      );
      if (!(await store.finish(batch.id, { state: "BATCH_STATE_SUCCEEDED" }, this.now())))
        throw new BatchStopped();
      return;
    }
    await this.runFile(batch, signal);
  }

  /** File input: results appended to the batch's results file, committed with the bytes read and written. */
  private async runFile(batch: BatchRecord, signal: AbortSignal): Promise<void> {
    const { service, files } = this.options;
    const resultsPath = service.paths.results(batch.id);
    const handle = await fs.open(resultsPath, batch.outputBytes > 0 ? "r+" : "w");
    let outputBytes = batch.outputBytes;
    try {
      // Anything written after the last commit (a stop mid-way) is rewritten.
      await handle.truncate(outputBytes);
      await this.runAll(
        batch,
        fileItems(
          this.options.service.paths.input(batch.id),
          batch,
          batchKind(batch),
          this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
          signal,
        ),
        signal,
        async (outcome) => {
          // Written as its pieces are made: a speech answer's line is tens of megabytes.
          const { pieces } = await jsonBytePieces(resultLine(outcome));
          const line = [...pieces, NEW_LINE];
          await writeAll(handle, line, outputBytes);
          for (const piece of line) outputBytes += piece.byteLength;
          return service.store.commit(
            batch.id,
            {
              position: outcome.item.position,
              succeeded: outcome.response !== undefined,
              inputOffset: outcome.item.inputEnd,
              outputBytes,
            },
            this.now(),
          );
        },
      );
      await handle.sync();
    } finally {
      await handle.close();
    }
    const file = await files.prepareGenerated({
      id: resultsFileId(batch.id),
      ownerId: batch.ownerId,
      displayName: null,
      mimeType: "application/jsonl",
      sourcePath: resultsPath,
    });
    const finished = await service.store.finish(
      batch.id,
      { state: "BATCH_STATE_SUCCEEDED", resultsFile: file },
      this.now(),
    );
    if (!finished) await files.discardGenerated(file.id);
    await fs.rm(resultsPath, { force: true });
    await fs.rm(service.paths.input(batch.id), { force: true });
    if (!finished) throw new BatchStopped();
  }

  /**
   * Runs the items with up to `concurrency` in flight and commits their outcomes in order.
   * A commit that answers false means the batch ended meanwhile (cancelled, deleted,
   * expired): the work stops there.
   */
  private async runAll(
    batch: BatchRecord,
    items: AsyncIterable<WorkItem>,
    signal: AbortSignal,
    commit: (outcome: Outcome) => boolean | Promise<boolean>,
  ): Promise<void> {
    const { interactive } = this.options;
    const inFlight: Promise<Outcome>[] = [];
    const commitOldest = async () => {
      const outcome = await inFlight.shift()!;
      if (signal.aborted || !(await commit(outcome))) throw new BatchStopped();
      if (outcome.response)
        this.options.onAnswer?.({
          ownerId: batch.ownerId,
          model: batch.model,
          response: outcome.response,
        });
      if (interactive.recentlyBusy(RECENT_INTERACTIVE_MS))
        await rest(Math.min(outcome.milliseconds * REST_FACTOR, LONGEST_REST_MS), signal);
    };
    try {
      for await (const item of items) {
        await interactive.idle(signal);
        if (signal.aborted) throw new BatchStopped();
        const running = this.execute(batch, item, signal);
        // Awaited in order below; until then a stop's rejection must not count as unhandled.
        running.catch(() => undefined);
        inFlight.push(running);
        const limit = interactive.recentlyBusy(RECENT_INTERACTIVE_MS) ? 1 : this.concurrency;
        while (inFlight.length >= limit) await commitOldest();
      }
      while (inFlight.length) await commitOldest();
    } finally {
      // Settle what is still running before leaving, so nothing outlives the batch's turn.
      await Promise.allSettled(inFlight);
    }
  }

  private async execute(batch: BatchRecord, item: WorkItem, signal: AbortSignal): Promise<Outcome> {
    const started = performance.now();
    const outcome = await this.answer(batch, item, signal);
    return { ...outcome, milliseconds: performance.now() - started };
  }

  private async answer(
    batch: BatchRecord,
    item: WorkItem,
    signal: AbortSignal,
  ): Promise<Omit<Outcome, "milliseconds">> {
    if (item.problem) return { item, error: rpcStatusOf(item.problem) };
    try {
      const request = item.request!;
      const embeds = batchKind(batch) === "embed";
      if (request.model !== undefined && request.model !== batch.model) {
        const requestName = embeds ? "EmbedContentRequest" : "GenerateContentRequest";
        throw ApiError.invalidArgument(
          `* ${requestName}.model: the request's model ${JSON.stringify(request.model)} differs from the batch's (${batch.model}).`,
          [{ field: "model", description: "must be the batch's model" }],
        );
      }
      const owner = { model: batch.model, ownerId: batch.ownerId, signal };
      if (embeds) {
        const response = await this.options.embed({
          ...owner,
          request: request as EmbedContentRequest,
        });
        if (signal.aborted) throw new BatchStopped();
        return { item, response };
      }
      const chunks: GenerateContentResponse[] = [];
      const stream = this.options.generate({
        ...owner,
        request: request as GenerateContentRequest,
      });
      for await (const chunk of stream) {
        chunks.push(chunk);
        // Between slices of the answer, interactive callers go first.
        await this.options.interactive.idle(signal);
        if (signal.aborted) throw new BatchStopped();
      }
      if (signal.aborted) throw new BatchStopped();
      return { item, response: mergeChunks(chunks) };
    } catch (error) {
      if (signal.aborted || error instanceof BatchStopped) throw new BatchStopped();
      if (error instanceof ApiError) return { item, error: rpcStatusOf(error) };
      this.options.onError?.(`batch batches/${batch.id} request ${item.position} failed`, error);
      return { item, error: rpcStatusOf(ApiError.internal()) };
    }
  }

  /** A batch that could not be worked through at all ends FAILED, its work files removed. */
  private async fail(batch: BatchRecord, error: unknown): Promise<void> {
    const { service } = this.options;
    const message =
      error instanceof ApiError
        ? error.message
        : "The batch could not be processed because of an internal error.";
    await service.store.finish(
      batch.id,
      { state: "BATCH_STATE_FAILED", error: { code: 13, message } },
      this.now(),
    );
    await service.store.clearRequests(batch.id);
    await fs.rm(service.paths.input(batch.id), { force: true });
    await fs.rm(service.paths.results(batch.id), { force: true });
  }
}

/** The error a batch ends with when the process stopped while running it, start after start. */
function crashLoop(batch: BatchRecord, stops: number): ApiError {
  return new ApiError(
    500,
    "INTERNAL",
    `The batch was not run again: the server stopped ${stops} times in a row while running it, at request ${batch.doneCount + 1} of ${batch.requestCount}.`,
  );
}

/** Waits `milliseconds`, or less when `signal` aborts. */
function rest(milliseconds: number, signal: AbortSignal): Promise<void> {
  if (milliseconds <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** One line of the results file: the response or the error, then the request's key, as the service writes them. */
function resultLine(outcome: Outcome): Record<string, unknown> {
  const line: Record<string, unknown> = outcome.response
    ? { response: outcome.response }
    : { error: outcome.error };
  if (outcome.item.key !== undefined) line.key = outcome.item.key;
  if (outcome.item.metadata !== undefined) line.metadata = outcome.item.metadata;
  return line;
}
