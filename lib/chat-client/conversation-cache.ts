import type { QueryClient } from "@tanstack/react-query";
import type { Part } from "@/lib/gemini/types";
import type {
  Conversation,
  ConversationSettings,
  StoredMessage,
} from "@/lib/studio/conversation-schema";
import { withSelected } from "@/lib/studio/conversation-tree";
import { titleFromPrompt } from "@/lib/studio/message-text";
import { conversationKeys } from "@/lib/studio/query-keys";
import { newConversationId } from "./turn-messages";

/** The page's copy of each conversation (TanStack Query's cache), as the chat actions read and change it. */
export interface ConversationCache {
  get(conversationId: string): Conversation | undefined;
  update(conversationId: string, update: (conversation: Conversation) => Conversation): void;
  /** Puts messages in the cached conversation (replacing those with the same id) and shows them. */
  putMessages(conversationId: string, messages: StoredMessage[]): void;
  /**
   * Reloads a conversation another page changed, then shows again the branch of `answer` (the
   * other page's choice stays the server's until this page switches).
   */
  reloadKeepingBranch(conversationId: string, answer: StoredMessage): Promise<void>;
}

export function conversationCache(queryClient: QueryClient): ConversationCache {
  function get(conversationId: string): Conversation | undefined {
    return queryClient.getQueryData<Conversation>(conversationKeys.detail(conversationId));
  }

  function update(
    conversationId: string,
    change: (conversation: Conversation) => Conversation,
  ): void {
    queryClient.setQueryData<Conversation>(
      conversationKeys.detail(conversationId),
      (conversation) => (conversation ? change(conversation) : conversation),
    );
  }

  return {
    get,
    update,
    putMessages(conversationId, messages) {
      update(conversationId, (conversation) => {
        const ids = new Set(messages.map((message) => message.id));
        const kept = conversation.messages.map((message) =>
          ids.has(message.id) ? messages.find((item) => item.id === message.id)! : message,
        );
        const known = new Set(conversation.messages.map((message) => message.id));
        let next: Conversation = {
          ...conversation,
          messages: [...kept, ...messages.filter((message) => !known.has(message.id))],
        };
        for (const message of messages) next = withSelected(next, message.id);
        return next;
      });
    },
    async reloadKeepingBranch(conversationId, answer) {
      await queryClient.invalidateQueries({ queryKey: conversationKeys.detail(conversationId) });
      update(conversationId, (conversation) => {
        let next = conversation;
        for (let id: string | null | undefined = answer.id; id;) {
          next = withSelected(next, id);
          id = next.messages.find((message) => message.id === id)?.parentId;
        }
        return next;
      });
    },
  };
}

/** A new chat, shown at once under the id the server will store it with (its id, made here). */
export function newConversation(
  queryClient: QueryClient,
  parts: Part[],
  settings: ConversationSettings,
): string {
  const id = newConversationId();
  queryClient.setQueryData<Conversation>(conversationKeys.detail(id), {
    id,
    title: titleFromPrompt(parts),
    settings,
    createdAt: new Date().toISOString(),
    updatedAt: "",
    messages: [],
  });
  return id;
}
