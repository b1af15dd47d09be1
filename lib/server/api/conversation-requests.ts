import "server-only";
import type { z } from "zod";
import { UNDO_DELETE_MS } from "@/lib/db/stores/conversation-store";
import type { QuotaAdmission } from "@/lib/db/stores/quota-admission";
import { ApiError, type FieldViolation } from "@/lib/gemini/api-error";
import { utf8Length } from "@/lib/gemini/backend/quotas";
import { serverEnv } from "../config/env";
import { readJsonBody } from "../http/request-body";

/**
 * What every `/api/conversations` handler does with a request body: JSON only, read within its
 * size, checked with the route's schema (violations as the service words them), and held to
 * the caller's conversation quota before anything is stored.
 */

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export function assertJson(request: Request): void {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(
      415,
      "INVALID_ARGUMENT",
      "Conversation requests must be sent as application/json.",
    );
  }
}

export function invalid(violations: FieldViolation[]): ApiError {
  return ApiError.invalidArgument(
    violations.map((violation) => `* ${violation.field}: ${violation.description}`).join("\n"),
    violations,
  );
}

/** `conversations[1].messages[0].parentId`: the path of a field as a person reads it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((key, index) =>
        typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`,
      )
      .join("") || "(body)"
  );
}

export function validated<Schema extends z.ZodType>(
  body: unknown,
  schema: Schema,
): z.infer<Schema> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw invalid(
    result.error.issues.slice(0, 20).map((issue) => ({
      field: fieldPath(issue.path),
      description: issue.message,
    })),
  );
}

export async function parseBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.infer<Schema>> {
  assertJson(request);
  return validated(await readJsonBody(request, MAX_BODY_BYTES), schema);
}

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
