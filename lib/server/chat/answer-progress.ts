import "server-only";
import type { ConversationStore } from "@/lib/db/stores/conversation-store";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { currentAnswer, type TurnJob } from "./turn-job";

/**
 * An answer's batched writes while it is generated, never one per chunk: progress is written
 * when `progressCharacters` more have arrived or `quietMs` went by since the last write, at
 * most once per `flushIntervalMs`; a quiet answer only renews its lease. Each tick also looks
 * for a stop asked on another instance, and aborts the job when there is one (or when the
 * conversation is gone).
 */

export interface AnswerProgressOptions {
  conversations: ConversationStore;
  now: () => number;
  flushIntervalMs: number;
  progressCharacters: number;
  quietMs: number;
  leaseMs: number;
  onError?: (message: string, error: unknown) => void;
}

export interface AnswerProgress {
  /** A chunk arrived: the answer has something new to write. */
  added(chunk: GenerateContentResponse): void;
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

export function writeAnswerProgress(job: TurnJob, options: AnswerProgressOptions): AnswerProgress {
  const { conversations, now } = options;
  let dirty = false;
  /** Characters arrived since the last write of progress. */
  let unwritten = 0;
  let lastWrite = now();
  let writing: Promise<void> | null = null;
  // One write at a time: a slow database skips ticks instead of piling writes up.
  const tick = () => {
    if (writing) return;
    writing = (async () => {
      const leaseUntil = now() + options.leaseMs;
      let state: { stopRequested: boolean } | null;
      const quiet = now() - lastWrite >= options.quietMs;
      if (dirty && (unwritten >= options.progressCharacters || quiet)) {
        dirty = false;
        unwritten = 0;
        state = await conversations.saveAnswerProgress(
          job.conversationId,
          currentAnswer(job),
          leaseUntil,
        );
        lastWrite = now();
      } else if (quiet) {
        state = await conversations.renewAnswerLease(job.conversationId, job.answer.id, leaseUntil);
        lastWrite = now();
      } else {
        state = {
          stopRequested: await conversations.answerStopRequested(job.conversationId, job.answer.id),
        };
      }
      // Stopped from another instance, or the conversation was deleted meanwhile.
      if (!state || state.stopRequested) job.controller.abort();
    })()
      .catch((error: unknown) => options.onError?.("could not save an answer's progress", error))
      .finally(() => (writing = null));
  };
  const timer = setInterval(tick, options.flushIntervalMs);
  return {
    added(chunk) {
      dirty = true;
      unwritten += chunkCharacters(chunk);
    },
    stop() {
      clearInterval(timer);
    },
    async settled() {
      await writing;
    },
  };
}
