/**
 * Browser state of the chat page (a zustand store, one per page, never global): the
 * in-flight answer, drafts, settings not yet saved and which panels are open. Persisted
 * conversations live in react-query; this holds only what the browser owns. Plain
 * TypeScript: the page's React bindings are lib/stores/chat-store.tsx.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { AccumulatedResponse } from "@/lib/studio/accumulate-response";
import type { AnswerTrace } from "@/lib/studio/answer-trace";

/** Answers whose raw exchange this tab keeps for the inspector (the newest ones). */
const KEPT_TRACES = 30;

/** Key of drafts and settings for the chat that has not been created yet. */
export const NEW_CHAT_KEY = "new";

export interface InflightAnswer extends AccumulatedResponse {
  conversationId: string;
  /** The answer's id; its message row renders from here until it is finished. */
  messageId: string;
  /** The user message it answers. */
  promptMessageId: string;
  settings: ConversationSettings;
  startedAt: number;
  /**
   * `sending` until the server has stored the turn (leaving the page then would lose it);
   * `streaming` once it generates the answer, which no longer depends on this page.
   */
  phase: "sending" | "streaming";
  /** A stop was asked; the answer ends as soon as the server confirms. */
  stopping?: boolean;
}

export interface ChatState {
  inflight: InflightAnswer | null;
  drafts: Record<string, string>;
  /** Settings edited in this browser, by conversation id (or NEW_CHAT_KEY). */
  settingsDrafts: Record<string, ConversationSettings>;
  /** The settings last edited in this browser (kept across reloads): a new chat starts from them. */
  lastSettings: ConversationSettings | null;
  /** Settings text that does not parse yet (a schema being typed), by conversation key then field. */
  formErrors: Record<string, Record<string, string>>;
  sidebarOpen: boolean;
  settingsOpen: boolean;
  /** A message for the person outside any one answer (settings to fix, a save that failed). */
  notice: ChatNotice | null;
  /** The raw exchange of answers generated in this tab, by message id (the inspector's record). */
  traces: Record<string, AnswerTrace>;
}

export interface ChatNotice {
  kind: "error" | "info";
  text: string;
}

export interface ChatActions {
  setDraft(key: string, text: string): void;
  setSettingsDraft(key: string, settings: ConversationSettings): void;
  moveSettingsDraft(fromKey: string, toKey: string): void;
  setFormError(key: string, field: string, error: string | null): void;
  setSidebarOpen(open: boolean): void;
  setSettingsOpen(open: boolean): void;
  setNotice(notice: ChatNotice | null): void;
  /** Shows an answer being read; `controller` stops this page's reading (never the server's work). */
  beginAnswer(answer: InflightAnswer, controller: AbortController): void;
  updateAnswer(response: AccumulatedResponse): void;
  setAnswerPhase(
    messageId: string,
    change: Partial<Pick<InflightAnswer, "phase" | "stopping">>,
  ): void;
  endAnswer(messageId: string): void;
  /** Keeps an answer's raw exchange (the oldest is let go past KEPT_TRACES). */
  keepTrace(messageId: string, trace: AnswerTrace): void;
}

export type ChatStore = ChatState & ChatActions;

/** A fresh chat store; the abort controller of the answer being read stays in its closure. */
export function createChatStore(initial: Partial<ChatState> = {}): StoreApi<ChatStore> {
  let controller: AbortController | null = null;
  return createStore<ChatStore>()((set, get) => ({
    inflight: null,
    drafts: {},
    settingsDrafts: {},
    lastSettings: null,
    formErrors: {},
    sidebarOpen: false,
    settingsOpen: false,
    notice: null,
    traces: {},
    ...initial,
    setDraft: (key, text) => set((state) => ({ drafts: { ...state.drafts, [key]: text } })),
    setSettingsDraft: (key, settings) =>
      set((state) => {
        // A cache belongs to its conversation; everything else carries over to the next chat.
        const { cachedContent: _cache, ...carried } = settings;
        return {
          settingsDrafts: { ...state.settingsDrafts, [key]: settings },
          lastSettings: carried,
        };
      }),
    moveSettingsDraft: (fromKey, toKey) =>
      set((state) => {
        const { [fromKey]: moved, ...rest } = state.settingsDrafts;
        const { [fromKey]: draft, ...drafts } = state.drafts;
        const { [fromKey]: errors, ...formErrors } = state.formErrors;
        return {
          settingsDrafts: moved ? { ...rest, [toKey]: moved } : rest,
          drafts: draft !== undefined ? { ...drafts, [toKey]: draft } : drafts,
          formErrors: errors ? { ...formErrors, [toKey]: errors } : formErrors,
        };
      }),
    setFormError: (key, field, error) =>
      set((state) => {
        const { [field]: _previous, ...others } = state.formErrors[key] ?? {};
        return {
          formErrors: {
            ...state.formErrors,
            [key]: error === null ? others : { ...others, [field]: error },
          },
        };
      }),
    setSidebarOpen: (open) => set({ sidebarOpen: open }),
    setSettingsOpen: (open) => set({ settingsOpen: open }),
    setNotice: (notice) => set({ notice }),
    beginAnswer: (answer, nextController) => {
      controller?.abort();
      controller = nextController;
      set({ inflight: answer, notice: null });
    },
    updateAnswer: (response) =>
      set((state) => (state.inflight ? { inflight: { ...state.inflight, ...response } } : {})),
    setAnswerPhase: (messageId, change) =>
      set((state) =>
        state.inflight?.messageId === messageId
          ? { inflight: { ...state.inflight, ...change } }
          : {},
      ),
    endAnswer: (messageId) => {
      if (get().inflight?.messageId !== messageId) return;
      controller = null;
      set({ inflight: null });
    },
    keepTrace: (messageId, trace) =>
      set((state) => {
        const entries = Object.entries({ ...state.traces, [messageId]: trace });
        return { traces: Object.fromEntries(entries.slice(-KEPT_TRACES)) };
      }),
  }));
}
