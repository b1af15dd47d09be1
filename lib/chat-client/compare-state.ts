/**
 * Browser state of compare mode: one prompt answered side by side by two to four panes, each
 * with its own settings. A pane's run is the answer it is showing (streaming or finished);
 * answers themselves are the conversation's, generated and stored by the server as versions
 * of the same prompt. Kept by the chat layout, so a run survives the navigation from a new
 * chat to the conversation it creates.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { AccumulatedResponse } from "@/lib/studio/accumulate-response";
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";

export const MIN_PANES = 2;
export const MAX_PANES = 4;

export interface PaneRun {
  conversationId: string;
  answerId: string;
  /** `sending` until the server has the turn, `streaming` while it generates, then `done` or `failed`. */
  status: "sending" | "streaming" | "done" | "failed";
  response: AccumulatedResponse;
  /** performance.now() when the prompt was sent. */
  sentAt: number;
  /** Milliseconds from sending to the first chunk carrying answer parts. */
  firstTokenMs?: number;
  /** Milliseconds from sending to the stored answer. */
  totalMs?: number;
  /** The answer as stored once finished. */
  answer?: StoredMessage;
  /** Why the pane has no answer (the turn was refused, or the connection was lost). */
  error?: string;
}

export interface ComparePane {
  /** Stable key of the pane (its settings' form errors are kept under it). */
  key: string;
  settings: ConversationSettings;
  run: PaneRun | null;
}

export interface CompareState {
  open: boolean;
  panes: ComparePane[];
  /** The conversation the panes' answers belong to, while they are shown. */
  conversationId: string | null;
}

export interface CompareActions {
  /** Opens compare mode with `count` panes, each starting from `settings`. */
  openCompare(settings: ConversationSettings, count?: number): void;
  closeCompare(): void;
  /** Adds panes (copies of the last one) or removes panes from the end. */
  setPaneCount(count: number): void;
  setPaneSettings(key: string, settings: ConversationSettings): void;
  beginRuns(conversationId: string, runs: Record<string, PaneRun>): void;
  updateRun(key: string, answerId: string, change: Partial<PaneRun>): void;
}

export type CompareStore = CompareState & CompareActions;

let paneCounter = 0;
function paneKey(): string {
  return `compare-${++paneCounter}`;
}

export function createCompareStore(): StoreApi<CompareStore> {
  return createStore<CompareStore>()((set) => ({
    open: false,
    panes: [],
    conversationId: null,
    openCompare: (settings, count = MIN_PANES) =>
      set((state) => ({
        open: true,
        panes:
          state.panes.length > 0
            ? state.panes
            : Array.from({ length: count }, () => ({ key: paneKey(), settings, run: null })),
      })),
    closeCompare: () => set({ open: false }),
    setPaneCount: (count) =>
      set((state) => {
        const wanted = Math.min(MAX_PANES, Math.max(MIN_PANES, count));
        const panes = state.panes.slice(0, wanted);
        while (panes.length < wanted)
          panes.push({ key: paneKey(), settings: panes[panes.length - 1]!.settings, run: null });
        return { panes };
      }),
    setPaneSettings: (key, settings) =>
      set((state) => ({
        panes: state.panes.map((pane) => (pane.key === key ? { ...pane, settings } : pane)),
      })),
    beginRuns: (conversationId, runs) =>
      set((state) => ({
        conversationId,
        panes: state.panes.map((pane) => ({ ...pane, run: runs[pane.key] ?? null })),
      })),
    updateRun: (key, answerId, change) =>
      set((state) => ({
        panes: state.panes.map((pane) =>
          pane.key === key && pane.run?.answerId === answerId
            ? { ...pane, run: { ...pane.run, ...change } }
            : pane,
        ),
      })),
  }));
}
