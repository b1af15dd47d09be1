"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { SettingsPanel } from "@/components/settings/settings-panel";
import { violationCount } from "@/lib/studio/settings-model";
import { Button } from "@/components/ui/button";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import { useConversationSettings } from "@/lib/hooks/use-conversation-settings";
import { useConversation } from "@/lib/hooks/use-conversations";
import { useSession } from "@/lib/hooks/use-session";
import { NEW_CHAT_KEY, useChatStore, type ChatNotice } from "@/lib/stores/chat-store";
import { ChatAttachments, useChatAttachments } from "@/components/files/chat-attachments";
import type { UseQueryResult } from "@tanstack/react-query";
import type { Conversation, StoredMessage } from "@/lib/studio/conversation-schema";
import type { ConversationTree } from "@/lib/studio/conversation-tree";
import { Composer, type ComposerHandle } from "./composer";
import { ChatHeader } from "./chat-header";
import {
  useChatViewShortcuts,
  useConversationPath,
  useGatedSend,
  useJoinLiveAnswer,
  useLeaveWarning,
} from "./chat-view-hooks";
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

/**
 * One conversation (or a new one): messages, composer, settings; Escape stops the answer. What it
 * does besides drawing is chat-view-hooks.ts, its toolbar chat-header.tsx; what is left is the
 * page's one layout and the state its parts share.
 */
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
  const scroller = useStickToBottom<HTMLDivElement>();
  const settingsButton = useRef<HTMLButtonElement>(null);
  const problems = violationCount(settingsState.violations);
  const draftKey = conversationId ?? NEW_CHAT_KEY;
  const { tree, path } = useConversationPath(conversation.data);
  const attachments = useChatAttachments({
    conversationId,
    scope: draftKey,
    settings: settingsState.settings,
    traits: settingsState.traits,
    messages: path,
    updateSettings: settingsState.update,
  });
  useJoinLiveAnswer(conversationId, path, compareOpen);
  useEffect(() => {
    composer.current?.focus();
  }, [conversationId]);

  useEffect(() => preloadHighlighter(), []);

  const [helpOpen, setHelpOpen] = useState(false);
  useChatViewShortcuts({
    conversationId,
    path,
    streaming,
    composer,
    onHelp: () => setHelpOpen(true),
  });
  const { send, sendNow } = useGatedSend(conversationId, problems, attachments);

  function closeSettings() {
    setSettingsOpen(false);
    requestAnimationFrame(() => settingsButton.current?.focus());
  }

  const title = conversationId === null ? "New chat" : (conversation.data?.title ?? "Chat");

  if (compareOpen) return <CompareView conversationId={conversationId} onClose={closeCompare} />;

  return (
    <div className="flex min-h-0 min-w-0 flex-1">
      <section aria-labelledby="chat-title" className="flex min-h-0 min-w-0 flex-1 flex-col">
        <ChatHeader
          title={title}
          settingsState={settingsState}
          draftKey={draftKey}
          messages={path}
          partsFor={attachments.partsFor}
          streaming={streaming}
          helpOpen={helpOpen}
          onHelpOpenChange={setHelpOpen}
          exportableId={conversationId && conversation.data ? conversationId : null}
          problems={problems}
          settingsOpen={settingsOpen}
          settingsButton={settingsButton}
          onToggleSettings={() => setSettingsOpen(!settingsOpen)}
          onShowSidebar={() => setSidebarOpen(true)}
          onCompare={() => openCompare(settingsState.settings)}
        />
        <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto">
          <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-3 py-4">
            <ConversationBody
              conversationId={conversationId}
              conversation={conversation}
              messages={path}
              tree={tree}
            />
          </div>
        </div>
        <div className="mx-auto w-full max-w-3xl px-3 pb-3">
          {notice && <NoticeBar notice={notice} onDismiss={() => setNotice(null)} />}
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
          {session.data?.mode === "local" && <LocalEngineNote />}
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

/** What the conversation area shows: a missing or failed conversation, loading, a new chat's hint, or the messages. */
function ConversationBody({
  conversationId,
  conversation,
  messages,
  tree,
}: {
  conversationId: string | null;
  conversation: UseQueryResult<Conversation>;
  messages: StoredMessage[];
  tree: ConversationTree;
}) {
  const notFound =
    conversation.isError && (conversation.error as { httpStatus?: number }).httpStatus === 404;
  return (
    <>
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
        <MessageList conversationId={conversationId} messages={messages} tree={tree} />
      )}
    </>
  );
}

function NoticeBar({ notice, onDismiss }: { notice: ChatNotice; onDismiss(): void }) {
  return (
    <div
      role="alert"
      className={`mb-2 flex items-start gap-2 rounded-md px-3 py-2 text-sm ${notice.kind === "error" ? "bg-red-50 text-red-900 dark:bg-red-950/50 dark:text-red-200" : "bg-zinc-100 dark:bg-zinc-900"}`}
    >
      <span className="flex-1">{notice.text}</span>
      <button type="button" className="text-xs underline" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

function LocalEngineNote() {
  return (
    <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="local-engine-note">
      Answers come from the local engine: a small offline statistical model, an honest stand-in for
      testing clients, not a real assistant.
    </p>
  );
}
