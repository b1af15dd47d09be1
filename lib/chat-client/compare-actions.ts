import type { QueryClient } from "@tanstack/react-query";
import type { StoreApi } from "zustand/vanilla";
import { isAbortError } from "@/lib/gemini/client/sse-client";
import type { GenerateContentResponse, Part } from "@/lib/gemini/types";
import { newMessageId } from "@/lib/studio/chat-request";
import type { Conversation, StartTurn } from "@/lib/studio/conversation-schema";
import { conversationKeys } from "@/lib/studio/query-keys";
import { responseOfAnswer } from "@/lib/studio/turn-events";
import { EMPTY_RESPONSE } from "@/lib/studio/accumulate-response";
import type { ChatActionsApi } from "./chat-actions";
import { errorSummary } from "./chat-errors";
import type { CompareStore, PaneRun } from "./compare-state";
import { startTurnRequest, stopTurnRequest } from "./conversation-requests";
import { createRevealer, REVEAL_PER_FRAME } from "./response-revealer";
import { newConversation } from "./conversation-cache";
import { currentLeafIdOf } from "./turn-messages";

/**
 * What compare mode does: sends one prompt to every pane at once (each pane's turn carries the
 * same prompt with its own answer id and settings, so the server stores one prompt with one
 * answer version per pane and generates them in parallel), shows each pane's stream with its
 * time to first token and total time, stops them, and continues the conversation with the
 * answer picked (that version shown, that pane's settings kept for the next turns).
 */
export interface CompareActionsApi {
  send(conversationId: string | null, parts: Part[]): Promise<void>;
  stop(): void;
  pick(paneKey: string): void;
}

export interface CompareActionsDependencies {
  store: StoreApi<CompareStore>;
  queryClient: QueryClient;
  chat: ChatActionsApi;
  navigate(conversationId: string): void;
}

function carriesParts(chunk: GenerateContentResponse): boolean {
  return (chunk.candidates ?? []).some((candidate) => (candidate.content?.parts?.length ?? 0) > 0);
}

/** Streams one pane's turn; resolves when its answer is finished (or the pane gave up). */
async function runPane(
  store: StoreApi<CompareStore>,
  key: string,
  conversationId: string,
  turn: StartTurn,
  sentAt: number,
  signal: AbortSignal,
): Promise<void> {
  const update = (change: Partial<PaneRun>) =>
    store.getState().updateRun(key, turn.answerId, change);
  const revealer = createRevealer(
    (response) => update({ response }),
    Math.ceil(REVEAL_PER_FRAME / store.getState().panes.length),
  );
  let firstToken = false;
  try {
    const events = await startTurnRequest(conversationId, turn, signal);
    for await (const event of events) {
      if ("turn" in event) {
        update({ status: "streaming" });
      } else if ("snapshot" in event) {
        revealer.replace(responseOfAnswer(event.snapshot));
      } else if ("chunk" in event) {
        if (!firstToken && carriesParts(event.chunk)) {
          firstToken = true;
          update({ firstTokenMs: performance.now() - sentAt });
        }
        revealer.add(event.chunk);
      } else if ("done" in event) {
        const answer = event.done.answer;
        revealer.replace(responseOfAnswer(answer));
        await revealer.finish();
        update({
          status: answer.error ? "failed" : "done",
          answer,
          totalMs: performance.now() - sentAt,
          ...(answer.error ? { error: answer.error.message } : {}),
        });
        return;
      }
    }
    throw new Error("the connection closed before the answer was finished");
  } catch (error) {
    revealer.cancel();
    if (signal.aborted || isAbortError(error)) {
      update({ status: "failed", error: "Stopped." });
      return;
    }
    update({ status: "failed", error: errorSummary(error).message });
  }
}

/** Each pane's run as it starts: sending, nothing received yet. */
function pendingRuns(
  conversationId: string,
  turns: { key: string; turn: StartTurn }[],
  sentAt: number,
): Record<string, PaneRun> {
  return Object.fromEntries(
    turns.map(({ key, turn }) => [
      key,
      {
        conversationId,
        answerId: turn.answerId,
        status: "sending",
        response: EMPTY_RESPONSE,
        sentAt,
      } satisfies PaneRun,
    ]),
  );
}

/** The compare actions bound to the compare store, the query client and the chat actions. */
export function createCompareActions({
  store,
  queryClient,
  chat,
  navigate,
}: CompareActionsDependencies): CompareActionsApi {
  let controller: AbortController | null = null;

  async function send(conversationId: string | null, parts: Part[]): Promise<void> {
    const { panes } = store.getState();
    if (panes.some((pane) => pane.run?.status === "sending" || pane.run?.status === "streaming"))
      return;
    const create = conversationId === null ? {} : undefined;
    const id = conversationId ?? newConversation(queryClient, parts, panes[0]!.settings);
    const parentId = currentLeafIdOf(
      queryClient.getQueryData<Conversation>(conversationKeys.detail(id)),
    );
    const prompt = { id: newMessageId(), content: { role: "user" as const, parts } };
    const sentAt = performance.now();
    const turns = panes.map((pane) => ({
      key: pane.key,
      turn: {
        parentId,
        prompt,
        answerId: newMessageId(),
        settings: pane.settings,
        ...(create ? { create } : {}),
      } satisfies StartTurn,
    }));
    store.getState().beginRuns(id, pendingRuns(id, turns, sentAt));
    if (create) navigate(id);
    controller?.abort();
    const current = new AbortController();
    controller = current;
    // Every pane at once: the server serialises turns of one conversation, so the prompt is
    // stored by whichever turn comes first and found by the others.
    await Promise.all(
      turns.map(({ key, turn }) => runPane(store, key, id, turn, sentAt, current.signal)),
    );
    if (controller === current) controller = null;
    await queryClient.invalidateQueries({ queryKey: conversationKeys.detail(id) });
    void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
  }

  function stop(): void {
    const { panes } = store.getState();
    for (const pane of panes) {
      const run = pane.run;
      if (run && (run.status === "sending" || run.status === "streaming"))
        // The server stops generating and stores what was said; the stream then ends with it.
        void stopTurnRequest(run.conversationId, run.answerId).catch(() => {});
    }
  }

  function pick(paneKey: string): void {
    const pane = store.getState().panes.find((item) => item.key === paneKey);
    const run = pane?.run;
    if (!pane || !run?.answer) return;
    chat.switchVersion(run.conversationId, run.answerId);
    chat.saveSettings(run.conversationId, pane.settings);
    store.getState().closeCompare();
  }

  return { send, stop, pick };
}
