"use client";

/** The compare store (lib/chat-client/compare-state.ts) for React: one per provider, kept by the chat layout. */
import { createContext, useContext, useState, type ReactNode } from "react";
import { useStore, type StoreApi } from "zustand";
import { createCompareStore, type CompareStore } from "@/lib/chat-client/compare-state";

const CompareStoreContext = createContext<StoreApi<CompareStore> | null>(null);

export function CompareStoreProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createCompareStore());
  return <CompareStoreContext.Provider value={store}>{children}</CompareStoreContext.Provider>;
}

export function useCompareStoreApi(): StoreApi<CompareStore> {
  const store = useContext(CompareStoreContext);
  if (!store) throw new Error("useCompareStore must be used inside CompareStoreProvider");
  return store;
}

export function useCompareStore<Selected>(selector: (state: CompareStore) => Selected): Selected {
  return useStore(useCompareStoreApi(), selector);
}
