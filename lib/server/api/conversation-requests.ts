import "server-only";
import { UNDO_DELETE_MS } from "@/lib/db/stores/conversation-store";
import type { QuotaAdmission } from "@/lib/db/stores/quota-admission";
import { ApiError } from "@/lib/gemini/api-error";
import { utf8Length } from "@/lib/gemini/backend/quotas";
import { serverEnv } from "../config/env";

/**
 * What the `/api/conversations` handlers share: the bound of a body (read and checked by
 * studio-endpoint.ts), the caller's conversation quota held before anything is stored, and
 * the not-found answer.
 */

/** Largest body of a conversation call: a turn or messages may carry inline media. */
export const CONVERSATION_BODY_BYTES = 32 * 1024 * 1024;

/**
 * The admission of a write of `added` (a validated body: what the call will write, as JSON)
 * against the caller's conversation quota, for the store to check in the write's own
 * transaction (so concurrent writes cannot all pass it): the service's 429 when it would take
 * the caller's conversations over their quota. An answer being generated grows after its turn
 * was admitted, so the quota can be passed by at most one answer. Undefined: no quota.
 */
export function conversationRoom(added: unknown): QuotaAdmission | undefined {
  const quota = serverEnv().quotas.conversationBytes;
  if (quota <= 0) return undefined;
  const addedBytes = utf8Length(JSON.stringify(added));
  return {
    admit({ bytes: used }) {
      if (used + addedBytes <= quota) return;
      throw ApiError.quotaExceeded(
        {
          quotaMetric: "genstudio/conversation_bytes",
          quotaId: "ConversationBytesPerOwner",
          quotaValue: String(quota),
        },
        `Conversations may take at most ${quota} bytes per caller; ${used} are stored and this needs ${addedBytes} more: delete conversations (a deleted one is freed once it can no longer be restored, after ${UNDO_DELETE_MS / 60_000} minutes).`,
      );
    },
  };
}

export function notFound(id: string): ApiError {
  return ApiError.notFound(`Conversation ${id} was not found.`);
}
