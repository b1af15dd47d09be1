"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import type { StoreApi } from "zustand";
import { ApiError } from "@/lib/gemini/api-error";
import { isAbortError } from "@/lib/gemini/client/sse-client";
import type { GenerateContentResponse, Part } from "@/lib/gemini/types";
import { newMessageId } from "@/lib/studio/chat-request";
import type { Conversation, StartTurn } from "@/lib/studio/conversation-schema";
import { currentLeaf } from "@/lib/studio/conversation-tree";
import { titleFromPrompt } from "@/lib/studio/message-text";
import { responseOfAnswer } from "@/lib/studio/turn-events";
import { EMPTY_RESPONSE } from "@/lib/studio/accumulate-response";
import { useCompareStoreApi, type CompareStore, type PaneRun } from "@/lib/stores/compare-store";
import { useChatActions, newConversationId, type ChatActionsApi } from "./use-chat-actions";
import { createRevealer, REVEAL_PER_FRAME } from "./response-revealer";
import { conversationKeys, startTurnRequest, stopTurnRequest } from "./use-conversations";

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

interface Dependencies {
  store: StoreApi<CompareStore>;
  queryClient: QueryClient;
  chat: ChatActionsApi;
  navigate(conversationId: string): void;
}

function carriesParts(chunk: GenerateContentResponse): boolean {
  return (chunk.candidates ?? []).some((candidate) => (candidate.content?.parts?.length ?? 0) > 0);
}

function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return `Could not reach the studio server: ${error instanceof Error ? error.message : String(error)}`;
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
    update({ status: "failed", error: failureText(error) });
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

export function createCompareActions({
  store,
  queryClient,
  chat,
  navigate,
}: Dependencies): CompareActionsApi {
  let controller: AbortController | null = null;

  function cachedConversation(conversationId: string): Conversation | undefined {
    return queryClient.getQueryData<Conversation>(conversationKeys.detail(conversationId));
  }

  async function send(conversationId: string | null, parts: Part[]): Promise<void> {
    const { panes } = store.getState();
    if (panes.some((pane) => pane.run?.status === "sending" || pane.run?.status === "streaming"))
      return;
    let id = conversationId;
    let create: StartTurn["create"];
    if (id === null) {
      id = newConversationId();
      queryClient.setQueryData<Conversation>(conversationKeys.detail(id), {
        id,
        title: titleFromPrompt(parts),
        settings: panes[0]!.settings,
        createdAt: new Date().toISOString(),
        updatedAt: "",
        messages: [],
      });
      create = {};
    }
    const conversation = cachedConversation(id);
    const parentId = conversation ? (currentLeaf(conversation)?.id ?? null) : null;
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

const actionsByStore = new WeakMap<StoreApi<CompareStore>, CompareActionsApi>();

/** The compare actions of this page's stores: one set per compare store. */
export function useCompareActions(): CompareActionsApi {
  const store = useCompareStoreApi();
  const queryClient = useQueryClient();
  const chat = useChatActions();
  const router = useRouter();
  return useMemo(() => {
    let actions = actionsByStore.get(store);
    if (!actions) {
      actions = createCompareActions({
        store,
        queryClient,
        chat,
        navigate: (id) => router.replace(`/chat/${encodeURIComponent(id)}`),
      });
      actionsByStore.set(store, actions);
    }
    return actions;
    // The router, query client and chat actions are stable for the page's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);
}
