/**
 * The studio's conversation endpoints (`/api/conversations`) as plain requests: JSON calls
 * answering the parsed body or throwing the service's error as an ApiError, and a turn's
 * events read from its SSE stream. The hooks and the chat client call these; nothing here
 * keeps state.
 */
import type {
  Conversation,
  ConversationHead,
  ConversationList,
  SaveMessages,
  StartTurn,
  StoredMessage,
  UpdateConversation,
} from "@/lib/studio/conversation-schema";
import type { TurnEvent } from "@/lib/studio/turn-events";
import { ApiError } from "@/lib/gemini/api-error";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import { readJsonEventStream } from "@/lib/gemini/client/sse-client";
import { studioFetch } from "@/lib/client/studio-fetch";

/** The conversation list; a search matches titles and every message. */
export function listConversationsRequest(search = ""): Promise<ConversationList> {
  return studioFetch<ConversationList>(
    `/api/conversations${search ? `?q=${encodeURIComponent(search)}` : ""}`,
  );
}

/** One conversation with its messages. */
export function conversationRequest(id: string): Promise<Conversation> {
  return studioFetch<Conversation>(conversationPath(id));
}

export function deleteConversationRequest(id: string): Promise<object> {
  return studioFetch<object>(conversationPath(id), { method: "DELETE" });
}

export function saveMessagesRequest(
  id: string,
  input: SaveMessages,
): Promise<{ messages: StoredMessage[] }> {
  return studioFetch(`/api/conversations/${encodeURIComponent(id)}/messages`, {
    method: "POST",
    body: input,
  });
}

export function updateConversationRequest(
  id: string,
  change: UpdateConversation,
): Promise<ConversationHead> {
  return studioFetch<ConversationHead>(`/api/conversations/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: change,
  });
}

function conversationPath(id: string): string {
  return `/api/conversations/${encodeURIComponent(id)}`;
}

async function eventStream(
  path: string,
  init: {
    method: string;
    body?: unknown;
    signal: AbortSignal;
    onResponse?: (response: Response) => void;
  },
): Promise<AsyncGenerator<TurnEvent>> {
  const response = await fetch(path, {
    method: init.method,
    headers: {
      Accept: "text/event-stream",
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    credentials: "same-origin",
    cache: "no-store",
    signal: init.signal,
  });
  init.onResponse?.(response);
  if (!response.ok) throw await readApiError(response);
  if (!response.body) throw new ApiError(response.status, "UNKNOWN", "The stream has no body.");
  return readJsonEventStream<TurnEvent>(response.body, init.signal);
}

/** Sends a turn; its events follow (the same turn sent again returns the one already started). */
export function startTurnRequest(
  id: string,
  turn: StartTurn,
  signal: AbortSignal,
  onResponse?: (response: Response) => void,
): Promise<AsyncGenerator<TurnEvent>> {
  return eventStream(`${conversationPath(id)}/turns`, {
    method: "POST",
    body: turn,
    signal,
    onResponse,
  });
}

/** Joins an answer being generated: a snapshot, then what follows. */
export function attachTurnRequest(
  id: string,
  answerId: string,
  signal: AbortSignal,
): Promise<AsyncGenerator<TurnEvent>> {
  return eventStream(`${conversationPath(id)}/turns/${encodeURIComponent(answerId)}`, {
    method: "GET",
    signal,
  });
}

export function stopTurnRequest(id: string, answerId: string): Promise<{ stopped: boolean }> {
  return studioFetch(`${conversationPath(id)}/turns/${encodeURIComponent(answerId)}/stop`, {
    method: "POST",
  });
}

/** Shows another version of a message (its branch as it was left). */
export function selectMessageRequest(id: string, messageId: string): Promise<ConversationHead> {
  return studioFetch(`${conversationPath(id)}/selection`, {
    method: "POST",
    body: { messageId },
  });
}

export function restoreConversationRequest(id: string): Promise<ConversationHead> {
  return studioFetch(`${conversationPath(id)}/restore`, { method: "POST" });
}
