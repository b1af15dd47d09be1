/**
 * The request behind a turn, for the developer views (get code, inspector): the one an answer
 * was generated from (its settings snapshot and the history before it), or the one the chat is
 * about to send. Built with chat-request's own functions, so it is exactly what send builds.
 */
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import type { GenerateContentRequest, Part } from "@/lib/gemini/types";
import { buildGenerateContentRequest, historyContents } from "./chat-request";

export interface TurnRequest {
  model: string;
  request: GenerateContentRequest;
}

/** The request that produced the answer `answerId` (null when it is not an answer of `messages`). */
export function requestOfAnswer(
  messages: readonly StoredMessage[],
  answerId: string,
  fallbackSettings: ConversationSettings,
): TurnRequest | null {
  const index = messages.findIndex((message) => message.id === answerId);
  if (index < 1 || messages[index]?.role !== "model") return null;
  const settings = messages[index]!.settings ?? fallbackSettings;
  return {
    model: settings.model,
    request: buildGenerateContentRequest(settings, historyContents(messages.slice(0, index))),
  };
}

/** Prompt of the next turn while the composer is empty. */
export const PLACEHOLDER_PROMPT = "Hello";

/** The request of the next turn: the history, then the draft's parts (a placeholder prompt when empty). */
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
    request: buildGenerateContentRequest(settings, historyContents([...messages, prompt])),
  };
}
