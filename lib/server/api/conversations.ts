import "server-only";
import {
  createConversationSchema,
  saveMessagesSchema,
  selectMessageSchema,
  updateConversationSchema,
  type ConversationList,
  type StoredMessage,
} from "@/lib/studio/conversation-schema";
import { DEFAULT_TITLE } from "@/lib/studio/message-text";
import {
  isConversationIdTakenError,
  isUnknownMessageError,
} from "@/lib/db/stores/conversation-errors";
import { ApiError } from "@/lib/gemini/api-error";
import { conversationJson } from "../persistence/conversation-json";
import { jsonResponse, streamedJsonResponse } from "../http/responses";
import { archiveHandlers } from "./conversation-archives";
import { CONVERSATION_BODY_BYTES, conversationRoom, notFound } from "./conversation-requests";
import { invalid, studioEndpoint } from "./studio-endpoint";
import { turnHandlers } from "./conversation-turns";

/**
 * `/api/conversations`: the studio's saved chats. JSON only; the session cookie (same-origin
 * for changes) or a studio key authenticates, and every conversation belongs to its owner.
 * A turn (a prompt and its answer) runs on the server (lib/server/chat/turn-runner.ts); its
 * events stream to whichever page reads them. Every call counts against the caller's rate
 * (as the API's do), and what a call stores against the caller's conversation quota.
 * Here: the conversations and their messages; turns are conversation-turns.ts, export and
 * import conversation-archives.ts, reading a body conversation-requests.ts.
 */

/** `?q=` searches titles and every message (full text); without it, the newest conversations. */
const list = studioEndpoint(async ({ request, caller, stores: { conversations } }) => {
  const search = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const body: ConversationList = {
    conversations: search.trim()
      ? await conversations.search(caller.ownerId, search)
      : await conversations.list(caller.ownerId),
  };
  return jsonResponse(body);
});

const create = studioEndpoint(async ({ caller, stores: { conversations }, body }) => {
  const input = await body(createConversationSchema, CONVERSATION_BODY_BYTES);
  try {
    const conversation = await conversations.create(caller.ownerId, {
      id: input.id,
      title: input.title ?? DEFAULT_TITLE,
      settings: input.settings,
      admission: conversationRoom(input),
    });
    return jsonResponse(conversation);
  } catch (error) {
    if (isConversationIdTakenError(error)) throw new ApiError(409, "ALREADY_EXISTS", error.message);
    throw error;
  }
});

const read = studioEndpoint(async ({ caller, stores: { conversations } }, id: string) => {
  if (!(await conversations.getHead(caller.ownerId, id))) throw notFound(id);
  // Answers whose runner went away are marked once, so every reader sees them alike.
  await conversations.finishInterruptedAnswers(caller.ownerId, id);
  const head = await conversations.getHead(caller.ownerId, id);
  if (!head) throw notFound(id);
  return streamedJsonResponse(conversationJson(conversations, caller.ownerId, head));
});

const update = studioEndpoint(async ({ caller, stores: { conversations }, body }, id: string) => {
  const input = await body(updateConversationSchema, CONVERSATION_BODY_BYTES);
  const conversation = await conversations.update(caller.ownerId, id, {
    title: input.title,
    settings: input.settings,
    admission: conversationRoom(input),
  });
  if (!conversation) throw notFound(id);
  return jsonResponse(conversation);
});

/** Deletes undoably (see `restore`): the conversation is gone from every read at once. */
const remove = studioEndpoint(async ({ caller, stores: { conversations } }, id: string) => {
  if (!(await conversations.delete(caller.ownerId, id))) throw notFound(id);
  return jsonResponse({});
});

/** Undoes a delete (within the undo window): answers the conversation without its messages. */
const restore = studioEndpoint(async ({ caller, stores: { conversations } }, id: string) => {
  const head = await conversations.restore(caller.ownerId, id);
  if (!head) throw ApiError.notFound(`Conversation ${id} cannot be restored.`);
  return jsonResponse(head);
});

const appendMessages = studioEndpoint(
  async ({ caller, stores: { conversations }, body }, id: string) => {
    const input = await body(saveMessagesSchema, CONVERSATION_BODY_BYTES);
    let messages: StoredMessage[] | null;
    try {
      messages = await conversations.saveMessages(caller.ownerId, id, {
        after: input.after,
        messages: input.messages,
        admission: conversationRoom(input.messages),
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
  },
);

/** Shows another version of a message (and the branch below it as it was left). */
const select = studioEndpoint(async ({ caller, stores: { conversations }, body }, id: string) => {
  const input = await body(selectMessageSchema, CONVERSATION_BODY_BYTES);
  const selected = await conversations.selectMessage(caller.ownerId, id, input.messageId);
  if (selected === null) throw notFound(id);
  if (!selected) {
    const description = `Message ${input.messageId} is not in this conversation.`;
    throw invalid([{ field: "messageId", description }]);
  }
  return jsonResponse(await conversations.getHead(caller.ownerId, id));
});

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
  ...turnHandlers,
  ...archiveHandlers,
};
