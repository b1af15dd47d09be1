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
  StoredMessage,
  UpdateConversation,
} from "@/lib/studio/conversation-schema";
import { readApiError } from "@/lib/gemini/client/read-api-error";

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

export const conversationKeys = {
  all: ["conversations"] as const,
  lists: () => [...conversationKeys.all, "list"] as const,
  list: (search: string) => [...conversationKeys.lists(), search] as const,
  detail: (id: string) => [...conversationKeys.all, "detail", id] as const,
};

/** Query options of the conversation list, filtered by title. */
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
    mutationFn: (id: string) =>
      requestJson<object>(`/api/conversations/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: conversationKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    },
  });
}
