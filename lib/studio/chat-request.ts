/**
 * From stored messages and settings to the GenerateContentRequest of the next turn, and from
 * the streamed response back to a stored answer. Pure, so the send, regenerate and edit paths
 * build exactly the same request.
 */
import type { ConversationSettings, StoredMessage } from "@/lib/studio/conversation-schema";
import type { AccumulatedResponse } from "@/lib/studio/accumulate-response";
import type { Content, GenerateContentRequest } from "@/lib/gemini/types";

/** A random id for a message (URL-safe, unique enough for one conversation). */
export function newMessageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(36).padStart(2, "0"))
    .join("")
    .slice(0, 20);
}

/** The content of an answer that goes back into history: the chosen candidate's. */
export function answerContent(message: StoredMessage): Content | null {
  const chosen = message.candidates?.[message.selectedCandidate ?? 0]?.content ?? message.content;
  const parts = chosen?.parts ?? [];
  return parts.length > 0 ? { role: "model", parts } : null;
}

/**
 * The history to send: every turn in order, except prompts whose answer has no content
 * (blocked or failed before any text), which would only fail again or confuse the model.
 */
export function historyContents(messages: readonly StoredMessage[]): Content[] {
  const contents: Content[] = [];
  messages.forEach((message, index) => {
    if (message.role === "user") {
      const answer = messages[index + 1];
      if (answer?.role === "model" && answerContent(answer) === null) return;
      contents.push({ role: "user", parts: message.content.parts });
      return;
    }
    const content = answerContent(message);
    if (content) contents.push(content);
  });
  return contents;
}

/** Settings that ask for speech only (a text-to-speech model's configuration). */
export function isSpeechOnly(settings: ConversationSettings): boolean {
  const modalities = settings.generationConfig.responseModalities;
  return modalities?.length === 1 && modalities[0] === "AUDIO";
}

/**
 * The contents of the next turn's request. Speech synthesis reads one prompt: the service's
 * speech models refuse earlier turns ("Multiturn chat is not enabled for this model") and
 * audio input, so a text-to-speech chat sends only its last prompt, each turn on its own.
 */
export function requestContents(
  settings: ConversationSettings,
  messages: readonly StoredMessage[],
): Content[] {
  const contents = historyContents(messages);
  if (!isSpeechOnly(settings)) return contents;
  const last = contents[contents.length - 1];
  return last ? [last] : [];
}

/** The request of the next turn with these settings. */
export function buildGenerateContentRequest(
  settings: ConversationSettings,
  contents: Content[],
): GenerateContentRequest {
  const request: GenerateContentRequest = { contents };
  if (settings.systemInstruction.trim() !== "")
    request.systemInstruction = { parts: [{ text: settings.systemInstruction }] };
  if (Object.keys(settings.generationConfig).length > 0)
    request.generationConfig = settings.generationConfig;
  if (settings.safetySettings.length > 0) request.safetySettings = settings.safetySettings;
  if (settings.tools?.length) request.tools = settings.tools;
  if (settings.toolConfig && Object.keys(settings.toolConfig).length > 0)
    request.toolConfig = settings.toolConfig;
  if (settings.cachedContent) request.cachedContent = settings.cachedContent;
  return request;
}

/** The stored answer for a streamed response and how the stream ended. */
export function answerMessage(
  id: string,
  response: AccumulatedResponse,
  settings: ConversationSettings,
  ending: { stopped?: boolean; error?: { code: number; message: string; status: string } },
): StoredMessage {
  const candidates = response.candidates.filter(Boolean);
  const message: StoredMessage = {
    id,
    role: "model",
    content: { role: "model", parts: candidates[0]?.content?.parts ?? [] },
    settings,
  };
  if (candidates.length > 0) message.candidates = candidates;
  if (response.promptFeedback) message.promptFeedback = response.promptFeedback;
  if (response.usageMetadata) message.usageMetadata = response.usageMetadata;
  if (response.modelVersion) message.modelVersion = response.modelVersion;
  if (response.responseId) message.responseId = response.responseId;
  if (ending.stopped) message.stopped = true;
  if (ending.error) message.error = ending.error;
  return message;
}
