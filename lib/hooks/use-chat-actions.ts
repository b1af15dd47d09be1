"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import type { StoreApi } from "zustand";
import { openedInPlace } from "./use-open-conversation";
import { createChatActions, type ChatActionsApi } from "@/lib/chat-client/chat-actions";
import type { ChatStore } from "@/lib/chat-client/chat-state";
import { useChatStoreApi } from "@/lib/stores/chat-store";

const actionsByStore = new WeakMap<StoreApi<ChatStore>, ChatActionsApi>();

/** The chat actions (lib/chat-client) of this page's store and query client: one set per store, so saves stay in order. */
export function useChatActions(): ChatActionsApi {
  const store = useChatStoreApi();
  const queryClient = useQueryClient();
  return useMemo(() => {
    let actions = actionsByStore.get(store);
    if (!actions) {
      actions = createChatActions({
        store,
        queryClient,
        navigate: openedInPlace,
      });
      actionsByStore.set(store, actions);
    }
    return actions;
    // The query client is stable for the page's life; the actions must be too.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);
}
