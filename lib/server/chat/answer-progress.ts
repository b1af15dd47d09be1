import "server-only";
import type { AnswerRunState, ConversationStore } from "@/lib/db/stores/conversation-store";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { currentAnswer, type TurnJob } from "./turn-job";

/**
 * An answer's batched writes while it is generated, never one per chunk: progress is written
 * when `progressCharacters` more have arrived or `quietMs` went by since the last write, at
 * most once per `flushIntervalMs`; a quiet answer only renews its lease. While a page on
 * another instance follows the answer (it marks the row), whatever arrived is written every
 * `followedFlushMs` instead, so that page sees it within a fraction of a second: at most one
 * write per tick, and only when something is new, plus one when a follower arrives (the first
 * text that is new to it, as soon as it comes). Each tick also looks for a stop asked on
 * another instance, and aborts the job when there is one (or when the conversation is gone).
 * A signal from another instance (`wake`) brings the next tick forward.
 */

export interface AnswerProgressOptions {
  conversations: ConversationStore;
  now: () => number;
  flushIntervalMs: number;
  /** Time between two ticks while another instance follows the answer (each writes what is new). */
  followedFlushMs: number;
  progressCharacters: number;
  quietMs: number;
  leaseMs: number;
  onError?: (message: string, error: unknown) => void;
}

export interface AnswerProgress {
  /** A chunk arrived: the answer has something new to write. */
  added(chunk: GenerateContentResponse): void;
  /**
   * Another instance asked to look now: a page there began following the answer (`write`:
   * write what is new as soon as there is something) or asked for a stop.
   */
  wake(write: boolean): void;
  /** Whether a page on another instance followed the answer when last looked. */
  followed(): boolean;
  /** Stops the ticks; a write under way may still be finishing (see `settled`). */
  stop(): void;
  /** Resolves once no write is under way. */
  settled(): Promise<void>;
}

/** How much a chunk adds to an answer: its text, thoughts and inline data, in characters. */
function chunkCharacters(chunk: GenerateContentResponse): number {
  let characters = 0;
  for (const candidate of chunk.candidates ?? [])
    for (const part of candidate.content?.parts ?? [])
      characters += (part.text?.length ?? 0) + (part.inlineData?.data?.length ?? 0);
  return characters;
}

/**
 * Starts an answer's writes. A factory whose closure is its state (what is unwritten, the
 * lease, the follow mark, the write under way), shared by its one tick and the three entry
 * points it returns; long as the tick's look is, read top to bottom.
 */
export function writeAnswerProgress(job: TurnJob, options: AnswerProgressOptions): AnswerProgress {
  const { conversations, now } = options;
  const { ownerId, conversationId } = job;
  let dirty = false;
  /** Characters arrived since the last write of progress. */
  let unwritten = 0;
  let lastWrite = now();
  /** The lease last written: each write moves it on, which is how a follower sees news. */
  let lease = 0;
  let lastTick = now();
  let followedUntil = 0;
  /** A follower arrived: what is new is written as soon as there is something. */
  let asked = false;
  /** A signal came while a tick was under way: the next one follows it at once. */
  let woken = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> | null = null;
  const followed = () => followedUntil > now();

  const schedule = (at: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, Math.max(0, at - now()));
  };

  // Strictly later than the last one, even for two writes within a millisecond.
  const nextLease = () => (lease = Math.max(now() + options.leaseMs, lease + 1));

  const look = async (): Promise<AnswerRunState | null> => {
    const quiet = now() - lastWrite >= options.quietMs;
    if (dirty && (unwritten >= options.progressCharacters || quiet || asked || followed())) {
      dirty = false;
      unwritten = 0;
      asked = false;
      const state = await conversations.saveAnswerProgress(
        ownerId,
        conversationId,
        currentAnswer(job),
        nextLease(),
      );
      lastWrite = now();
      // A lost signal only delays the follower to its next look: the write itself stands.
      if (state && state.followedUntil > now())
        await conversations
          .signalAnswer(ownerId, conversationId, job.answer.id, "progress")
          .catch((error: unknown) =>
            options.onError?.("could not signal an answer's progress", error),
          );
      return state;
    }
    if (quiet) {
      const state = await conversations.renewAnswerLease(
        ownerId,
        conversationId,
        job.answer.id,
        nextLease(),
      );
      lastWrite = now();
      return state;
    }
    return conversations.answerRunState(ownerId, conversationId, job.answer.id);
  };

  // One write at a time: a slow database delays the next tick instead of piling writes up.
  const tick = () => {
    if (writing) return;
    lastTick = now();
    const wasFollowed = followed();
    woken = false;
    writing = (async () => {
      const state = await look();
      followedUntil = state?.followedUntil ?? 0;
      if (followed() && !wasFollowed) asked = true;
      // Stopped from another instance, or the conversation was deleted meanwhile.
      if (!state || state.stopRequested) job.controller.abort();
    })()
      .catch((error: unknown) => options.onError?.("could not save an answer's progress", error))
      .finally(() => {
        writing = null;
        if (woken || (asked && dirty)) schedule(now());
        else schedule(lastTick + (followed() ? options.followedFlushMs : options.flushIntervalMs));
      });
  };
  schedule(lastTick + options.flushIntervalMs);

  return {
    added(chunk) {
      dirty = true;
      unwritten += chunkCharacters(chunk);
      // A follower that just arrived gets the first new text at once, not at the next tick.
      if (asked && !writing) schedule(now());
    },
    wake(write) {
      asked ||= write;
      if (writing) woken = true;
      else schedule(now());
    },
    followed,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    async settled() {
      await writing;
    },
  };
}
