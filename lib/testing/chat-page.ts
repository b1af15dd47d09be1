/**
 * A chat page for the chat client's tests: the real store, query cache and actions, with the
 * network answered by a ScriptedStudioServer put in place of `fetch` for each test, and the
 * turn events a server sends, built from the turn the client sent.
 */
import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, expect, vi } from "vitest";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { createChatActions } from "@/lib/chat-client/chat-actions";
import { createChatStore, type ChatStore } from "@/lib/chat-client/chat-state";
import type { Conversation, StartTurn, StoredMessage } from "@/lib/studio/conversation-schema";
import { conversationKeys } from "@/lib/studio/query-keys";
import { defaultSettings } from "@/lib/studio/settings-model";
import type { TurnEvent } from "@/lib/studio/turn-events";
import { ScriptedStudioServer, turnStreamResponse, type TurnStep } from "./scripted-studio-server";

export const CONVERSATION = "conversation-under-test";
export const BEFORE = "2026-01-01T00:00:00.000Z";
export const AFTER = "2026-01-01T00:00:05.000Z";
export const SETTINGS = defaultSettings();
export const TURNS = /^\/api\/conversations\/[\w-]+\/turns$/;
export const ATTACH = /^\/api\/conversations\/[\w-]+\/turns\/[\w-]+$/;
export const STOP = /\/turns\/[\w-]+\/stop$/;

/** A fresh scripted server in place of `fetch` for each test; a test fails on a request nothing was queued for. */
export function scriptedServerPerTest(): () => ScriptedStudioServer {
  let server: ScriptedStudioServer;
  beforeEach(() => {
    server = new ScriptedStudioServer();
    vi.stubGlobal("fetch", server.fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    expect(server.unexpected).toEqual([]);
  });
  return () => server;
}

export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

export function message(id: string, role: "user" | "model", parentId: string | null, text: string) {
  return {
    id,
    role,
    parentId,
    content: { role, parts: [{ text }] },
    ...(role === "model" ? { settings: SETTINGS } : {}),
  } satisfies StoredMessage;
}

/** A query cache holding conversation CONVERSATION with `messages` (none: no conversation yet). */
export function queryCacheWith(messages?: StoredMessage[]): QueryClient {
  const queryClient = new QueryClient();
  if (messages)
    queryClient.setQueryData<Conversation>(conversationKeys.detail(CONVERSATION), {
      id: CONVERSATION,
      title: "Under test",
      settings: SETTINGS,
      createdAt: BEFORE,
      updatedAt: BEFORE,
      messages,
    });
  return queryClient;
}

/** A chat page: its store, its query cache holding `messages` (when given), and its actions. */
export function chatPage(messages?: StoredMessage[]) {
  const store = createChatStore();
  const queryClient = queryCacheWith(messages);
  const navigated: string[] = [];
  const actions = createChatActions({
    store,
    queryClient,
    navigate: (id) => navigated.push(id),
    retryDelayMs: 1,
  });
  const conversation = (id = CONVERSATION) =>
    queryClient.getQueryData<Conversation>(conversationKeys.detail(id))!;
  const stored = (id: string, conversationId = CONVERSATION) =>
    conversation(conversationId).messages.find((item) => item.id === id);
  return { store, queryClient, actions, navigated, conversation, stored };
}

export const textOf = (item: { content?: { parts?: { text?: string }[] } } | undefined) =>
  (item?.content?.parts ?? []).map((part) => part.text ?? "").join("");

export const inflightText = (store: { getState(): ChatStore }) =>
  textOf(store.getState().inflight?.candidates?.[0]);

export function chunk(text: string): TurnEvent {
  const response: GenerateContentResponse = {
    candidates: [{ index: 0, content: { role: "model", parts: [{ text }] } }],
  };
  return { chunk: response };
}

/** The server's first event of a turn: the prompt and the answer as stored when it began. */
export function started(turn: StartTurn): TurnEvent {
  const promptId = turn.prompt?.id ?? turn.parentId;
  return {
    turn: {
      ...(turn.prompt ? { prompt: { role: "user", parentId: turn.parentId, ...turn.prompt } } : {}),
      answer: { ...message(turn.answerId, "model", promptId, ""), streaming: true },
      title: "Under test",
      previousUpdatedAt: BEFORE,
      updatedAt: AFTER,
      request: { contents: [{ role: "user", parts: [{ text: "the history" }] }] },
    },
  };
}

/** The server's last event of a turn: the answer as stored. */
export function done(turn: StartTurn, text: string, extra: Partial<StoredMessage> = {}): TurnEvent {
  const promptId = turn.prompt?.id ?? turn.parentId;
  return {
    done: {
      answer: { ...message(turn.answerId, "model", promptId, text), ...extra },
      updatedAt: AFTER,
      previousUpdatedAt: AFTER,
    },
  };
}

/** Queues the answer to the next turn sent: `script` gets the turn as the client sent it. */
export function answerTurn(
  server: ScriptedStudioServer,
  script: (turn: StartTurn) => AsyncIterable<TurnStep> | Iterable<TurnStep>,
): void {
  server.answer("POST", TURNS, (request) =>
    turnStreamResponse(script(request.body as StartTurn), request.signal),
  );
}

/** Queues a send that does not reach the server. */
export function networkFailure(server: ScriptedStudioServer): void {
  server.answer("POST", TURNS, () => Promise.reject(new TypeError("fetch failed")));
}

/** The turns the client sent, as sent. */
export function sentTurns(server: ScriptedStudioServer): StartTurn[] {
  return server.made("POST", TURNS).map((request) => request.body as StartTurn);
}
