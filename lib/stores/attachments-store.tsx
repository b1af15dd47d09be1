"use client";

/**
 * Browser state of attachments (zustand, one store per provider, never global): each file
 * being uploaded or attached, its progress and state, by the composer that owns it. The bytes,
 * abort controllers and upload session URLs are not state: the uploader keeps them beside
 * the store (lib/hooks/use-upload.ts).
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { createStore, useStore, type StoreApi } from "zustand";
import type { Attachment } from "@/lib/studio/attachment-model";

export interface AttachmentsState {
  attachments: Attachment[];
  /** The person's choice: send images under the inline limit as inline_data instead of uploading. */
  inlineSmallImages: boolean;
  /** `blob:` URLs of media sent this visit, by file name: the transcript plays them (the service never gives uploaded bytes back). */
  sentMedia: Record<string, string>;
}

export interface AttachmentsActions {
  add(attachment: Attachment): void;
  update(id: string, change: Partial<Attachment>): void;
  remove(id: string): void;
  setInlineSmallImages(inline: boolean): void;
  keepSentMedia(name: string, objectUrl: string): void;
  /** Moves one scope's attachments to another (the new chat becoming a conversation). */
  moveScope(fromScope: string, toScope: string): void;
  /** Registers work to stop when the store's provider goes away (uploads in flight). */
  onDispose(cleanup: () => void): void;
  dispose(): void;
}

export type AttachmentsStore = AttachmentsState & AttachmentsActions;

/** A fresh attachments store. */
export function createAttachmentsStore(
  initial: Partial<AttachmentsState> = {},
): StoreApi<AttachmentsStore> {
  const cleanups = new Set<() => void>();
  return createStore<AttachmentsStore>()((set) => ({
    attachments: [],
    inlineSmallImages: false,
    sentMedia: {},
    ...initial,
    add: (attachment) => set((state) => ({ attachments: [...state.attachments, attachment] })),
    update: (id, change) =>
      set((state) => {
        const index = state.attachments.findIndex((item) => item.id === id);
        if (index < 0) return {};
        const attachments = state.attachments.slice();
        attachments[index] = { ...attachments[index]!, ...change };
        return { attachments };
      }),
    remove: (id) =>
      set((state) => ({ attachments: state.attachments.filter((item) => item.id !== id) })),
    setInlineSmallImages: (inline) => set({ inlineSmallImages: inline }),
    keepSentMedia: (name, objectUrl) =>
      set((state) => ({ sentMedia: { ...state.sentMedia, [name]: objectUrl } })),
    moveScope: (fromScope, toScope) =>
      set((state) => ({
        attachments: state.attachments.map((item) =>
          item.scope === fromScope ? { ...item, scope: toScope } : item,
        ),
      })),
    onDispose: (cleanup) => {
      cleanups.add(cleanup);
    },
    dispose: () => {
      for (const cleanup of cleanups) cleanup();
      cleanups.clear();
    },
  }));
}

const AttachmentsStoreContext = createContext<StoreApi<AttachmentsStore> | null>(null);

/** Provides one attachments store to a page (the chat pages share one through their layout). */
export function AttachmentsStoreProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createAttachmentsStore());
  // Uploads belong to the page: leaving it cancels them rather than sending bytes nobody sees.
  useEffect(() => () => store.getState().dispose(), [store]);
  return (
    <AttachmentsStoreContext.Provider value={store}>{children}</AttachmentsStoreContext.Provider>
  );
}

/** The store itself, for actions that read state at call time. */
export function useAttachmentsStoreApi(): StoreApi<AttachmentsStore> {
  const store = useContext(AttachmentsStoreContext);
  if (!store) throw new Error("useAttachmentsStore must be used inside AttachmentsStoreProvider");
  return store;
}

/** Selects a slice of the attachments store; re-renders only when the slice changes. */
export function useAttachmentsStore<Selected>(
  selector: (state: AttachmentsStore) => Selected,
): Selected {
  return useStore(useAttachmentsStoreApi(), selector);
}
