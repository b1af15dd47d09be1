import type { QueryClient } from "@tanstack/react-query";
import type { StoreApi } from "zustand/vanilla";
import type {
  Conversation,
  ConversationSettings,
  SaveMessages,
} from "@/lib/studio/conversation-schema";
import { conversationKeys } from "@/lib/studio/query-keys";
import { NEW_CHAT_KEY, type ChatStore } from "./chat-state";
import { errorSummary } from "./chat-errors";
import type { ConversationCache } from "./conversation-cache";
import {
  saveMessagesRequest,
  selectMessageRequest,
  updateConversationRequest,
} from "./conversation-requests";

/** How long settings rest unchanged before they are saved. */
const SETTINGS_SAVE_DELAY_MS = 400;

export interface ChatSavesContext {
  store: StoreApi<ChatStore>;
  queryClient: QueryClient;
  conversations: ConversationCache;
  settingsOf(conversationId: string): ConversationSettings;
}

export interface ChatSaves {
  messages(conversationId: string, input: SaveMessages): void;
  /** Records which version of a message is shown. */
  selection(conversationId: string, messageId: string): void;
  /** Keeps settings as the conversation's draft at once, and saves them once they rest. */
  settings(conversationId: string | null, settings: ConversationSettings): void;
}

/**
 * The chat page's saves. Saves of one conversation run in order (a selection lands before the
 * next one); a save that fails is a notice, never an error thrown at the page.
 */
export function createChatSaves({
  store,
  queryClient,
  conversations,
  settingsOf,
}: ChatSavesContext): ChatSaves {
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

  return {
    messages(conversationId, input) {
      void enqueue(conversationId, () => saveMessagesRequest(conversationId, input));
    },
    selection(conversationId, messageId) {
      void enqueue(conversationId, async () => {
        const head = await selectMessageRequest(conversationId, messageId);
        conversations.update(conversationId, (conversation) => ({
          ...conversation,
          updatedAt: head.updatedAt,
        }));
      });
    },
    settings(conversationId, settings) {
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
        }, SETTINGS_SAVE_DELAY_MS),
      );
    },
  };
}
