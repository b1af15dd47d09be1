/**
 * Folds streamed GenerateContentResponse chunks (each a text delta) into one response, the
 * way the official SDK's chat history does: consecutive text parts of the same kind (thought
 * or not) are joined, other parts are kept in order, per-candidate metadata takes the latest
 * value. Pure and mutation-free: every fold returns new objects only where something changed.
 */
import type { Candidate, GenerateContentResponse, Part } from "@/lib/gemini/types";

export interface AccumulatedResponse {
  candidates: Candidate[];
  promptFeedback?: GenerateContentResponse["promptFeedback"];
  usageMetadata?: GenerateContentResponse["usageMetadata"];
  modelVersion?: string;
  responseId?: string;
}

export const EMPTY_RESPONSE: AccumulatedResponse = { candidates: [] };

function mergeParts(parts: Part[], incoming: Part[]): Part[] {
  if (incoming.length === 0) return parts;
  const merged = parts.slice();
  for (const part of incoming) {
    const last = merged[merged.length - 1];
    const joinable =
      last !== undefined &&
      typeof last.text === "string" &&
      typeof part.text === "string" &&
      Boolean(last.thought) === Boolean(part.thought) &&
      Object.keys(part).every((key) => key === "text" || key === "thought" || key === "thoughtSignature");
    if (joinable) {
      merged[merged.length - 1] = {
        ...last,
        text: last.text + part.text!,
        ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}),
      };
    } else {
      merged.push(part);
    }
  }
  return merged;
}

function mergeCandidate(previous: Candidate | undefined, chunk: Candidate): Candidate {
  const { content, ...metadata } = chunk;
  const parts = mergeParts(previous?.content?.parts ?? [], content?.parts ?? []);
  return {
    ...previous,
    ...metadata,
    content: { role: content?.role ?? previous?.content?.role ?? "model", parts },
  };
}

/** The response after one more chunk. */
export function accumulateResponse(state: AccumulatedResponse, chunk: GenerateContentResponse): AccumulatedResponse {
  let candidates = state.candidates;
  if (chunk.candidates?.length) {
    candidates = candidates.slice();
    chunk.candidates.forEach((candidate, position) => {
      const index = candidate.index ?? position;
      candidates[index] = mergeCandidate(candidates[index], { ...candidate, index });
    });
  }
  return {
    candidates,
    promptFeedback: chunk.promptFeedback ?? state.promptFeedback,
    usageMetadata: chunk.usageMetadata ?? state.usageMetadata,
    modelVersion: chunk.modelVersion ?? state.modelVersion,
    responseId: chunk.responseId ?? state.responseId,
  };
}

/** The visible (non-thought) text of a candidate. */
export function candidateText(candidate: Candidate | undefined): string {
  return (candidate?.content?.parts ?? [])
    .filter((part) => typeof part.text === "string" && !part.thought)
    .map((part) => part.text)
    .join("");
}
