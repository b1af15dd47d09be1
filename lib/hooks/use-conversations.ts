"use client";

import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { Conversation, UpdateConversation } from "@/lib/studio/conversation-schema";
import { conversationKeys } from "@/lib/studio/query-keys";
import {
  conversationRequest,
  deleteConversationRequest,
  listConversationsRequest,
  restoreConversationRequest,
  updateConversationRequest,
} from "@/lib/chat-client/conversation-requests";

/** Server state of the studio's conversations (`/api/conversations`), through react-query. */

export { conversationKeys };

/** Query options of the conversation list; a search matches titles and every message. */
export function conversationListQueryOptions(search = "") {
  return queryOptions({
    queryKey: conversationKeys.list(search),
    queryFn: () => listConversationsRequest(search),
    staleTime: 10_000,
  });
}

/** Query options of one conversation with its messages. */
export function conversationQueryOptions(id: string) {
  return queryOptions({
    queryKey: conversationKeys.detail(id),
    queryFn: () => conversationRequest(id),
    staleTime: Infinity,
    retry: (count, error) => count < 1 && !(error as { httpStatus?: number }).httpStatus,
  });
}

/**
 * The list for a search; while another search loads, the previous list stays (marked as
 * placeholder), so the rows under the pointer do not vanish and come back at every keystroke.
 */
export function useConversationList(search: string) {
  return useQuery({ ...conversationListQueryOptions(search), placeholderData: keepPreviousData });
}

export function useConversation(id: string | null) {
  return useQuery({ ...conversationQueryOptions(id ?? ""), enabled: id !== null });
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
    mutationFn: (id: string) => deleteConversationRequest(id),
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
