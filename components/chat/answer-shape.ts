import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { hasAnnotations } from "./metadata/annotated-answer";

/** What an answer shows: the chosen candidate and its parts, and whether it is blocked, annotated or empty. */
export function answerShape(message: StoredMessage, streaming: boolean) {
  const candidates = message.candidates ?? [];
  const selected = Math.min(message.selectedCandidate ?? 0, Math.max(0, candidates.length - 1));
  const candidate = candidates[selected];
  const parts = candidate?.content?.parts ?? (candidates.length === 0 ? message.content.parts : []);
  const promptBlocked = message.promptFeedback?.blockReason;
  // A candidate blocked mid-stream keeps the text produced before the block; the card follows it.
  const candidateBlocked =
    candidate &&
    !streaming &&
    (candidate.finishReason === "SAFETY" ||
      candidate.safetyRatings?.some((rating) => rating.blocked));
  return {
    candidates,
    selected,
    candidate,
    parts,
    json: message.settings?.generationConfig.responseMimeType === "application/json",
    promptBlocked,
    candidateBlocked,
    finishReason: candidate?.finishReason,
    annotated:
      !streaming && candidate !== undefined && !candidateBlocked && hasAnnotations(candidate),
    empty:
      !streaming && !promptBlocked && !candidateBlocked && !message.error && parts.length === 0,
  };
}

export type AnswerShape = ReturnType<typeof answerShape>;
