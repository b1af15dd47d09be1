"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { SettingsPanel } from "@/components/settings/settings-panel";
import { violationCount } from "@/lib/studio/settings-model";
import { Button } from "@/components/ui/button";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import { useConversationSettings } from "@/lib/hooks/use-conversation-settings";
import { useConversation } from "@/lib/hooks/use-conversations";
import { useSession } from "@/lib/hooks/use-session";
import { NEW_CHAT_KEY, useChatStore } from "@/lib/stores/chat-store";
import { ChatAttachments, useChatAttachments } from "@/components/files/chat-attachments";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { NextTurnCodeButton } from "@/components/devtools/next-turn-code-button";
import { buildTree, currentPath } from "@/lib/studio/conversation-tree";
import { Composer, type ComposerHandle } from "./composer";
import { ModelPicker } from "./model-picker";
import { ShortcutsHelpButton, useChatShortcuts } from "./keyboard-shortcuts";
import { ConversationExportMenu } from "./conversation-transfer";
import { preloadHighlighter } from "./markdown-view";
import { MessageList, useStickToBottom } from "./message-list";
import { CompareView } from "./compare-view";
import { useCompareStore } from "@/lib/stores/compare-store";

function StreamStatus({ conversationId }: { conversationId: string | null }) {
  const streaming = useChatStore(
    (state) => state.inflight !== null && state.inflight.conversationId === conversationId,
  );
  return (
    <p role="status" className="sr-only">
      {streaming ? "Generating an answer. Press Escape to stop." : ""}
    </p>
  );
}

const NO_MESSAGES: StoredMessage[] = [];

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

/**
 * Asks before the page is left while a sent prompt has not reached the server yet (leaving
 * then would lose it); once the server has it, the answer no longer depends on this page.
 */
function useLeaveWarning(active: boolean) {
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

/** One conversation (or a new one): messages, composer, settings; Escape stops the answer. */
export function ChatView({ conversationId }: { conversationId: string | null }) {
  const conversation = useConversation(conversationId);
  const settingsState = useConversationSettings(conversationId);
  const actions = useChatActions();
  const session = useSession();
  const streaming = useChatStore((state) => state.inflight !== null);
  const sending = useChatStore((state) => state.inflight?.phase === "sending");
  useLeaveWarning(sending);
  const settingsOpen = useChatStore((state) => state.settingsOpen);
  const setSettingsOpen = useChatStore((state) => state.setSettingsOpen);
  const setSidebarOpen = useChatStore((state) => state.setSidebarOpen);
  const notice = useChatStore((state) => state.notice);
  const setNotice = useChatStore((state) => state.setNotice);
  const compareOpen = useCompareStore((state) => state.open);
  const openCompare = useCompareStore((state) => state.openCompare);
  const closeCompare = useCompareStore((state) => state.closeCompare);
  const composer = useRef<ComposerHandle>(null);
  const router = useRouter();
  const scroller = useStickToBottom<HTMLDivElement>();
  const settingsButton = useRef<HTMLButtonElement>(null);
  const problems = violationCount(settingsState.violations);
  const draftKey = conversationId ?? NEW_CHAT_KEY;
  const tree = useMemo(
    () => buildTree(conversation.data?.messages ?? NO_MESSAGES),
    [conversation.data?.messages],
  );
  const path = useMemo(
    () => (conversation.data ? currentPath(conversation.data, tree) : NO_MESSAGES),
    [conversation.data, tree],
  );
  const attachments = useChatAttachments({
    conversationId,
    scope: draftKey,
    settings: settingsState.settings,
    traits: settingsState.traits,
    messages: path,
    updateSettings: settingsState.update,
  });
  // An answer the server is still generating (after a reload, or sent from another page): join it.
  const generatingId = path.findLast((message) => message.streaming)?.id;
  // (Compare mode follows its own panes' answers.)
  useEffect(() => {
    if (conversationId && generatingId && !compareOpen)
      void actions.attach(conversationId, generatingId);
  }, [conversationId, generatingId, actions, compareOpen]);

  useEffect(() => {
    composer.current?.focus();
  }, [conversationId]);

  useEffect(() => preloadHighlighter(), []);

  const [helpOpen, setHelpOpen] = useState(false);
  useChatShortcuts({
    "new-chat": () => router.push("/chat"),
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

  function closeSettings() {
    setSettingsOpen(false);
    requestAnimationFrame(() => settingsButton.current?.focus());
  }

  const notFound =
    conversation.isError && (conversation.error as { httpStatus?: number }).httpStatus === 404;
  const title = conversationId === null ? "New chat" : (conversation.data?.title ?? "Chat");

  if (compareOpen) return <CompareView conversationId={conversationId} onClose={closeCompare} />;

  return (
    <div className="flex min-h-0 min-w-0 flex-1">
      <section aria-labelledby="chat-title" className="flex min-h-0 min-w-0 flex-1 flex-col">
        <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <Button
            size="sm"
            className="md:hidden"
            onClick={() => setSidebarOpen(true)}
            aria-label="Show conversations"
          >
            ☰
          </Button>
          <h1 id="chat-title" className="min-w-0 flex-1 truncate text-base font-semibold">
            {title}
          </h1>
          <ModelPicker state={settingsState} />
          <ShortcutsHelpButton open={helpOpen} onOpenChange={setHelpOpen} />
          <NextTurnCodeButton
            draftKey={draftKey}
            settings={settingsState.settings}
            messages={path}
            partsFor={attachments.partsFor}
          />
          <Button
            size="sm"
            disabled={streaming}
            onClick={() => openCompare(settingsState.settings)}
            title="Answer one prompt with two to four models side by side"
          >
            Compare
          </Button>
          {conversationId && conversation.data && (
            <ConversationExportMenu conversationId={conversationId} />
          )}
          <Button
            ref={settingsButton}
            size="sm"
            onClick={() => setSettingsOpen(!settingsOpen)}
            aria-expanded={settingsOpen}
            aria-controls="chat-settings"
          >
            Settings{problems > 0 ? ` (${problems} to fix)` : ""}
          </Button>
        </div>
        <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto">
          <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-3 py-4">
            {notFound ? (
              <p role="alert" className="text-sm">
                This conversation does not exist (or was deleted).{" "}
                <Link href="/chat" className="underline">
                  Start a new chat
                </Link>
                .
              </p>
            ) : conversation.isError ? (
              <div role="alert" className="text-sm text-red-700 dark:text-red-400">
                Could not load the conversation: {conversation.error.message}{" "}
                <Button size="sm" onClick={() => void conversation.refetch()}>
                  Retry
                </Button>
              </div>
            ) : conversationId !== null && !conversation.data ? (
              <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
                Loading the conversation…
              </p>
            ) : conversationId === null ? (
              <p className="py-8 text-center text-sm text-zinc-600 dark:text-zinc-400">
                Send a message to start a conversation. It is saved on this studio&apos;s server.
              </p>
            ) : (
              <MessageList conversationId={conversationId} messages={path} tree={tree} />
            )}
          </div>
        </div>
        <div className="mx-auto w-full max-w-3xl px-3 pb-3">
          {notice && (
            <div
              role="alert"
              className={`mb-2 flex items-start gap-2 rounded-md px-3 py-2 text-sm ${notice.kind === "error" ? "bg-red-50 text-red-900 dark:bg-red-950/50 dark:text-red-200" : "bg-zinc-100 dark:bg-zinc-900"}`}
            >
              <span className="flex-1">{notice.text}</span>
              <button type="button" className="text-xs underline" onClick={() => setNotice(null)}>
                Dismiss
              </button>
            </div>
          )}
          <StreamStatus conversationId={conversationId} />
          <ChatAttachments state={attachments} onSendAnyway={sendNow}>
            <Composer
              ref={composer}
              draftKey={draftKey}
              streaming={streaming}
              sending={sending}
              onSend={send}
              onStop={() => {
                actions.stop();
                composer.current?.focus();
              }}
              toolbar={attachments.toolbar}
              sendBlockedReason={attachments.blockReason}
            />
          </ChatAttachments>
          {session.data?.mode === "local" && (
            <p
              className="mt-1 text-xs text-zinc-600 dark:text-zinc-400"
              data-testid="local-engine-note"
            >
              Answers come from the local engine: a small offline statistical model, an honest
              stand-in for testing clients, not a real assistant.
            </p>
          )}
        </div>
      </section>
      {settingsOpen && (
        <aside
          id="chat-settings"
          aria-label="Settings panel"
          className="absolute inset-0 z-30 overflow-y-auto bg-white md:static md:w-96 md:shrink-0 md:border-l md:border-zinc-200 dark:bg-zinc-950 md:dark:border-zinc-800"
        >
          <SettingsPanel state={settingsState} onClose={closeSettings} />
        </aside>
      )}
    </div>
  );
}
