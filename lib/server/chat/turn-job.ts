import "server-only";
import type { AccumulatedResponse } from "@/lib/studio/accumulate-response";
import { answerMessage } from "@/lib/studio/chat-request";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import type { TurnEvent } from "@/lib/studio/turn-events";

/**
 * An answer being generated in this process, and its readers: each reader gets the job's
 * events from the moment it joined, a slow one a snapshot in place of what it fell behind on.
 */

export type Finished = Extract<TurnEvent, { done: unknown }>["done"];

export interface TurnJob {
  ownerId: string;
  conversationId: string;
  answer: StoredMessage;
  response: AccumulatedResponse;
  listeners: Set<(event: TurnEvent) => void>;
  controller: AbortController;
  finished: Finished | null;
}

/** Events a slow reader may have waiting before they are folded into one snapshot. */
const QUEUED_EVENTS = 256;

export function emit(job: TurnJob, event: TurnEvent): void {
  for (const listener of job.listeners) listener(event);
}

/** The answer as it stands, still streaming. */
export function currentAnswer(job: TurnJob): StoredMessage {
  return {
    ...job.answer,
    ...answerMessage(job.answer.id, job.response, job.answer.settings!, {}),
    streaming: true,
  };
}

/**
 * The live job's events from now on: first `first`, then each chunk, then done. The listener
 * is registered at once, not when the reader first pulls, so no chunk falls in between.
 */
export function live(
  job: TurnJob,
  first: TurnEvent,
  signal: AbortSignal,
): AsyncGenerator<TurnEvent> {
  const queue: TurnEvent[] = [first];
  let wake: (() => void) | null = null;
  const listener = (event: TurnEvent) => {
    if (queue.length >= QUEUED_EVENTS && !("done" in event))
      queue.splice(0, queue.length, { snapshot: currentAnswer(job) });
    else queue.push(event);
    wake?.();
  };
  if (job.finished) queue.push({ done: job.finished });
  else job.listeners.add(listener);
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  return (async function* () {
    try {
      for (;;) {
        while (queue.length) {
          const event = queue.shift()!;
          yield event;
          if ("done" in event) return;
        }
        if (signal.aborted) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    } finally {
      job.listeners.delete(listener);
      signal.removeEventListener("abort", onAbort);
    }
  })();
}
