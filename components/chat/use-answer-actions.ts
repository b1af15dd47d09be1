"use client";

import type { FunctionCall } from "@/lib/gemini/types";
import { useChatActions, type ChatActionsApi } from "@/lib/hooks/use-chat-actions";

type Threshold = Parameters<ChatActionsApi["adjustAndRetry"]>[3];

/**
 * What can be done to one answer, bound to it. Adjusting a safety setting and answering a
 * function call continue the conversation, so they exist only on its last answer while
 * nothing runs (`continues`).
 */
export function useAnswerActions(conversationId: string, answerId: string, continues: boolean) {
  const actions = useChatActions();
  return {
    chooseCandidate: (index: number) => actions.chooseCandidate(conversationId, answerId, index),
    adjust: continues
      ? (category: string, threshold: Threshold) =>
          void actions.adjustAndRetry(conversationId, answerId, category, threshold)
      : undefined,
    respond: continues
      ? (call: FunctionCall, response: Record<string, unknown>) =>
          void actions.send(conversationId, [
            {
              functionResponse: {
                ...(call.id ? { id: call.id } : {}),
                name: call.name,
                response,
              },
            },
          ])
      : undefined,
    retry: () => void actions.regenerate(conversationId, answerId),
    continueWithoutCache: () => void actions.continueWithoutCache(conversationId, answerId),
  };
}

export type AnswerActions = ReturnType<typeof useAnswerActions>;
