"use client";

import type { FunctionCall } from "@/lib/gemini/types";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import type { ThresholdChange } from "@/lib/studio/settings-model";

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
      ? (changes: readonly ThresholdChange[]) =>
          void actions.adjustAndRetry(conversationId, answerId, changes)
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
