/**
 * The local engine's Interactions API over the generation core and the interaction store:
 * create (in the foreground, streamed or not, or in the background), get, follow a stream
 * (from its start or after an event), cancel, delete. An interaction is the caller's alone:
 * anyone else's, like a missing one, is not found. A stored interaction's run belongs to the
 * instance that claimed it and goes on when its client leaves (so the stream can be resumed);
 * an unstored one stops. Runs left behind by a stopped instance are taken up by any instance
 * that sees them: run again when nothing of their answer had been written, failed otherwise,
 * and never run more than MAX_RUNS times. Kept whole: create, follow and recovery share the
 * registry of runs in this process and the same setup of a run.
 */
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import {
  interactionNotFound,
  invalidInteraction,
  invalidInteractionField,
} from "@/lib/gemini/interactions/errors";
import type {
  Interaction,
  InteractionCreate,
  InteractionEvent,
  InteractionGetQuery,
  InteractionUsage,
} from "@/lib/gemini/interactions/types";
import type { Content, GenerateContentRequest, GenerateContentResponse } from "@/lib/gemini/types";
import {
  ACTIVE_INTERACTION_STATUSES,
  wholeJson,
  type InteractionRecord,
  type InteractionStore,
} from "@/lib/db/stores/interaction-store";
import type { InteractiveWork } from "../batches/interactive-work";
import { generateRequest, stepsToContents } from "./generate-request";
import { eventId, eventPosition, newInteractionId } from "./interaction-ids";
import {
  completedEvent,
  createdEvent,
  errorEvent,
  interactionResource,
  statusEvent,
  type InteractionHead,
  type InteractionResult,
} from "./interaction-resource";
import { InteractionRun, type RunDependencies } from "./interaction-run";
import { interactionTarget, withAgentProfile } from "./interaction-target";
import { LiveInteraction } from "./live-interaction";
import { stringifyJsonInSlices } from "@/lib/runtime/json-stringify-in-slices";
import { TimeSlices } from "@/lib/runtime/time-slices";
import { readStoredJson } from "./long-texts";

/** The generation core's stream for a request, validated by the model's rules and resolved for the caller. */
export type OpenGeneration = (input: {
  model: string;
  request: GenerateContentRequest;
  caller: Caller;
  signal: AbortSignal;
  stream: boolean;
  /** Output tokens a second at most (an agent's pace); absent: the engine's pace of streams. */
  pace?: number;
}) => Promise<AsyncIterator<GenerateContentResponse>>;

export interface InteractionServiceOptions {
  store: InteractionStore;
  openGeneration: OpenGeneration;
  interactive: InteractiveWork;
  now?: () => number;
  /** How often runs left behind are looked for (0: never; tests call `recover`). */
  recoveryIntervalMs?: number;
  /** How long an ended interaction is kept after its last update (the service keeps them 55 days). */
  retentionMs?: number;
  onError?: (message: string, error: unknown) => void;
  /**
   * The usage of a run that no request records, once it ends: a background interaction's (its
   * create answered before it spent anything), or one taken up after its instance stopped.
   * `caller` is its creator as the create named them (a run taken up: its workspace alone);
   * `model` the model or agent the create named.
   */
  onUnattendedUsage?: (ended: { caller: Caller; model: string; usage: InteractionUsage }) => void;
}

/** The events a stored interaction's stream opens with, before any of its answer. */
const HEADER_EVENTS = 2;
/** Runs of one interaction at most: one that keeps stopping its instance is failed, not retried forever. */
export const MAX_RUNS = 3;
const FOLLOW_PAGE = 256;
const FOLLOW_POLL_MS = 100;
const RETENTION_MS = 55 * 24 * 3_600_000;

/** An interaction just started: its head, and its run's events. */
export interface StartedInteraction {
  head: InteractionHead;
  live: LiveInteraction;
  background: boolean;
}

function isActive(status: string): boolean {
  return (ACTIVE_INTERACTION_STATUSES as readonly string[]).includes(status);
}

/** The words of the generation core's rules (written for generateContent) for this API. */
function asInteractionError(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.message.includes("GenerateContentRequest."))
    return error;
  return new ApiError(
    error.httpStatus,
    error.rpcStatus,
    error.message.replaceAll("GenerateContentRequest.", ""),
    error.details,
  );
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export class InteractionService {
  private readonly store: InteractionStore;
  private readonly now: () => number;
  /** Runs of stored interactions in this process, by id. */
  private readonly running = new Map<string, LiveInteraction>();
  private readonly timer: ReturnType<typeof setInterval> | undefined;
  private lastRetentionSweep = 0;
  private closed = false;

  constructor(private readonly options: InteractionServiceOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    const interval = options.recoveryIntervalMs ?? 5_000;
    if (interval > 0) {
      this.timer = setInterval(() => void this.recover(), interval);
      this.timer.unref?.();
    }
  }

  /**
   * Starts an interaction: everything the request can be refused for is checked, and the
   * generation has answered its first chunk, before anything is stored or answered.
   */
  async start(
    create: InteractionCreate,
    caller: Caller,
    signal: AbortSignal,
  ): Promise<StartedInteraction> {
    const target = interactionTarget(create);
    const { history, calls } = await this.conversation(create.previous_interaction_id, caller);
    const own = stepsToContents(create.input, calls);
    const request = generateRequest(
      target.agent ? withAgentProfile(create, target.agent) : create,
      [...history, ...own],
      target.entry.traits.thinking,
    );
    const id = newInteractionId(create.previous_interaction_id);
    const now = this.now();
    const head: InteractionHead = { id, shown: target.shown, createTime: now, updateTime: now };
    const live = new LiveInteraction(id, create.store, 0);
    const release = create.store ? await this.store.claim(id) : null;
    // A client that leaves an unstored interaction leaves nothing to come back to: it stops.
    if (!create.store) signal.addEventListener("abort", () => live.stop("client"), { once: true });
    try {
      const chunks = await this.options.openGeneration({
        model: target.entry.traits.name,
        request,
        caller,
        signal: live.controller.signal,
        stream: create.stream,
        ...(target.agent ? { pace: target.agent.outputTokensPerSecond } : {}),
      });
      const first = await chunks.next();
      live.append(live.stamp(createdEvent(head)));
      live.append(live.stamp(statusEvent(id, "in_progress")));
      if (create.store) {
        await this.store.create(
          {
            id,
            ownerId: caller.ownerId,
            previousId: create.previous_interaction_id ?? null,
            model: "model" in target.shown ? target.shown.model : null,
            agent: "agent" in target.shown ? target.shown.agent : null,
            status: "in_progress",
            background: create.background,
            // In slices: the input may be megabytes (a long text, inline media).
            requestJson: (await stringifyJsonInSlices(create))!,
            inputContentsJson: (await stringifyJsonInSlices(own))!,
            outputContents: null,
            result: null,
            seed: create.generation_config?.seed ?? 0,
            attempts: 1,
            eventCount: 0,
            createTime: now,
            updateTime: now,
          },
          live.from(0).map((event) => wholeJson(JSON.stringify(event))),
        );
        this.running.set(id, live);
      }
      const dependencies = create.background
        ? this.unattendedRunDependencies(caller, create)
        : this.runDependencies();
      const run = new InteractionRun(dependencies, head, live, chunks);
      this.launch(run, live, first, release);
      return { head, live, background: create.background };
    } catch (error) {
      live.stop("client");
      await release?.();
      throw asInteractionError(error);
    }
  }

  /** Runs `run` off the caller's request, counted as interactive work until it ends. */
  private launch(
    run: InteractionRun,
    live: LiveInteraction,
    first: IteratorResult<GenerateContentResponse>,
    release: (() => Promise<void>) | null,
  ): void {
    void this.options.interactive
      .run(() => run.run(first))
      .finally(async () => {
        if (this.running.get(live.id) === live) this.running.delete(live.id);
        await release?.().catch(() => undefined);
      });
  }

  private runDependencies(): RunDependencies {
    return { store: this.store, now: this.now, onError: this.options.onError };
  }

  /** A run's dependencies when no request records its usage: it is handed on as it ends. */
  private unattendedRunDependencies(caller: Caller, create: InteractionCreate): RunDependencies {
    const model = create.model ?? create.agent ?? "";
    return {
      ...this.runDependencies(),
      onEnded: (result) => {
        if (result.usage) this.options.onUnattendedUsage?.({ caller, model, usage: result.usage });
      },
    };
  }

  /** The conversation an interaction continues, as contents, and the names of its function calls by id. */
  private async conversation(
    previousId: string | undefined,
    caller: Caller,
  ): Promise<{ history: Content[]; calls: Map<string, string> }> {
    const calls = new Map<string, string>();
    if (previousId === undefined) return { history: [], calls };
    const previous = await this.store.get(previousId);
    if (!previous || previous.ownerId !== caller.ownerId)
      throw invalidInteractionField(
        "previous_interaction_id",
        `interaction '${previousId.slice(0, 200)}' was not found.`,
      );
    if (isActive(previous.status))
      throw invalidInteractionField(
        "previous_interaction_id",
        `interaction '${previousId.slice(0, 200)}' has not finished yet.`,
      );
    const history: Content[] = [];
    for (const turn of await this.store.conversation(previousId)) {
      history.push(...(JSON.parse(turn.input) as Content[]));
      if (turn.output)
        history.push(...(await readStoredJson<Content[]>(this.store, turn.id, turn.output)));
    }
    for (const content of history)
      for (const part of content.parts)
        if (part.functionCall?.id) calls.set(part.functionCall.id, part.functionCall.name);
    return { history, calls };
  }

  /**
   * What a create answers without a stream: the ended interaction, or, in the background, the
   * interaction as it has just begun.
   */
  async answer(started: StartedInteraction): Promise<Interaction> {
    const { head, live } = started;
    if (started.background) return interactionResource(head, "in_progress", null);
    await live.finished;
    // The run's own result is what it stored; one stopped from outside is read from the store.
    if (live.result) return live.result;
    if (live.stored) return this.get(head.id, null, { stream: false, includeInput: false });
    throw ApiError.internal("The interaction ended without an answer.");
  }

  /** The interaction `id` of `caller` (null: whoever owns it, for the answer to its own create). */
  private async owned(id: string, caller: Caller | null): Promise<InteractionRecord> {
    const record = await this.store.get(id);
    if (!record || (caller !== null && record.ownerId !== caller.ownerId))
      throw interactionNotFound(id);
    return record;
  }

  async get(id: string, caller: Caller | null, query: InteractionGetQuery): Promise<Interaction> {
    const record = await this.owned(id, caller);
    const result = record.result
      ? await readStoredJson<InteractionResult>(this.store, id, record.result)
      : null;
    const input = query.includeInput
      ? (JSON.parse(record.requestJson) as InteractionCreate).input
      : undefined;
    return interactionResource(headOf(record), record.status, result, input ? { input } : {});
  }

  /** A stored interaction's stream, from its first event or after `lastEventId`, until it ends. */
  async follow(
    id: string,
    caller: Caller,
    query: InteractionGetQuery,
    signal: AbortSignal,
  ): Promise<AsyncGenerator<InteractionEvent>> {
    const record = await this.owned(id, caller);
    let position = 0;
    if (query.lastEventId !== undefined) {
      const last = eventPosition(query.lastEventId);
      if (
        last === null ||
        last >= Math.max(record.eventCount, this.running.get(id)?.nextPosition ?? 0)
      )
        throw invalidInteractionField(
          "last_event_id",
          "is not an event of this interaction's stream.",
        );
      position = last + 1;
    }
    return this.events(id, position, signal);
  }

  /** The events of `id` from `position` on: from its run in this process, else from the store. */
  async *events(id: string, from: number, signal: AbortSignal): AsyncGenerator<InteractionEvent> {
    let position = from;
    const slices = new TimeSlices();
    for (;;) {
      const live = this.running.get(id);
      if (live && position >= live.base) {
        position = yield* live.follow(position, signal);
        if (signal.aborted || !live.isHandedOver) return;
      }
      const rows = await this.store.eventsFrom(id, position, FOLLOW_PAGE);
      for (const row of rows) {
        position = row.position + 1;
        yield await readStoredJson<InteractionEvent>(this.store, id, row.event, slices);
      }
      if (rows.length === FOLLOW_PAGE) continue;
      const progress = await this.store.progress(id);
      if (!progress || (!isActive(progress.status) && position >= progress.eventCount)) return;
      if (rows.length === 0 && !this.running.has(id)) await sleep(FOLLOW_POLL_MS, signal);
      if (signal.aborted) return;
    }
  }

  /** Cancels an interaction still running; one that has ended is answered as it is. */
  async cancel(id: string, caller: Caller): Promise<Interaction> {
    const record = await this.owned(id, caller);
    if (!isActive(record.status)) {
      if (record.status === "cancelled")
        return this.get(id, caller, { stream: false, includeInput: false });
      throw invalidInteraction(
        `Interaction '${id.slice(0, 200)}' has ended (${record.status}) and cannot be cancelled.`,
      );
    }
    const live = this.running.get(id);
    if (live) {
      live.stop("cancel");
      await live.finished;
    } else {
      await this.endFromOutside(record, "cancelled", null);
    }
    return this.get(id, caller, { stream: false, includeInput: false });
  }

  async delete(id: string, caller: Caller): Promise<void> {
    await this.owned(id, caller);
    await this.store.delete(id);
    this.running.get(id)?.stop("delete");
  }

  /** Ends an interaction no run of this process holds: its last events written with the ending. */
  private async endFromOutside(
    record: InteractionRecord,
    status: "cancelled" | "failed",
    failure: string | null,
  ): Promise<boolean> {
    const head = { ...headOf(record), updateTime: this.now() };
    const events = (position: number) => {
      const list: InteractionEvent[] = [];
      if (failure) list.push(errorEvent("internal_error", failure));
      list.push(completedEvent(head, status, undefined));
      return list.map((event, offset) =>
        wholeJson(JSON.stringify({ ...event, event_id: eventId(position + offset) })),
      );
    };
    return this.store.stop(
      record.id,
      { status, resultJson: JSON.stringify({ steps: [] } satisfies InteractionResult) },
      { count: failure ? 2 : 1, events },
      head.updateTime,
    );
  }

  /**
   * Takes up runs no instance holds any more (their instance stopped): each is run again when
   * nothing of its answer had been stored and it has not been run MAX_RUNS times, else failed.
   * Also sweeps interactions past their retention. Never throws.
   */
  async recover(): Promise<void> {
    if (this.closed) return;
    try {
      for (const record of await this.store.active(16)) {
        if (this.closed) return;
        if (this.running.has(record.id)) continue;
        const release = await this.store.claim(record.id);
        if (!release) continue;
        let handedToRun = false;
        try {
          const fresh = await this.store.get(record.id);
          if (!fresh || !isActive(fresh.status)) continue;
          if (fresh.attempts >= MAX_RUNS || fresh.eventCount > HEADER_EVENTS)
            await this.endFromOutside(
              fresh,
              "failed",
              "The interaction was interrupted and could not be resumed.",
            );
          else handedToRun = await this.rerun(fresh, release);
        } finally {
          if (!handedToRun) await release();
        }
      }
      const now = this.now();
      if (now - this.lastRetentionSweep >= 60_000) {
        this.lastRetentionSweep = now;
        await this.store.sweep(now - (this.options.retentionMs ?? RETENTION_MS));
      }
    } catch (error) {
      this.options.onError?.("looking after interactions failed", error);
    }
  }

  /** Runs a stored interaction again after its instance stopped; false when it could not start. */
  private async rerun(record: InteractionRecord, release: () => Promise<void>): Promise<boolean> {
    const live = new LiveInteraction(record.id, true, record.eventCount);
    try {
      const create = JSON.parse(record.requestJson) as InteractionCreate;
      const target = interactionTarget(create);
      const { history } = await this.conversation(create.previous_interaction_id, {
        ownerId: record.ownerId,
      });
      const request = generateRequest(
        target.agent ? withAgentProfile(create, target.agent) : create,
        [...history, ...(JSON.parse(record.inputContentsJson) as Content[])],
        target.entry.traits.thinking,
      );
      if ((await this.store.startRun(record.id, this.now())) === null) return false;
      this.running.set(record.id, live);
      const chunks = await this.options.openGeneration({
        model: target.entry.traits.name,
        request,
        caller: { ownerId: record.ownerId },
        signal: live.controller.signal,
        stream: create.stream,
        ...(target.agent ? { pace: target.agent.outputTokensPerSecond } : {}),
      });
      const first = await chunks.next();
      const head = headOf(record);
      // A run whose header events were never written (none are stored yet) writes them first.
      if (record.eventCount === 0) {
        live.append(live.stamp(createdEvent(head)));
        live.append(live.stamp(statusEvent(record.id, "in_progress")));
      }
      const run = new InteractionRun(
        this.unattendedRunDependencies({ ownerId: record.ownerId }, create),
        head,
        live,
        chunks,
        record.eventCount,
      );
      this.launch(run, live, first, release);
      return true;
    } catch (error) {
      this.running.delete(record.id);
      const message =
        error instanceof ApiError ? error.message : "The interaction could not be run.";
      if (!(error instanceof ApiError))
        this.options.onError?.(`interaction ${record.id} could not run`, error);
      await this.endFromOutside(record, "failed", message);
      return false;
    }
  }

  /** Stops looking after runs, and stops this process's runs (stored ones are taken up again later). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const runs = [...this.running.values()];
    for (const live of runs) live.stop("detached");
    await Promise.all(runs.map((live) => live.finished));
  }
}

function headOf(record: InteractionRecord): InteractionHead {
  return {
    id: record.id,
    shown: record.agent !== null ? { agent: record.agent } : { model: record.model ?? "" },
    createTime: record.createTime,
    updateTime: record.updateTime,
  };
}
