import "server-only";
import type { z } from "zod";
import {
  conversationIdSchema,
  createConversationSchema,
  saveMessagesSchema,
  selectMessageSchema,
  startTurnSchema,
  updateConversationSchema,
  type ConversationList,
  type ConversationSettings,
  type StartTurn,
  type StoredMessage,
} from "@/lib/studio/conversation-schema";
import {
  checkArchive,
  conversationArchiveSchema,
  type ConversationArchive,
} from "@/lib/studio/conversation-archive";
import { DEFAULT_TITLE } from "@/lib/studio/message-text";
import {
  isConversationIdTakenError,
  isUnknownMessageError,
} from "@/lib/db/stores/conversation-errors";
import { UNDO_DELETE_MS } from "@/lib/db/stores/conversation-store";
import { ApiError, type FieldViolation } from "@/lib/gemini/api-error";
import { utf8Length } from "@/lib/gemini/backend/quotas";
import { authenticate } from "../auth/authenticate";
import { turnRunner } from "../chat/active-turn-runner";
import {
  archiveJson,
  archiveMarkdown,
  attachmentDisposition,
  downloadName,
  missingReferences,
  storeArchive,
} from "../chat/conversation-transfer";
import { backend } from "../config/active-backend";
import { serverEnv } from "../config/env";
import { conversationJson } from "../persistence/conversation-json";
import { dataStores } from "../persistence/database-handle";
import { readJsonBody } from "../http/request-body";
import {
  errorResponse,
  jsonResponse,
  streamedJsonResponse,
  streamedTextResponse,
} from "../http/responses";
import { eventStreamResponse } from "../http/sse-response";
import { requestOrigin } from "../http/upload-protocol";

/**
 * `/api/conversations`: the studio's saved chats. JSON only; the session cookie (same-origin
 * for changes) or a studio key authenticates, and every conversation belongs to its owner.
 * A turn (a prompt and its answer) runs on the server (lib/server/chat/turn-runner.ts); its
 * events stream to whichever page reads them. Every call counts against the caller's rate
 * (as the API's do), and what a call stores against the caller's conversation quota.
 */

const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Largest import: a bigger export is split (fewer conversations at a time). */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;

function assertJson(request: Request): void {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(
      415,
      "INVALID_ARGUMENT",
      "Conversation requests must be sent as application/json.",
    );
  }
}

function invalid(violations: FieldViolation[]): ApiError {
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

function validated<Schema extends z.ZodType>(body: unknown, schema: Schema): z.infer<Schema> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw invalid(
    result.error.issues.slice(0, 20).map((issue) => ({
      field: fieldPath(issue.path),
      description: issue.message,
    })),
  );
}

async function parseBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.infer<Schema>> {
  assertJson(request);
  return validated(await readJsonBody(request, MAX_BODY_BYTES), schema);
}

/**
 * Throws the service's 429 when storing `added` (a validated body: what the call will write,
 * as JSON) would take the caller's conversations over their quota. An answer being generated
 * grows after its turn was admitted, so the quota can be passed by at most one answer.
 */
async function assertConversationRoom(ownerId: string, added: unknown): Promise<void> {
  const quota = serverEnv().quotas.conversationBytes;
  if (quota <= 0) return;
  const addedBytes = utf8Length(JSON.stringify(added));
  const used = await (await dataStores()).conversations.usedBytes(ownerId);
  if (used + addedBytes <= quota) return;
  throw ApiError.quotaExceeded(
    {
      quotaMetric: "genstudio/conversation_bytes",
      quotaId: "ConversationBytesPerOwner",
      quotaValue: String(quota),
    },
    `Conversations may take at most ${quota} bytes per caller; ${used} are stored and this needs ${addedBytes} more: delete conversations (a deleted one is freed once it can no longer be restored, after ${UNDO_DELETE_MS / 60_000} minutes).`,
  );
}

function notFound(id: string): ApiError {
  return ApiError.notFound(`Conversation ${id} was not found.`);
}

/** `?q=` searches titles and every message (full text); without it, the newest conversations. */
async function list(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const search = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
    const { conversations } = await dataStores();
    const body: ConversationList = {
      conversations: search.trim()
        ? await conversations.search(caller.ownerId, search)
        : await conversations.list(caller.ownerId),
    };
    return jsonResponse(body);
  } catch (error) {
    return errorResponse(error);
  }
}

async function create(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const input = await parseBody(request, createConversationSchema);
    await assertConversationRoom(caller.ownerId, input);
    try {
      const conversation = await (
        await dataStores()
      ).conversations.create(caller.ownerId, {
        id: input.id,
        title: input.title ?? DEFAULT_TITLE,
        settings: input.settings as ConversationSettings,
      });
      return jsonResponse(conversation);
    } catch (error) {
      if (isConversationIdTakenError(error))
        throw new ApiError(409, "ALREADY_EXISTS", error.message);
      throw error;
    }
  } catch (error) {
    return errorResponse(error);
  }
}

async function read(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const { conversations } = await dataStores();
    if (!(await conversations.getHead(caller.ownerId, id))) throw notFound(id);
    // Answers whose runner went away are marked once, so every reader sees them alike.
    await conversations.finishInterruptedAnswers(id);
    const head = await conversations.getHead(caller.ownerId, id);
    if (!head) throw notFound(id);
    return streamedJsonResponse(conversationJson(conversations, caller.ownerId, head));
  } catch (error) {
    return errorResponse(error);
  }
}

async function update(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const input = await parseBody(request, updateConversationSchema);
    await assertConversationRoom(caller.ownerId, input);
    const conversation = await (
      await dataStores()
    ).conversations.update(caller.ownerId, id, {
      title: input.title,
      settings: input.settings as ConversationSettings | undefined,
    });
    if (!conversation) throw notFound(id);
    return jsonResponse(conversation);
  } catch (error) {
    return errorResponse(error);
  }
}

/** Deletes undoably (see `restore`): the conversation is gone from every read at once. */
async function remove(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    if (!(await (await dataStores()).conversations.delete(caller.ownerId, id))) throw notFound(id);
    return jsonResponse({});
  } catch (error) {
    return errorResponse(error);
  }
}

/** Undoes a delete (within the undo window): answers the conversation without its messages. */
async function restore(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const head = await (await dataStores()).conversations.restore(caller.ownerId, id);
    if (!head) throw ApiError.notFound(`Conversation ${id} cannot be restored.`);
    return jsonResponse(head);
  } catch (error) {
    return errorResponse(error);
  }
}

async function appendMessages(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const input = await parseBody(request, saveMessagesSchema);
    await assertConversationRoom(caller.ownerId, input.messages);
    let messages: StoredMessage[] | null;
    try {
      messages = await (
        await dataStores()
      ).conversations.saveMessages(caller.ownerId, id, {
        after: input.after,
        messages: input.messages as StoredMessage[],
      });
    } catch (error) {
      if (isUnknownMessageError(error)) {
        throw ApiError.invalidArgument(`* after: ${error.message}`, [
          { field: "after", description: error.message },
        ]);
      }
      throw error;
    }
    if (!messages) throw notFound(id);
    return jsonResponse({ messages });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Shows another version of a message (and the branch below it as it was left). */
async function select(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const input = await parseBody(request, selectMessageSchema);
    const { conversations } = await dataStores();
    const selected = await conversations.selectMessage(caller.ownerId, id, input.messageId);
    if (selected === null) throw notFound(id);
    if (!selected) {
      const description = `Message ${input.messageId} is not in this conversation.`;
      throw invalid([{ field: "messageId", description }]);
    }
    return jsonResponse(await conversations.getHead(caller.ownerId, id));
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * Starts a turn (a prompt and its answer, or another answer to a prompt) and answers its
 * events as SSE. The answer is generated on the server whether or not this response is read
 * to the end; the same turn sent again (same answer id) returns the one already started.
 */
async function startTurn(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const input = (await parseBody(request, startTurnSchema)) as StartTurn;
    if (input.create && !conversationIdSchema.safeParse(id).success)
      throw invalid([
        {
          field: "conversationId",
          description: "conversation ids are 12–64 letters, digits, '-' or '_'",
        },
      ]);
    if (input.prompt && input.prompt.content.parts.length === 0)
      throw invalid([
        { field: "prompt.content.parts", description: "a prompt needs at least one part" },
      ]);
    await assertConversationRoom(caller.ownerId, input);
    const events = await (await turnRunner()).start(caller, id, input, request.signal);
    return eventStreamResponse(events, { signal: request.signal });
  } catch (error) {
    return errorResponse(error);
  }
}

/** The events of an answer from now on (a reload or another page joining a live answer). */
async function attachTurn(request: Request, id: string, answerId: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const events = await (await turnRunner()).attach(caller, id, answerId, request.signal);
    return eventStreamResponse(events, { signal: request.signal });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Stops an answer being generated; `{"stopped": false}` when it had already ended. */
async function stopTurn(request: Request, id: string, answerId: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    return jsonResponse({ stopped: await (await turnRunner()).stop(caller, id, answerId) });
  } catch (error) {
    return errorResponse(error);
  }
}

type ExportFormat = "json" | "markdown";

function exportFormat(request: Request): ExportFormat {
  const format = new URL(request.url).searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "markdown")
    throw invalid([
      {
        field: "format",
        description: `must be "json" or "markdown", not "${format.slice(0, 40)}"`,
      },
    ]);
  return format;
}

async function exportResponse(
  ownerId: string,
  ids: string[],
  format: ExportFormat,
  title: string | null,
): Promise<Response> {
  const { conversations } = await dataStores();
  const disposition = {
    "Content-Disposition": attachmentDisposition(
      downloadName(title, format === "json" ? "json" : "md"),
    ),
  };
  return format === "json"
    ? streamedJsonResponse(archiveJson(conversations, ownerId, ids), disposition)
    : streamedTextResponse(
        archiveMarkdown(conversations, ownerId, ids),
        "text/markdown; charset=UTF-8",
        disposition,
      );
}

/** One conversation as a download: JSON (lossless, every version) or Markdown (the branch shown). */
async function exportOne(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const format = exportFormat(request);
    const head = await (await dataStores()).conversations.getHead(caller.ownerId, id);
    if (!head) throw notFound(id);
    return await exportResponse(caller.ownerId, [id], format, head.title);
  } catch (error) {
    return errorResponse(error);
  }
}

/** Every conversation of the caller as one download. */
async function exportAll(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const format = exportFormat(request);
    const ids = await (await dataStores()).conversations.ids(caller.ownerId);
    return await exportResponse(caller.ownerId, ids, format, null);
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * Imports a JSON archive of ours: all its conversations or none (a wrong shape, a broken tree
 * or an oversized body is refused with what is wrong, and nothing is stored). Answers the new
 * conversations and what could not be brought back (files and caches the service dropped).
 */
async function importArchive(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    assertJson(request);
    let body: unknown;
    try {
      body = await readJsonBody(request, IMPORT_MAX_BYTES);
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 413)
        throw new ApiError(
          413,
          "INVALID_ARGUMENT",
          `An import is at most ${IMPORT_MAX_BYTES / (1024 * 1024)} MiB of JSON: export fewer conversations at a time and import them one file after another.`,
        );
      throw error;
    }
    const archive = validated(body, conversationArchiveSchema) as ConversationArchive;
    const problems = checkArchive(archive);
    if (problems.length) throw invalid(problems);
    await assertConversationRoom(caller.ownerId, archive.conversations);
    const notRestored = await missingReferences(
      await backend(),
      caller,
      archive,
      requestOrigin(request),
      request.signal,
    );
    const ids = await storeArchive((await dataStores()).conversations, caller.ownerId, archive);
    return jsonResponse({
      imported: ids.map((id, index) => ({ id, title: archive.conversations[index]!.title })),
      notRestored,
    });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Handlers of the route files under app/api/conversations. */
export const conversationHandlers = {
  list,
  create,
  read,
  update,
  remove,
  restore,
  appendMessages,
  select,
  startTurn,
  attachTurn,
  stopTurn,
  exportOne,
  exportAll,
  importArchive,
};
