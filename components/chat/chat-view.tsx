"use client";

import Link from "next/link";
import { useEffect, type RefCallback } from "react";
import { SettingsPanel } from "@/components/settings/settings-panel";
import { violationCount } from "@/lib/studio/settings-model";
import { chatRefusal } from "@/lib/studio/model-facts";
import { Button } from "@/components/ui/button";
import {
  useConversationSettings,
  type ConversationSettingsState,
} from "@/lib/hooks/use-conversation-settings";
import { useConversation } from "@/lib/hooks/use-conversations";
import { useOpenConversationId } from "@/lib/hooks/use-open-conversation";
import { NEW_CHAT_KEY } from "@/lib/chat-client/chat-state";
import { useChatStore } from "@/lib/stores/chat-store";
import { useChatAttachments } from "@/components/files/chat-attachments";
import type { UseQueryResult } from "@tanstack/react-query";
import type { Conversation, StoredMessage } from "@/lib/studio/conversation-schema";
import type { ConversationTree } from "@/lib/studio/conversation-tree";
import { ComposerArea } from "./composer-area";
import { ChatHeader } from "./chat-header";
import {
  useChatViewShortcuts,
  useComposerFocus,
  useConversationPath,
  useGatedSend,
  useJoinLiveAnswer,
  useLeaveWarning,
  useSettingsPanel,
} from "./chat-view-hooks";
import { warmAnswerRendering } from "./answer-warm-up";
import { MessageList, useStickToBottom } from "./message-list";
import { CompareView } from "./compare-view";
import { useSearchHit } from "./search-hit";
import { useCompareStore } from "@/lib/stores/compare-store";

/**
 * One conversation (or a new one), the one the address names: messages, composer, settings;
 * Escape stops the answer. It is the chat layout's, so it stays mounted across the chat pages; a
 * new chat's first message turns it into its conversation in place (the address changes, the
 * view stays). What it does besides drawing is chat-view-hooks.ts, its toolbar chat-header.tsx,
 * what lies below the messages composer-area.tsx; what is left is the page's one layout and the
 * state its parts share.
 */
export function ChatView() {
  const conversationId = useOpenConversationId();
  const conversation = useConversation(conversationId);
  const settingsState = useConversationSettings(conversationId);
  const streaming = useChatStore((state) => state.inflight !== null);
  const sending = useChatStore((state) => state.inflight?.phase === "sending");
  useLeaveWarning(sending);
  const { settingsOpen, settingsButton, toggleSettings, closeSettings } = useSettingsPanel();
  const compareOpen = useCompareStore((state) => state.open);
  const closeCompare = useCompareStore((state) => state.closeCompare);
  const scroller = useStickToBottom<HTMLDivElement>();
  const problems = violationCount(settingsState.violations);
  const draftKey = conversationId ?? NEW_CHAT_KEY;
  const { tree, path } = useConversationPath(conversation.data);
  const attachments = useChatAttachments({
    conversationId,
    scope: draftKey,
    settings: settingsState.settings,
    facts: settingsState.facts,
    traits: settingsState.traits,
    messages: path,
    updateSettings: settingsState.update,
  });
  useJoinLiveAnswer(conversationId, path, compareOpen);
  useSearchHit(conversationId, tree, path);
  const composer = useComposerFocus(conversationId);
  useEffect(() => warmAnswerRendering(), []);

  const { helpOpen, setHelpOpen } = useChatViewShortcuts({
    conversationId,
    path,
    streaming,
    composer,
  });
  const { send, sendNow } = useGatedSend(conversationId, problems, attachments);
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
          onToggleSettings={toggleSettings}
        />
        <ConversationBody
          scroller={scroller}
          conversationId={conversationId}
          conversation={conversation}
          messages={path}
          tree={tree}
        />
        <ComposerArea
          conversationId={conversationId}
          draftKey={draftKey}
          composer={composer}
          attachments={attachments}
          streaming={streaming}
          sending={sending}
          modelRefusal={chatRefusal(settingsState.facts)}
          onSend={send}
          onSendAnyway={sendNow}
        />
      </section>
      {settingsOpen && <SettingsAside state={settingsState} onClose={closeSettings} />}
    </div>
  );
}

/** The conversation's settings beside it (over it on a narrow screen). */
function SettingsAside({ state, onClose }: { state: ConversationSettingsState; onClose(): void }) {
  return (
    <aside
      id="chat-settings"
      aria-label="Settings panel"
      className="absolute inset-0 z-30 overflow-y-auto bg-white md:static md:w-96 md:shrink-0 md:border-l md:border-zinc-200 dark:bg-zinc-950 md:dark:border-zinc-800"
    >
      <SettingsPanel state={state} onClose={onClose} />
    </aside>
  );
}

/**
 * The conversation area, scrolled by `scroller`: a missing or failed conversation, loading, a new
 * chat's hint, or the messages.
 */
function ConversationBody({
  scroller,
  conversationId,
  conversation,
  messages,
  tree,
}: {
  scroller: RefCallback<HTMLDivElement>;
  conversationId: string | null;
  conversation: UseQueryResult<Conversation>;
  messages: StoredMessage[];
  tree: ConversationTree;
}) {
  const notFound =
    conversation.isError && (conversation.error as { httpStatus?: number }).httpStatus === 404;
  return (
    <div ref={scroller} data-conversation-scroller className="min-h-0 flex-1 overflow-y-auto">
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
          <MessageList conversationId={conversationId} messages={messages} tree={tree} />
        )}
      </div>
    </div>
  );
}
