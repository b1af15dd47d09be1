"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { ChatAttachmentsState } from "@/components/files/chat-attachments";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import { leaveOpenedInPlace } from "@/lib/hooks/use-open-conversation";
import type { Conversation, StoredMessage } from "@/lib/studio/conversation-schema";
import { buildTree, currentPath } from "@/lib/studio/conversation-tree";
import { useChatStore } from "@/lib/stores/chat-store";
import type { ComposerHandle } from "./composer";
import { useChatShortcuts } from "./keyboard-shortcuts";

/** What the chat view does besides drawing: its tree and branch, joining a live answer, sending, shortcuts, leave warning. */

const NO_MESSAGES: StoredMessage[] = [];

/** The conversation's message tree and the branch it shows. */
export function useConversationPath(conversation: Conversation | undefined) {
  const tree = useMemo(
    () => buildTree(conversation?.messages ?? NO_MESSAGES),
    [conversation?.messages],
  );
  const path = useMemo(
    () => (conversation ? currentPath(conversation, tree) : NO_MESSAGES),
    [conversation, tree],
  );
  return { tree, path };
}

/**
 * Joins an answer the server is still generating (after a reload, or sent from another page).
 * Compare mode follows its own panes' answers.
 */
export function useJoinLiveAnswer(
  conversationId: string | null,
  path: StoredMessage[],
  compareOpen: boolean,
) {
  const actions = useChatActions();
  const generatingId = path.findLast((message) => message.streaming)?.id;
  useEffect(() => {
    if (conversationId && generatingId && !compareOpen)
      void actions.attach(conversationId, generatingId);
  }, [conversationId, generatingId, actions, compareOpen]);
}

/**
 * Sending from the composer: settings that break a rule open the panel at the first one and say
 * so instead; attachments must be ACTIVE, and over the input limit the person is asked first
 * (`sendNow` is their answer). The "Fix" notice goes away once nothing is left to fix.
 */
export function useGatedSend(
  conversationId: string | null,
  problems: number,
  attachments: ChatAttachmentsState,
) {
  const actions = useChatActions();
  const notice = useChatStore((state) => state.notice);
  const setNotice = useChatStore((state) => state.setNotice);
  const setSettingsOpen = useChatStore((state) => state.setSettingsOpen);

  useEffect(() => {
    if (problems === 0 && notice?.text.startsWith("Fix")) setNotice(null);
  }, [problems, notice, setNotice]);

  function send(text: string) {
    if (problems > 0) {
      setNotice({
        kind: "error",
        text: `Fix ${problems === 1 ? "the setting" : `the ${problems} settings`} marked in the settings panel before sending.`,
      });
      setSettingsOpen(true);
      revealFirstInvalidSetting();
      return;
    }
    // Waits for attachments to be ACTIVE; over the input limit it asks first.
    if (!attachments.confirmSend(text)) return;
    sendNow(text);
  }

  function sendNow(text: string) {
    setNotice(null);
    void actions.send(conversationId, attachments.partsFor(text), attachments.records());
    attachments.clear();
  }

  return { send, sendNow };
}

/** The settings panel's toggle; closing it puts the focus back on the button that opens it. */
export function useSettingsPanel() {
  const settingsOpen = useChatStore((state) => state.settingsOpen);
  const setSettingsOpen = useChatStore((state) => state.setSettingsOpen);
  const settingsButton = useRef<HTMLButtonElement>(null);
  function closeSettings() {
    setSettingsOpen(false);
    requestAnimationFrame(() => settingsButton.current?.focus());
  }
  return {
    settingsOpen,
    settingsButton,
    toggleSettings: () => setSettingsOpen(!settingsOpen),
    closeSettings,
  };
}

/** The composer, focused whenever another conversation is shown. */
export function useComposerFocus(conversationId: string | null) {
  const composer = useRef<ComposerHandle>(null);
  useEffect(() => {
    composer.current?.focus();
  }, [conversationId]);
  return composer;
}

/** The chat page's keyboard shortcuts, and whether the help sheet that lists them is open. */
export function useChatViewShortcuts({
  conversationId,
  path,
  streaming,
  composer,
}: {
  conversationId: string | null;
  path: StoredMessage[];
  streaming: boolean;
  composer: RefObject<ComposerHandle | null>;
}) {
  const [helpOpen, setHelpOpen] = useState(false);
  const router = useRouter();
  const actions = useChatActions();
  const settingsOpen = useChatStore((state) => state.settingsOpen);
  const setSettingsOpen = useChatStore((state) => state.setSettingsOpen);
  const setSidebarOpen = useChatStore((state) => state.setSidebarOpen);
  useChatShortcuts({
    "new-chat": () => {
      leaveOpenedInPlace();
      router.push("/chat");
    },
    "focus-composer": () => composer.current?.focus(),
    stop: () => {
      if (!streaming) return false;
      actions.stop();
      composer.current?.focus();
    },
    regenerate: () => {
      const last = path.at(-1);
      if (streaming || conversationId === null || last?.role !== "model") return false;
      void actions.regenerate(conversationId, last.id);
    },
    "open-settings": () => setSettingsOpen(!settingsOpen),
    search: () => {
      setSidebarOpen(true);
      requestAnimationFrame(() => document.getElementById("conversation-search")?.focus());
    },
    help: () => setHelpOpen(true),
  });
  return { helpOpen, setHelpOpen };
}

/**
 * Asks before the page is left while a sent prompt has not reached the server yet (leaving
 * then would lose it); once the server has it, the answer no longer depends on this page.
 */
export function useLeaveWarning(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [active]);
}

/** Scrolls the settings panel to the first field that blocks sending and focuses it (once it is shown). */
function revealFirstInvalidSetting(): void {
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const field = document.querySelector<HTMLElement>('#chat-settings [aria-invalid="true"]');
      field?.scrollIntoView({ block: "center" });
      field?.focus();
    }),
  );
}
