import type { QueryClient } from "@tanstack/react-query";
import type { StoreApi } from "zustand/vanilla";
import { ApiError } from "@/lib/gemini/api-error";
import { isAbortError } from "@/lib/gemini/client/sse-client";
import type { TraceRecorder } from "@/lib/studio/answer-trace";
import { conversationKeys } from "@/lib/studio/query-keys";
import { responseOfAnswer, type TurnEvent } from "@/lib/studio/turn-events";
import type { ChatStore } from "./chat-state";
import type { ConversationCache } from "./conversation-cache";
import { attachTurnRequest } from "./conversation-requests";
import type { ResponseRevealer } from "./response-revealer";

/** Times a page reconnects to an answer whose stream broke before it is left to a reload. */
const REATTACH_ATTEMPTS = 5;

/** What reading a turn's events needs of the page. */
export interface TurnEventsContext {
  store: StoreApi<ChatStore>;
  queryClient: QueryClient;
  conversations: ConversationCache;
  /** The first wait before a broken stream (or a turn not sent) is tried again; it doubles each time. */
  retryDelayMs: number;
}

export type StartedTurn = Extract<TurnEvent, { turn: unknown }>["turn"];
type FinishedTurn = Extract<TurnEvent, { done: unknown }>["done"];

export function delay(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Reads a turn's events into the page. Resolves true once the answer is finished and shown,
 * false when the stream ended before (the connection broke).
 */
export async function showTurnEvents(
  context: TurnEventsContext,
  conversationId: string,
  answerId: string,
  events: AsyncIterable<TurnEvent>,
  revealer: ResponseRevealer,
  onTurn: (turn: StartedTurn) => void,
  trace?: () => TraceRecorder | null,
): Promise<boolean> {
  for await (const event of events) {
    if ("turn" in event) {
      onTurn(event.turn);
      if (!event.turn.answer.streaming) revealer.replace(responseOfAnswer(event.turn.answer));
    } else if ("snapshot" in event) {
      revealer.replace(responseOfAnswer(event.snapshot));
    } else if ("chunk" in event) {
      trace?.()?.observer.onEvent?.(JSON.stringify(event.chunk));
      revealer.add(event.chunk);
    } else if ("done" in event) {
      await finishAnswer(context, conversationId, answerId, event.done, revealer, trace?.());
      return true;
    }
  }
  return false;
}

/** Shows a finished answer to its end, stores it in the page's copy and ends the answer in flight. */
async function finishAnswer(
  { store, conversations }: TurnEventsContext,
  conversationId: string,
  answerId: string,
  done: FinishedTurn,
  revealer: ResponseRevealer,
  recorder: TraceRecorder | null | undefined,
): Promise<void> {
  if (recorder && done.answer.error)
    recorder.observer.onErrorBody?.(JSON.stringify({ error: done.answer.error }));
  recorder?.end();
  revealer.replace(responseOfAnswer(done.answer));
  await revealer.finish();
  const known = conversations.get(conversationId)?.updatedAt;
  // Something else changed the conversation meanwhile (another tab's version): reload it.
  const stale = Boolean(known && done.previousUpdatedAt) && done.previousUpdatedAt !== known;
  conversations.putMessages(conversationId, [done.answer]);
  if (done.updatedAt)
    conversations.update(conversationId, (conversation) => ({
      ...conversation,
      updatedAt: done.updatedAt!,
    }));
  store.getState().endAnswer(answerId);
  if (stale) void conversations.reloadKeepingBranch(conversationId, done.answer);
}

/** Follows an answer the server is generating until it is finished, reconnecting when the stream breaks. */
export async function followAnswer(
  context: TurnEventsContext,
  conversationId: string,
  answerId: string,
  controller: AbortController,
  revealer: ResponseRevealer,
): Promise<void> {
  for (let attempt = 0; attempt < REATTACH_ATTEMPTS && !controller.signal.aborted; attempt++) {
    try {
      const events = await attachTurnRequest(conversationId, answerId, controller.signal);
      if (await showTurnEvents(context, conversationId, answerId, events, revealer, () => {}))
        return;
    } catch (error) {
      if (controller.signal.aborted || isAbortError(error)) return;
      if (error instanceof ApiError && error.httpStatus === 404) break;
    }
    await delay(context.retryDelayMs * 2 ** attempt, controller.signal);
  }
  if (controller.signal.aborted) return;
  // Lost: show what is stored; a reload will join it again.
  revealer.cancel();
  context.store.getState().endAnswer(answerId);
  void context.queryClient.invalidateQueries({
    queryKey: conversationKeys.detail(conversationId),
  });
}
