"use client";

import { useQuery } from "@tanstack/react-query";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { AnswerTrace } from "@/lib/studio/answer-trace";

/**
 * The raw exchange the server stored with an answer (`/api/conversations/{id}/turns/{answer}/trace`),
 * for the inspector after a reload or on another device; null when none is kept (an answer
 * stored before the server kept them, or imported).
 */
export function useStoredTrace(conversationId: string, answerId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["conversations", "trace", conversationId, answerId] as const,
    enabled,
    staleTime: Infinity,
    retry: false,
    queryFn: async (): Promise<AnswerTrace | null> => {
      const response = await fetch(
        `/api/conversations/${encodeURIComponent(conversationId)}/turns/${encodeURIComponent(answerId)}/trace`,
        { credentials: "same-origin", cache: "no-store" },
      );
      if (response.ok) return (await response.json()) as AnswerTrace;
      const error = await readApiError(response);
      if (error.httpStatus === 404) return null;
      throw error;
    },
  });
}
