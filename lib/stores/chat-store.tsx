"use client";

/**
 * The chat page's store (lib/chat-client/chat-state.ts) for React: one per provider, kept
 * across the chat pages' navigations by the layout, with the settings last edited remembered
 * in this browser.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { useStore, type StoreApi } from "zustand";
import { conversationSettingsSchema } from "@/lib/studio/conversation-schema";
import { createChatStore, type ChatStore } from "@/lib/chat-client/chat-state";

const ChatStoreContext = createContext<StoreApi<ChatStore> | null>(null);

/** Where the browser keeps the settings it used last. */
const LAST_SETTINGS_KEY = "genstudio-last-settings";

/**
 * Keeps the settings last edited in this browser across reloads (localStorage): read once
 * the page runs (never during the server's render, which knows none), written as they change.
 * Storage refused or full only loses the memory, never the chat.
 */
function rememberLastSettings(store: StoreApi<ChatStore>): () => void {
  try {
    const saved = localStorage.getItem(LAST_SETTINGS_KEY);
    const parsed = saved ? conversationSettingsSchema.safeParse(JSON.parse(saved)) : null;
    if (parsed?.success && !store.getState().lastSettings)
      store.setState({ lastSettings: parsed.data });
  } catch {
    // Unreadable or not settings: start from the defaults.
  }
  return store.subscribe((state, previous) => {
    if (!state.lastSettings || state.lastSettings === previous.lastSettings) return;
    try {
      localStorage.setItem(LAST_SETTINGS_KEY, JSON.stringify(state.lastSettings));
    } catch {
      // Storage refused or full.
    }
  });
}

/** Provides one chat store to the chat pages (kept across their navigations by the layout). */
export function ChatStoreProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createChatStore());
  useEffect(() => rememberLastSettings(store), [store]);
  return <ChatStoreContext.Provider value={store}>{children}</ChatStoreContext.Provider>;
}

/** The store itself, for actions that read state at call time. */
export function useChatStoreApi(): StoreApi<ChatStore> {
  const store = useContext(ChatStoreContext);
  if (!store) throw new Error("useChatStore must be used inside ChatStoreProvider");
  return store;
}

/** Selects a slice of the chat store; the component re-renders only when the slice changes. */
export function useChatStore<Selected>(selector: (state: ChatStore) => Selected): Selected {
  return useStore(useChatStoreApi(), selector);
}
