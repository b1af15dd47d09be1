"use client";

import type { RefObject } from "react";
import { ChatAttachments, type ChatAttachmentsProps } from "@/components/files/chat-attachments";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import { useSession } from "@/lib/hooks/use-session";
import type { ChatNotice } from "@/lib/chat-client/chat-state";
import { useChatStore } from "@/lib/stores/chat-store";
import { Composer, type ComposerHandle } from "./composer";

/**
 * The chat page below its messages: the notice, the stream's status for screen readers, the
 * composer inside its attachments, and the local engine's note.
 */
export function ComposerArea({
  conversationId,
  draftKey,
  composer,
  attachments,
  streaming,
  sending,
  modelRefusal,
  onSend,
  onSendAnyway,
}: {
  conversationId: string | null;
  draftKey: string;
  composer: RefObject<ComposerHandle | null>;
  attachments: ChatAttachmentsProps["state"];
  streaming: boolean;
  sending: boolean;
  /** Why the chosen model cannot be sent to from the chat (it does not chat), or null. */
  modelRefusal: string | null;
  onSend(text: string): void;
  onSendAnyway(text: string): void;
}) {
  const actions = useChatActions();
  const session = useSession();
  const notice = useChatStore((state) => state.notice);
  const setNotice = useChatStore((state) => state.setNotice);
  return (
    <div className="mx-auto w-full max-w-3xl px-3 pb-3">
      {notice && <NoticeBar notice={notice} onDismiss={() => setNotice(null)} />}
      <StreamStatus conversationId={conversationId} />
      <ChatAttachments state={attachments} onSendAnyway={onSendAnyway}>
        <Composer
          ref={composer}
          draftKey={draftKey}
          streaming={streaming}
          sending={sending}
          onSend={onSend}
          onStop={() => {
            actions.stop();
            composer.current?.focus();
          }}
          onPaste={attachments.paste}
          toolbar={attachments.toolbar}
          sendBlockedReason={modelRefusal ?? attachments.blockReason}
        />
      </ChatAttachments>
      {session.data?.mode === "local" && <LocalEngineNote />}
    </div>
  );
}

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
