/**
 * The request behind a turn, for the developer views (get code, inspector): the one an answer
 * was generated from (its settings snapshot and the history before it), or the one the chat is
 * about to send. Built with chat-request's own functions, so it is exactly what send builds.
 */
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import type { GenerateContentRequest, Part } from "@/lib/gemini/types";
import { buildGenerateContentRequest, requestContents } from "./chat-request";
import { buildTree, pathTo } from "./conversation-tree";

export interface TurnRequest {
  model: string;
  request: GenerateContentRequest;
}

/**
 * The request that produced the answer `answerId` (null when it is not an answer of
 * `messages`, every message of a conversation's tree): its branch up to its prompt.
 */
export function requestOfAnswer(
  messages: readonly StoredMessage[],
  answerId: string,
  fallbackSettings: ConversationSettings,
): TurnRequest | null {
  const path = pathTo(buildTree(messages), answerId);
  const answer = path.pop();
  if (!answer || answer.role !== "model" || path.length === 0) return null;
  const settings = answer.settings ?? fallbackSettings;
  return {
    model: settings.model,
    request: buildGenerateContentRequest(settings, requestContents(settings, path)),
  };
}

/** Prompt of the next turn while the composer is empty. */
export const PLACEHOLDER_PROMPT = "Hello";

/** The request of the next turn: the branch shown, then the draft's parts (a placeholder prompt when empty). */
export function requestOfNextTurn(
  messages: readonly StoredMessage[],
  settings: ConversationSettings,
  parts: Part[],
): TurnRequest {
  const prompt: StoredMessage = {
    id: "next",
    role: "user",
    content: { role: "user", parts: parts.length > 0 ? parts : [{ text: PLACEHOLDER_PROMPT }] },
  };
  return {
    model: settings.model,
    request: buildGenerateContentRequest(
      settings,
      requestContents(settings, [...messages, prompt]),
    ),
  };
}
