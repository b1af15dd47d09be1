"use client";

import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import type {
  Conversation,
  ConversationHead,
  ConversationList,
  CreateConversation,
  SaveMessages,
  StartTurn,
  StoredMessage,
  UpdateConversation,
} from "@/lib/studio/conversation-schema";
import type { TurnEvent } from "@/lib/studio/turn-events";
import { ApiError } from "@/lib/gemini/api-error";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import { readJsonEventStream } from "@/lib/gemini/client/sse-client";
import { conversationKeys } from "@/lib/studio/query-keys";

/** Server state of the studio's conversations (`/api/conversations`), through react-query. */

async function requestJson<Result>(
  path: string,
  init?: { method: string; body?: unknown },
): Promise<Result> {
  const response = await fetch(path, {
    method: init?.method ?? "GET",
    headers: init?.body !== undefined ? { "Content-Type": "application/json" } : undefined,
    body: init?.body !== undefined ? JSON.stringify(init.body) : undefined,
    credentials: "same-origin",
    cache: "no-store",
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as Result;
}

export { conversationKeys };

/** Query options of the conversation list; a search matches titles and every message. */
export function conversationListQueryOptions(search = "") {
  return queryOptions({
    queryKey: conversationKeys.list(search),
    queryFn: () =>
      requestJson<ConversationList>(
        `/api/conversations${search ? `?q=${encodeURIComponent(search)}` : ""}`,
      ),
    staleTime: 10_000,
  });
}

/** Query options of one conversation with its messages. */
export function conversationQueryOptions(id: string) {
  return queryOptions({
    queryKey: conversationKeys.detail(id),
    queryFn: () => requestJson<Conversation>(`/api/conversations/${encodeURIComponent(id)}`),
    staleTime: Infinity,
    retry: (count, error) => count < 1 && !(error as { httpStatus?: number }).httpStatus,
  });
}

export function useConversationList(search: string) {
  return useQuery(conversationListQueryOptions(search));
}

export function useConversation(id: string | null) {
  return useQuery({ ...conversationQueryOptions(id ?? ""), enabled: id !== null });
}

export function createConversationRequest(input: CreateConversation): Promise<Conversation> {
  return requestJson<Conversation>("/api/conversations", { method: "POST", body: input });
}

export function saveMessagesRequest(
  id: string,
  input: SaveMessages,
): Promise<{ messages: StoredMessage[] }> {
  return requestJson(`/api/conversations/${encodeURIComponent(id)}/messages`, {
    method: "POST",
    body: input,
  });
}

export function updateConversationRequest(
  id: string,
  change: UpdateConversation,
): Promise<ConversationHead> {
  return requestJson<ConversationHead>(`/api/conversations/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: change,
  });
}

function conversationPath(id: string): string {
  return `/api/conversations/${encodeURIComponent(id)}`;
}

async function eventStream(
  path: string,
  init: {
    method: string;
    body?: unknown;
    signal: AbortSignal;
    onResponse?: (response: Response) => void;
  },
): Promise<AsyncGenerator<TurnEvent>> {
  const response = await fetch(path, {
    method: init.method,
    headers: {
      Accept: "text/event-stream",
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    credentials: "same-origin",
    cache: "no-store",
    signal: init.signal,
  });
  init.onResponse?.(response);
  if (!response.ok) throw await readApiError(response);
  if (!response.body) throw new ApiError(response.status, "UNKNOWN", "The stream has no body.");
  return readJsonEventStream<TurnEvent>(response.body, init.signal);
}

/** Sends a turn; its events follow (the same turn sent again returns the one already started). */
export function startTurnRequest(
  id: string,
  turn: StartTurn,
  signal: AbortSignal,
  onResponse?: (response: Response) => void,
): Promise<AsyncGenerator<TurnEvent>> {
  return eventStream(`${conversationPath(id)}/turns`, {
    method: "POST",
    body: turn,
    signal,
    onResponse,
  });
}

/** Joins an answer being generated: a snapshot, then what follows. */
export function attachTurnRequest(
  id: string,
  answerId: string,
  signal: AbortSignal,
): Promise<AsyncGenerator<TurnEvent>> {
  return eventStream(`${conversationPath(id)}/turns/${encodeURIComponent(answerId)}`, {
    method: "GET",
    signal,
  });
}

export function stopTurnRequest(id: string, answerId: string): Promise<{ stopped: boolean }> {
  return requestJson(`${conversationPath(id)}/turns/${encodeURIComponent(answerId)}/stop`, {
    method: "POST",
  });
}

/** Shows another version of a message (its branch as it was left). */
export function selectMessageRequest(id: string, messageId: string): Promise<ConversationHead> {
  return requestJson(`${conversationPath(id)}/selection`, {
    method: "POST",
    body: { messageId },
  });
}

export function restoreConversationRequest(id: string): Promise<ConversationHead> {
  return requestJson(`${conversationPath(id)}/restore`, { method: "POST" });
}

/** Replaces the cached messages of a conversation (optimistic edits of the chat). */
export function setCachedMessages(
  queryClient: QueryClient,
  id: string,
  update: (messages: StoredMessage[]) => StoredMessage[],
): void {
  queryClient.setQueryData<Conversation>(conversationKeys.detail(id), (conversation) =>
    conversation ? { ...conversation, messages: update(conversation.messages) } : conversation,
  );
}

export function useUpdateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: UpdateConversation }) =>
      updateConversationRequest(id, change),
    onSuccess: (conversation) => {
      // Keep the cached messages: a save of settings must not replace a newer optimistic list.
      queryClient.setQueryData<Conversation>(
        conversationKeys.detail(conversation.id),
        (previous) =>
          previous
            ? {
                ...previous,
                title: conversation.title,
                settings: conversation.settings,
                updatedAt: conversation.updatedAt,
              }
            : previous,
      );
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    },
  });
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => requestJson<object>(conversationPath(id), { method: "DELETE" }),
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: conversationKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    },
  });
}

/** Brings back a conversation deleted moments ago. */
export function useRestoreConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => restoreConversationRequest(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() }),
  });
}
