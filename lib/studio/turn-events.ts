/**
 * The events of a studio chat turn's stream (`/api/conversations/{id}/turns`), one JSON object
 * per SSE event. The server generates the answer whether or not anyone reads; any page (the
 * one that sent it, a reload, another tab or browser) reads the same events. Safe in the browser.
 */
import type { GenerateContentRequest, GenerateContentResponse } from "@/lib/gemini/types";
import type { AccumulatedResponse } from "./accumulate-response";
import type { StoredMessage } from "./conversation-schema";

export interface TurnStarted {
  /** The prompt as stored (absent for a regeneration that found no prompt). */
  prompt?: StoredMessage;
  /** The answer as it stands: empty when just started, partial when joined mid-stream. */
  answer: StoredMessage;
  title: string;
  /** The conversation's revision before the turn: a page holding another one reloads it. */
  previousUpdatedAt: string;
  updatedAt: string;
  /** The request the server sends to the backend for this answer (when it starts it now). */
  request?: GenerateContentRequest;
}

export type TurnEvent =
  /** First event of a turn just sent (or sent again). */
  | { turn: TurnStarted }
  /** The answer as it stands: the first event of a reattach, and each change seen when following another instance. */
  | { snapshot: StoredMessage }
  /** One chunk of the answer, exactly as the backend streamed it. */
  | { chunk: GenerateContentResponse }
  /** The answer is finished (completed, stopped, failed or interrupted) and stored. */
  | {
      done: {
        answer: StoredMessage;
        /** The conversation's revision once the answer is stored, and the one before it. */
        updatedAt?: string;
        previousUpdatedAt?: string;
      };
    };

/** The accumulated form of a stored answer, to fold further chunks onto. */
export function responseOfAnswer(answer: StoredMessage): AccumulatedResponse {
  const response: AccumulatedResponse = {
    candidates: answer.candidates?.length
      ? answer.candidates
      : answer.content.parts.length
        ? [{ index: 0, content: answer.content }]
        : [],
  };
  if (answer.promptFeedback) response.promptFeedback = answer.promptFeedback;
  if (answer.usageMetadata) response.usageMetadata = answer.usageMetadata;
  if (answer.modelVersion) response.modelVersion = answer.modelVersion;
  if (answer.responseId) response.responseId = answer.responseId;
  return response;
}
