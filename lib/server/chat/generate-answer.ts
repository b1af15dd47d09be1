import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { Backend, Caller } from "@/lib/gemini/backend/contract";
import type { GenerateContentRequest } from "@/lib/gemini/types";
import { accumulateResponse } from "@/lib/studio/accumulate-response";
import { messageErrorOf, type MessageError } from "@/lib/studio/message-error";
import { answerMessage } from "@/lib/studio/chat-request";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { writeAnswerProgress, type AnswerProgressOptions } from "./answer-progress";
import { emit, type Finished, type TurnJob } from "./turn-job";

/**
 * One answer generated through the Backend: each chunk folded into the job and passed to its
 * readers, progress written in batches meanwhile (answer-progress.ts), then the finished answer
 * (stopped, failed or whole, with its timing) stored and announced.
 */

export interface GenerationOptions extends AnswerProgressOptions {
  backend: () => Promise<Backend> | Backend;
  /** Drops the job from the runner's live jobs, once the answer is stored. */
  forget: () => void;
}

function errorSummary(error: unknown): MessageError {
  if (error instanceof ApiError) return messageErrorOf(error);
  return { code: 500, message: "The answer failed on the studio server.", status: "INTERNAL" };
}

export async function generateAnswer(
  job: TurnJob,
  request: GenerateContentRequest | { refused: unknown },
  caller: Caller,
  release: () => void,
  options: GenerationOptions,
): Promise<void> {
  const { conversations, now } = options;
  const settings = job.answer.settings!;
  const { signal } = job.controller;
  const started = now();
  let firstTokenMs: number | undefined;
  const progress = writeAnswerProgress(job, options);
  job.wake = progress.wake;
  let ending: Parameters<typeof answerMessage>[3] = {};
  try {
    if ("refused" in request) throw request.refused;
    const backend = await options.backend();
    for await (const chunk of backend.streamGenerateContent(settings.model, request, {
      caller,
      signal,
    })) {
      // A stop ends the answer at once, whether or not the backend noticed the abort yet.
      if (signal.aborted) break;
      if (firstTokenMs === undefined && chunk.candidates?.some((c) => c.content?.parts?.length))
        firstTokenMs = now() - started;
      job.response = accumulateResponse(job.response, chunk);
      progress.added(chunk);
      emit(job, { chunk });
    }
    if (signal.aborted) ending = { stopped: true };
  } catch (error) {
    if (signal.aborted) ending = { stopped: true };
    else {
      ending = { error: errorSummary(error) };
      if (!(error instanceof ApiError)) options.onError?.("a chat turn failed", error);
    }
  } finally {
    progress.stop();
    release();
  }
  await progress.settled();
  const final: StoredMessage = {
    ...job.answer,
    ...answerMessage(job.answer.id, job.response, settings, ending),
    timing: {
      ...(firstTokenMs !== undefined ? { firstTokenMs: Math.round(firstTokenMs) } : {}),
      totalMs: Math.round(now() - started),
    },
  };
  let finished: Finished;
  try {
    const stored = await conversations.finishAnswer(job.ownerId, job.conversationId, final, now());
    finished = stored
      ? {
          answer: stored.message,
          updatedAt: stored.updatedAt,
          previousUpdatedAt: stored.previousUpdatedAt,
        }
      : { answer: final };
  } catch (error) {
    options.onError?.("could not store a finished answer", error);
    finished = { answer: final };
  }
  job.finished = finished;
  options.forget();
  emit(job, { done: finished });
  job.listeners.clear();
  // A follower on another instance learns of the end at once rather than at its next look.
  if (progress.followed())
    await conversations
      .signalAnswer(job.ownerId, job.conversationId, job.answer.id, "progress")
      .catch((error: unknown) => options.onError?.("could not signal a finished answer", error));
}
