/**
 * The events of an interaction being run in this process, in memory, for everyone following
 * it here: the stream of its create, and any `get ?stream=true` (a resume) of it. Each event
 * gets its `event_id` (its position in the stream) when the interaction is stored. Followers
 * wait for the next event without polling; positions before the run's first event in memory
 * (a run resumed after a restart) are read from the store by the follower.
 */
import type { Interaction, InteractionEvent } from "@/lib/gemini/interactions/types";
import { eventId } from "./interaction-ids";

export class LiveInteraction {
  private readonly events: InteractionEvent[] = [];
  private waiting = new Set<() => void>();
  private ended = false;
  /** Set when another instance or a delete took the interaction over: read the store from here on. */
  private handedOver = false;
  /** Aborts the run (a cancel, a delete, or a client that left an unstored interaction). */
  readonly controller = new AbortController();
  /** Why the run was aborted, when it was. */
  stopReason: "cancel" | "delete" | "detached" | "client" | undefined;
  /** The interaction as its run ended it (absent when the run was stopped from outside). */
  result: Interaction | undefined;
  /** Resolves once the run has ended and written its last event. */
  readonly finished: Promise<void>;
  private resolveFinished!: () => void;

  constructor(
    readonly id: string,
    readonly stored: boolean,
    /** Position of the first event this run makes (events before it are in the store). */
    readonly base: number,
  ) {
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
  }

  /** The position the next event will have. */
  get nextPosition(): number {
    return this.base + this.events.length;
  }

  /** `event` with the event id of the next position, when stored. */
  stamp<Event extends InteractionEvent>(event: Event): Event {
    return this.stored ? { ...event, event_id: eventId(this.nextPosition) } : event;
  }

  /** Adds an event (stamped) and wakes the followers. */
  append(event: InteractionEvent): void {
    this.events.push(event);
    this.wake();
  }

  /** The events from `position` on that this run holds in memory. */
  from(position: number): InteractionEvent[] {
    return this.events.slice(Math.max(0, position - this.base));
  }

  get isEnded(): boolean {
    return this.ended;
  }

  get isHandedOver(): boolean {
    return this.handedOver;
  }

  stop(reason: NonNullable<LiveInteraction["stopReason"]>): void {
    this.stopReason ??= reason;
    this.controller.abort();
  }

  /** The run is over; `handedOver` when its last events are in the store rather than here. */
  end(handedOver = false): void {
    this.handedOver ||= handedOver;
    this.ended = true;
    this.wake();
    this.resolveFinished();
  }

  /**
   * Yields the in-memory events from `position` on as they come, until the run ends; answers
   * the position after the last one yielded. Stops waiting when `signal` aborts.
   */
  async *follow(position: number, signal: AbortSignal): AsyncGenerator<InteractionEvent, number> {
    let next = Math.max(position, this.base);
    for (;;) {
      const ready = this.from(next);
      for (const event of ready) {
        next += 1;
        yield event;
      }
      // Events may have come while the last ones were taken: the end is the end once all are out.
      if (ready.length > 0) continue;
      if (this.ended || signal.aborted) return next;
      await this.wait(signal);
    }
  }

  private wait(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.waiting.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.waiting.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = new Set();
    for (const resolve of waiting) resolve();
  }
}
