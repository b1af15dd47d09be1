import "server-only";
import type { z } from "zod";
import {
  createConversationSchema,
  saveMessagesSchema,
  updateConversationSchema,
  type ConversationList,
  type ConversationSettings,
  type StoredMessage,
} from "@/lib/studio/conversation-schema";
import { isUnknownMessageError } from "@/lib/db/stores/conversation-store";
import { ApiError, type FieldViolation } from "@/lib/gemini/api-error";
import { authenticate } from "../auth/authenticate";
import { conversationJson } from "../persistence/conversation-json";
import { dataStores } from "../persistence/database-handle";
import { readJsonBody } from "../http/request-body";
import { errorResponse, jsonResponse, streamedJsonResponse } from "../http/responses";

/**
 * `/api/conversations`: the studio's saved chats. JSON only; the session cookie (same-origin
 * for changes) or a studio key authenticates, and every conversation belongs to its owner.
 */

const MAX_BODY_BYTES = 32 * 1024 * 1024;

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

async function parseBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.infer<Schema>> {
  assertJson(request);
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const violations: FieldViolation[] = result.error.issues.map((issue) => ({
    field: issue.path.join(".") || "(body)",
    description: issue.message,
  }));
  throw ApiError.invalidArgument(
    violations.map((violation) => `* ${violation.field}: ${violation.description}`).join("\n"),
    violations,
  );
}

function notFound(id: string): ApiError {
  return ApiError.notFound(`Conversation ${id} was not found.`);
}

function titleFrom(text: string | undefined): string {
  const title = (text ?? "").replace(/\s+/g, " ").trim();
  return title === "" ? "New chat" : title.slice(0, 200);
}

async function list(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const search = new URL(request.url).searchParams.get("q") ?? "";
    const body: ConversationList = {
      conversations: await (
        await dataStores()
      ).conversations.list(caller.ownerId, search.slice(0, 200)),
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
    const conversation = await (
      await dataStores()
    ).conversations.create(caller.ownerId, {
      title: titleFrom(input.title),
      settings: input.settings as ConversationSettings,
    });
    return jsonResponse(conversation);
  } catch (error) {
    return errorResponse(error);
  }
}

async function read(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const { conversations } = await dataStores();
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

async function remove(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    if (!(await (await dataStores()).conversations.delete(caller.ownerId, id))) throw notFound(id);
    return jsonResponse({});
  } catch (error) {
    return errorResponse(error);
  }
}

async function appendMessages(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const input = await parseBody(request, saveMessagesSchema);
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

/** Handlers of the three route files under app/api/conversations. */
export const conversationHandlers = {
  list,
  create,
  read,
  update,
  remove,
  appendMessages,
};
