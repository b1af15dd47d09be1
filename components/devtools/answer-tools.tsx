"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { Conversation, StoredMessage } from "@/lib/studio/conversation-schema";
import { conversationKeys } from "@/lib/hooks/use-conversations";
import { useChatStoreApi } from "@/lib/stores/chat-store";
import type { AnswerTrace } from "@/lib/studio/answer-trace";
import { defaultSettings } from "@/lib/studio/settings-model";
import { requestOfAnswer } from "@/lib/studio/turn-requests";
import { GetCodeButton } from "./get-code-button";
import { InspectorDialog } from "./inspector-dialog";

/** The developer tools of one answer: the code of its request, and its raw exchange. */
export function AnswerTools({
  conversationId,
  message,
}: {
  conversationId: string;
  message: StoredMessage;
}) {
  const queryClient = useQueryClient();
  const store = useChatStoreApi();
  // The trace is read when the inspector opens: the row does not re-render as traces are kept.
  const [inspected, setInspected] = useState<{ trace: AnswerTrace | undefined } | null>(null);
  const inspectButton = useRef<HTMLButtonElement>(null);
  return (
    <>
      <GetCodeButton
        title="Code for this answer's request"
        label="Get code for this answer"
        turn={() => {
          const conversation = queryClient.getQueryData<Conversation>(
            conversationKeys.detail(conversationId),
          );
          return {
            turn: requestOfAnswer(
              conversation?.messages ?? [],
              message.id,
              conversation?.settings ?? defaultSettings(),
            ),
          };
        }}
      />
      <Button
        ref={inspectButton}
        size="sm"
        variant="ghost"
        aria-haspopup="dialog"
        aria-label="Inspect this answer"
        onClick={() => setInspected({ trace: store.getState().traces[message.id] })}
      >
        Inspect
      </Button>
      {inspected && (
        <InspectorDialog
          open
          conversationId={conversationId}
          trace={inspected.trace}
          message={message}
          onClose={() => {
            setInspected(null);
            requestAnimationFrame(() => inspectButton.current?.focus());
          }}
        />
      )}
    </>
  );
}
