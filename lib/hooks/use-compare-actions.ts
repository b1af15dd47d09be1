"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import type { StoreApi } from "zustand";
import { openedInPlace } from "./use-open-conversation";
import { createCompareActions, type CompareActionsApi } from "@/lib/chat-client/compare-actions";
import type { CompareStore } from "@/lib/chat-client/compare-state";
import { useCompareStoreApi } from "@/lib/stores/compare-store";
import { useChatActions } from "./use-chat-actions";

const actionsByStore = new WeakMap<StoreApi<CompareStore>, CompareActionsApi>();

/** The compare actions (lib/chat-client) of this page's stores: one set per compare store. */
export function useCompareActions(): CompareActionsApi {
  const store = useCompareStoreApi();
  const queryClient = useQueryClient();
  const chat = useChatActions();
  return useMemo(() => {
    let actions = actionsByStore.get(store);
    if (!actions) {
      actions = createCompareActions({
        store,
        queryClient,
        chat,
        navigate: openedInPlace,
      });
      actionsByStore.set(store, actions);
    }
    return actions;
    // The query client and chat actions are stable for the page's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);
}
