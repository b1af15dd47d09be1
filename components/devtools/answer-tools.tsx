"use client";

import { useQueryClient } from "@tanstack/react-query";
import type { Conversation, StoredMessage } from "@/lib/studio/conversation-schema";
import { conversationKeys } from "@/lib/hooks/use-conversations";
import { defaultSettings } from "@/lib/studio/settings-model";
import { requestOfAnswer } from "@/lib/studio/turn-requests";
import { GetCodeButton } from "./get-code-button";

/** The developer tools of one answer: the code of the request that produced it. */
export function AnswerTools({
  conversationId,
  message,
}: {
  conversationId: string;
  message: StoredMessage;
}) {
  const queryClient = useQueryClient();
  return (
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
  );
}
