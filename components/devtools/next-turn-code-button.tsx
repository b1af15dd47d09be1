"use client";

import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import type { Part } from "@/lib/gemini/types";
import { useChatStoreApi } from "@/lib/stores/chat-store";
import { requestOfNextTurn } from "@/lib/studio/turn-requests";
import { GetCodeButton } from "./get-code-button";

export interface NextTurnCodeButtonProps {
  draftKey: string;
  settings: ConversationSettings;
  messages: readonly StoredMessage[];
  /** The user turn's parts for a text (the attachments, then the text). */
  partsFor(text: string): Part[];
}

/** "Get code" for the request the chat is about to send: history, settings and the draft. */
export function NextTurnCodeButton({
  draftKey,
  settings,
  messages,
  partsFor,
}: NextTurnCodeButtonProps) {
  const store = useChatStoreApi();
  return (
    <GetCodeButton
      title="Code for the next message"
      label="Get code for the next message"
      turn={() => {
        const draft = store.getState().drafts[draftKey] ?? "";
        const parts = partsFor(draft).filter((part) => part.text !== "");
        return {
          turn: requestOfNextTurn(messages, settings, parts),
          note:
            parts.length === 0
              ? 'The message box is empty: the snippets send the placeholder prompt "Hello".'
              : undefined,
        };
      }}
    />
  );
}
