"use client";

import { memo } from "react";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import type { InflightAnswer } from "@/lib/chat-client/chat-state";
import { useChatStore } from "@/lib/stores/chat-store";
import { answerMessage } from "@/lib/studio/chat-request";
import { ModelMessage } from "./model-message";
import { UserMessage } from "./user-message";
import type { VersionProps } from "./version-switcher";

function liveMessage(inflight: InflightAnswer): StoredMessage {
  return answerMessage(inflight.messageId, inflight, inflight.settings, {});
}

export interface MessageSlotProps extends VersionProps {
  id: string;
  conversationId: string;
  /** The saved message; absent while its answer is still streaming. */
  message?: StoredMessage;
  isLast: boolean;
}

/**
 * One row of the conversation. Only the row whose id is the in-flight answer subscribes to
 * the stream (other rows' selector yields null every time, so they never re-render); when
 * the answer is saved the same row shows the saved message with identical markdown blocks.
 */
export const MessageSlot = memo(function MessageSlot({
  id,
  conversationId,
  message,
  isLast,
  ...versions
}: MessageSlotProps) {
  const inflight = useChatStore((state) =>
    state.inflight?.messageId === id ? state.inflight : null,
  );
  const busy = useChatStore((state) => state.inflight !== null);
  const shown = inflight ? liveMessage(inflight) : message;
  if (!shown) return null;
  if (shown.role === "user")
    return (
      <UserMessage message={shown} conversationId={conversationId} busy={busy} {...versions} />
    );
  return (
    <ModelMessage
      message={shown}
      conversationId={conversationId}
      streaming={inflight !== null}
      stopping={inflight?.stopping}
      isLast={isLast}
      busy={busy}
      {...versions}
    />
  );
});
