"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import type { StoreApi } from "zustand";
import type {
  Conversation,
  ConversationSettings,
  SaveMessages,
  StoredMessage,
} from "@/lib/studio/conversation-schema";
import {
  answerMessage,
  buildGenerateContentRequest,
  historyContents,
  newMessageId,
  titleFromPrompt,
} from "@/lib/studio/chat-request";
import { defaultSettings, withSafetyThreshold } from "@/lib/studio/settings-model";
import { ApiError } from "@/lib/gemini/api-error";
import {
  isAbortError,
  streamGenerateContent,
  streamGenerateContentPath,
} from "@/lib/gemini/client/sse-client";
import { recordTrace, traceTiming } from "@/lib/studio/answer-trace";
import type { HarmBlockThreshold, Part } from "@/lib/gemini/types";
import {
  accumulateResponse,
  EMPTY_RESPONSE,
  responseTextLength,
  revealPrefix,
  type AccumulatedResponse,
} from "@/lib/studio/accumulate-response";
import { NEW_CHAT_KEY, useChatStoreApi, type ChatStore } from "@/lib/stores/chat-store";
import {
  conversationKeys,
  createConversationRequest,
  saveMessagesRequest,
  setCachedMessages,
  updateConversationRequest,
} from "./use-conversations";

/**
 * What the chat page does: send, stop, regenerate, edit and resend, answer a function call,
 * adjust a safety threshold and retry. The stream runs outside React: chunks fold into one
 * response that reaches the store at most once per frame, so a long answer costs one render
 * of the answer per frame and none of the rest of the page.
 */

export interface ChatActionsApi {
  /** Sends a prompt (creating the conversation first when `conversationId` is null). */
  send(conversationId: string | null, parts: Part[]): Promise<void>;
  regenerate(conversationId: string, answerId: string): Promise<void>;
  edit(conversationId: string, userMessageId: string, text: string): Promise<void>;
  /** Loosens one category's threshold in the conversation's settings and asks again. */
  adjustAndRetry(
    conversationId: string,
    answerId: string,
    category: string,
    threshold: HarmBlockThreshold,
  ): Promise<void>;
  chooseCandidate(conversationId: string, answerId: string, index: number): void;
  saveSettings(conversationId: string | null, settings: ConversationSettings): void;
  stop(): void;
}

interface Dependencies {
  store: StoreApi<ChatStore>;
  queryClient: QueryClient;
  navigate(conversationId: string): void;
}

function errorSummary(error: unknown): { code: number; message: string; status: string } {
  if (error instanceof ApiError)
    return { code: error.httpStatus, message: error.message, status: error.rpcStatus };
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 0,
    message: `Could not reach the studio server: ${message}`,
    status: "UNAVAILABLE",
  };
}

/** New characters shown per frame at most (about 10 ms of markdown parsing on a slow machine). */
const REVEAL_PER_FRAME = 800;

function scheduleFrame(callback: () => void): () => void {
  if (
    typeof document !== "undefined" &&
    document.visibilityState === "visible" &&
    typeof requestAnimationFrame === "function"
  ) {
    const frame = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(callback, 50);
  return () => clearTimeout(timer);
}

/** The chat actions bound to a store and query client (exported for tests and benches). */
export function createChatActions({ store, queryClient, navigate }: Dependencies): ChatActionsApi {
  // Saves of one conversation run in order: the prompt is stored before its answer.
  const saveChains = new Map<string, Promise<unknown>>();
  const settingsTimers = new Map<string, ReturnType<typeof setTimeout>>();

  function enqueue<Result>(
    conversationId: string,
    work: () => Promise<Result>,
  ): Promise<Result | undefined> {
    const previous = saveChains.get(conversationId) ?? Promise.resolve();
    const next = previous.then(work).catch((error: unknown) => {
      store.getState().setNotice({
        kind: "error",
        text: `Could not save the conversation: ${errorSummary(error).message}`,
      });
      return undefined;
    });
    saveChains.set(conversationId, next);
    return next;
  }

  function saveMessages(conversationId: string, input: SaveMessages): void {
    void enqueue(conversationId, () => saveMessagesRequest(conversationId, input));
  }

  function cachedConversation(conversationId: string): Conversation | undefined {
    return queryClient.getQueryData<Conversation>(conversationKeys.detail(conversationId));
  }

  function settingsOf(conversationId: string | null): ConversationSettings {
    const key = conversationId ?? NEW_CHAT_KEY;
    const state = store.getState();
    return (
      state.settingsDrafts[key] ??
      (conversationId
        ? cachedConversation(conversationId)?.settings
        : (state.lastSettings ?? undefined)) ??
      defaultSettings()
    );
  }

  async function runAnswer(
    conversationId: string,
    prompt: StoredMessage,
    history: StoredMessage[],
  ): Promise<void> {
    const settings = settingsOf(conversationId);
    const controller = new AbortController();
    const messageId = newMessageId();
    store.getState().beginAnswer(
      {
        conversationId,
        messageId,
        promptMessageId: prompt.id,
        settings,
        startedAt: Date.now(),
        candidates: [],
      },
      controller,
    );
    let response: AccumulatedResponse = EMPTY_RESPONSE;
    // At most one store update per frame, and at most REVEAL_PER_FRAME new characters in it:
    // a burst (a fast engine, a stalled tab catching up) is shown over a few frames instead
    // of one long parse, so no frame's work grows with how much arrived at once.
    let shown = 0;
    let cancelFrame: (() => void) | null = null;
    let caughtUp: (() => void) | null = null;
    const flush = () => {
      cancelFrame = null;
      const total = responseTextLength(response);
      shown = Math.min(total, shown + REVEAL_PER_FRAME);
      store.getState().updateAnswer(revealPrefix(response, shown));
      if (shown < total) cancelFrame = scheduleFrame(flush);
      else caughtUp?.();
    };
    let ending: { stopped?: boolean; error?: ReturnType<typeof errorSummary> } = {};
    const request = buildGenerateContentRequest(settings, historyContents(history));
    // The raw exchange, for the inspector and the answer's timings.
    const recorder = recordTrace({
      model: settings.model,
      url: streamGenerateContentPath(settings.model),
      request,
    });
    store.getState().keepTrace(messageId, recorder.trace());
    try {
      for await (const chunk of streamGenerateContent({
        model: settings.model,
        request,
        signal: controller.signal,
        observer: recorder.observer,
      })) {
        response = accumulateResponse(response, chunk);
        cancelFrame ??= scheduleFrame(flush);
      }
    } catch (error) {
      ending = isAbortError(error) ? { stopped: true } : { error: errorSummary(error) };
    }
    // Let the display finish revealing what arrived, then hand the row over to the saved answer.
    await new Promise<void>((resolve) => {
      caughtUp = resolve;
      cancelFrame ??= scheduleFrame(flush);
    });
    const answer = {
      ...answerMessage(messageId, response, settings, ending),
      timing: traceTiming(recorder.end()),
    };
    setCachedMessages(queryClient, conversationId, (messages) => [
      ...messages.filter((message) => message.id !== messageId),
      answer,
    ]);
    store.getState().endAnswer(messageId);
    saveMessages(conversationId, { after: prompt.id, messages: [answer] });
  }

  async function send(conversationId: string | null, parts: Part[]): Promise<void> {
    if (store.getState().inflight) return;
    let id = conversationId;
    const text = parts.map((part) => part.text ?? "").join(" ");
    if (id === null) {
      let created: Conversation;
      try {
        created = await createConversationRequest({
          title: titleFromPrompt(text || "Function response"),
          settings: settingsOf(null),
        });
      } catch (error) {
        store.getState().setNotice({
          kind: "error",
          text: `Could not create the conversation: ${errorSummary(error).message}`,
        });
        return;
      }
      queryClient.setQueryData(conversationKeys.detail(created.id), created);
      store.getState().moveSettingsDraft(NEW_CHAT_KEY, created.id);
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
      id = created.id;
      navigate(id);
    }
    const prompt: StoredMessage = {
      id: newMessageId(),
      role: "user",
      content: { role: "user", parts },
    };
    setCachedMessages(queryClient, id, (messages) => [...messages, prompt]);
    store.getState().setDraft(id, "");
    store.getState().setDraft(NEW_CHAT_KEY, "");
    saveMessages(id, { messages: [prompt] });
    await runAnswer(id, prompt, cachedConversation(id)?.messages ?? [prompt]);
    void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
  }

  async function regenerate(conversationId: string, answerId: string): Promise<void> {
    if (store.getState().inflight) return;
    const messages = cachedConversation(conversationId)?.messages ?? [];
    const index = messages.findIndex((message) => message.id === answerId);
    const prompt = messages[index - 1];
    if (index < 1 || prompt?.role !== "user") return;
    const kept = messages.slice(0, index);
    setCachedMessages(queryClient, conversationId, () => kept);
    await runAnswer(conversationId, prompt, kept);
  }

  async function edit(conversationId: string, userMessageId: string, text: string): Promise<void> {
    if (store.getState().inflight) return;
    const messages = cachedConversation(conversationId)?.messages ?? [];
    const index = messages.findIndex((message) => message.id === userMessageId);
    if (index < 0) return;
    const original = messages[index]!;
    const otherParts = original.content.parts.filter((part) => part.text === undefined);
    const prompt: StoredMessage = {
      id: newMessageId(),
      role: "user",
      content: { role: "user", parts: [...otherParts, { text }] },
    };
    const kept = [...messages.slice(0, index), prompt];
    setCachedMessages(queryClient, conversationId, () => kept);
    saveMessages(conversationId, { after: messages[index - 1]?.id ?? null, messages: [prompt] });
    await runAnswer(conversationId, prompt, kept);
  }

  function saveSettings(conversationId: string | null, settings: ConversationSettings): void {
    store.getState().setSettingsDraft(conversationId ?? NEW_CHAT_KEY, settings);
    if (conversationId === null) return;
    clearTimeout(settingsTimers.get(conversationId));
    settingsTimers.set(
      conversationId,
      setTimeout(() => {
        settingsTimers.delete(conversationId);
        void enqueue(conversationId, async () => {
          const saved = await updateConversationRequest(conversationId, {
            settings: settingsOf(conversationId),
          });
          queryClient.setQueryData<Conversation>(
            conversationKeys.detail(conversationId),
            (previous) =>
              previous
                ? { ...previous, settings: saved.settings, updatedAt: saved.updatedAt }
                : previous,
          );
        });
      }, 400),
    );
  }

  async function adjustAndRetry(
    conversationId: string,
    answerId: string,
    category: string,
    threshold: HarmBlockThreshold,
  ): Promise<void> {
    saveSettings(
      conversationId,
      withSafetyThreshold(settingsOf(conversationId), category, threshold),
    );
    await regenerate(conversationId, answerId);
  }

  function chooseCandidate(conversationId: string, answerId: string, index: number): void {
    const messages = cachedConversation(conversationId)?.messages ?? [];
    const answer = messages.find((message) => message.id === answerId);
    const candidate = answer?.candidates?.[index];
    if (!answer || !candidate) return;
    const chosen: StoredMessage = {
      ...answer,
      selectedCandidate: index,
      content: { role: "model", parts: candidate.content?.parts ?? [] },
    };
    setCachedMessages(queryClient, conversationId, (list) =>
      list.map((message) => (message.id === answerId ? chosen : message)),
    );
    saveMessages(conversationId, { messages: [chosen] });
  }

  return {
    send,
    regenerate,
    edit,
    adjustAndRetry,
    chooseCandidate,
    saveSettings,
    stop: () => store.getState().stop(),
  };
}

const actionsByStore = new WeakMap<StoreApi<ChatStore>, ChatActionsApi>();

/** The chat actions of this page's store and query client: one set per store, so saves stay in order. */
export function useChatActions(): ChatActionsApi {
  const store = useChatStoreApi();
  const queryClient = useQueryClient();
  const router = useRouter();
  return useMemo(() => {
    let actions = actionsByStore.get(store);
    if (!actions) {
      actions = createChatActions({
        store,
        queryClient,
        navigate: (id) => router.replace(`/chat/${encodeURIComponent(id)}`),
      });
      actionsByStore.set(store, actions);
    }
    return actions;
    // The router and query client are stable for the page's life; the actions must be too.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);
}
