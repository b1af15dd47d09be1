/**
 * One run of an interaction: the generation's chunks become step events (step-assembler) in the
 * LiveInteraction its followers read, and, for a stored interaction, rows of its stream in the
 * store: written behind the events, a batch at a time (every 100 ms, or sooner when many are
 * waiting), never ahead of a follower and never in the way of the next chunk. The run ends
 * with `interaction.completed`, written with the interaction's result in one transaction. Long
 * strings (audio) are written apart, in pieces, before the rows that name them (long-texts.ts),
 * and the result names the pieces its stream's events stored. A store that refuses a write
 * (the interaction was cancelled or deleted elsewhere) stops the run; so does a cancel here,
 * which ends it `cancelled` with what it had made.
 */
import { ApiError } from "@/lib/gemini/api-error";
import { interactionErrorCode } from "@/lib/gemini/interactions/errors";
import type { InteractionEvent } from "@/lib/gemini/interactions/types";
import type {
  EventBatch,
  InteractionEnding,
  InteractionStore,
  StoredJson,
} from "@/lib/db/stores/interaction-store";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { stepsToContents } from "./generate-request";
import {
  completedEvent,
  errorEvent,
  interactionResource,
  typeLast,
  type InteractionHead,
  type InteractionResult,
} from "./interaction-resource";
import { interactionUsage } from "./interaction-usage";
import type { LiveInteraction } from "./live-interaction";
import { LongTextWriter } from "./long-texts";
import { StepAssembler } from "./step-assembler";

const FLUSH_EVERY_MS = 100;
const FLUSH_AT_EVENTS = 64;
/** How often a run whose events are all written checks that no other instance stopped it. */
const CHECK_EVERY_MS = 1_000;

export interface RunDependencies {
  store: InteractionStore;
  now: () => number;
  onError?: (message: string, error: unknown) => void;
  /** The run's result once it has ended (for runs whose usage no request records). */
  onEnded?: (result: InteractionResult) => void;
}

export class InteractionRun {
  private readonly assembler = new StepAssembler();
  /** Position of the first event not yet written to the store. */
  private written: number;
  private flushing: Promise<void> | null = null;
  private finishing = false;
  private lastWrite: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly texts: LongTextWriter;
  /** Events as stored, kept so a write tried again does not store their long strings again. */
  private readonly storedEvents = new WeakMap<InteractionEvent, StoredJson>();

  constructor(
    private readonly dependencies: RunDependencies,
    private readonly head: InteractionHead,
    private readonly live: LiveInteraction,
    private readonly chunks: AsyncIterator<GenerateContentResponse>,
    /** Position of the first event the store does not have (default: all in memory are stored). */
    written = live.nextPosition,
  ) {
    this.written = written;
    this.lastWrite = dependencies.now();
    this.texts = new LongTextWriter(dependencies.store, head.id);
  }

  /** Adds an event to the stream (stamped with its id) and writes behind it. */
  emit(event: InteractionEvent): void {
    this.live.append(this.live.stamp(event));
    this.scheduleWrite(false);
  }

  /** Runs from the first chunk (already pulled) to the end; never throws. */
  async run(first: IteratorResult<GenerateContentResponse>): Promise<void> {
    if (this.live.stored) this.timer = setInterval(() => this.scheduleWrite(true), FLUSH_EVERY_MS);
    this.timer?.unref?.();
    try {
      const signal = this.live.controller.signal;
      let next = first;
      while (!next.done) {
        signal.throwIfAborted();
        for (const event of this.assembler.push(next.value)) this.emit(event);
        next = await this.chunks.next();
      }
      signal.throwIfAborted();
      for (const event of this.assembler.end()) this.emit(event);
      await this.finish(this.assembler.status());
    } catch (error) {
      await this.stopped(error);
    } finally {
      clearInterval(this.timer);
      void Promise.resolve(this.chunks.return?.()).catch(() => undefined);
    }
  }

  private async stopped(error: unknown): Promise<void> {
    const reason = this.live.stopReason;
    if (reason === "cancel") return this.finish("cancelled");
    if (reason === "delete" || reason === "detached" || reason === "client")
      return this.live.end(reason === "detached");
    if (!(error instanceof ApiError))
      this.dependencies.onError?.(`interaction ${this.head.id} failed`, error);
    const apiError = error instanceof ApiError ? error : ApiError.internal();
    this.emit(errorEvent(interactionErrorCode(apiError.httpStatus), apiError.message));
    await this.finish("failed");
  }

  /** Writes the events not yet written, unless a write is already under way. */
  private scheduleWrite(byTimer: boolean): void {
    if (!this.live.stored || this.flushing || this.finishing || this.live.isEnded) return;
    const waiting = this.live.nextPosition - this.written;
    const elapsed = this.dependencies.now() - this.lastWrite;
    if (waiting >= FLUSH_AT_EVENTS || (waiting > 0 && elapsed >= FLUSH_EVERY_MS)) {
      this.flushing = this.write().finally(() => (this.flushing = null));
    } else if (byTimer && waiting === 0 && elapsed >= CHECK_EVERY_MS) {
      this.flushing = this.check().finally(() => (this.flushing = null));
    }
  }

  /** The events not written yet, as stored (their long strings written first). */
  private async pending(extra: InteractionEvent[] = []): Promise<EventBatch> {
    const from = this.written;
    const events: StoredJson[] = [];
    for (const event of [...this.live.from(from), ...extra]) {
      let stored = this.storedEvents.get(event);
      if (!stored) this.storedEvents.set(event, (stored = await this.texts.write(event)));
      events.push(stored);
    }
    return { from, events };
  }

  /** Deletes the pieces this run wrote for a write the store refused, when the interaction is gone. */
  private forgetPiecesIfGone(): void {
    void this.dependencies.store.deletePiecesOfGone(this.head.id).catch(() => undefined);
  }

  private async write(): Promise<void> {
    this.lastWrite = this.dependencies.now();
    try {
      const batch = await this.pending();
      if (await this.dependencies.store.appendEvents(this.head.id, batch, this.lastWrite))
        this.written = batch.from + batch.events.length;
      else {
        this.live.stop("detached");
        this.forgetPiecesIfGone();
      }
    } catch (error) {
      // The database is away for a moment: the next write carries these events too.
      this.dependencies.onError?.(`writing interaction ${this.head.id}'s events failed`, error);
    }
  }

  private async check(): Promise<void> {
    this.lastWrite = this.dependencies.now();
    try {
      if (!(await this.dependencies.store.isActive(this.head.id))) this.live.stop("detached");
    } catch {
      // Checked again at the next tick.
    }
  }

  /** Ends the run: its result and last events written together, then `interaction.completed`. */
  private async finish(status: InteractionEnding["status"]): Promise<void> {
    // From here the last events go with the result: no write of the timer's may move the
    // stream on while they are prepared (its long strings written in slices).
    this.finishing = true;
    await this.flushing;
    const result: InteractionResult = {
      steps: this.assembler.steps.map(typeLast),
      usage: interactionUsage(this.assembler.usageMetadata),
    };
    const now = this.dependencies.now();
    const head = { ...this.head, updateTime: now };
    const completed = this.live.stamp(completedEvent(head, status, result.usage));
    if (this.live.stored) {
      let finished = false;
      try {
        const batch = await this.pending([completed]);
        // The result's and the turns' audio are the events' audio: their pieces are reused.
        const ending: InteractionEnding = {
          status,
          result: await this.texts.write(result, { reuse: true }),
          outputContents: await this.texts.write(stepsToContents(result.steps, new Map()), {
            reuse: true,
          }),
        };
        finished = await this.dependencies.store.finish(this.head.id, ending, batch, now);
        if (!finished) this.forgetPiecesIfGone();
      } catch (error) {
        this.dependencies.onError?.(`ending interaction ${this.head.id} failed`, error);
      }
      // Ended elsewhere meanwhile (a cancel from another instance): the store has the last word.
      if (!finished) return this.live.end(true);
    }
    this.live.result = interactionResource(head, status, result);
    this.live.append(completed);
    this.live.end();
    this.dependencies.onEnded?.(result);
  }
}
