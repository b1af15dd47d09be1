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

/** Two base64 texts' bytes as one base64 text (each piece is padded on its own, so the texts cannot simply be concatenated). */
function joinBase64(first: string, second: string): string {
  // Whole 3-byte groups of the first piece encode to the same characters; only its padded tail is re-encoded.
  const cleanFirst = first.replace(/=+$/, "");
  const whole = cleanFirst.length - (cleanFirst.length % 4);
  const tail = atob(
    cleanFirst.slice(whole).padEnd(Math.ceil((cleanFirst.length - whole) / 4) * 4, "="),
  );
  return cleanFirst.slice(0, whole) + btoa(tail + atob(second));
}

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
      Object.keys(part).every(
        (key) => key === "text" || key === "thought" || key === "thoughtSignature",
      );
    // Streamed audio arrives as consecutive pieces of one recording (as the engine's unary merge joins them).
    if (
      last?.inlineData &&
      part.inlineData &&
      last.inlineData.mimeType === part.inlineData.mimeType &&
      part.inlineData.mimeType.startsWith("audio/")
    ) {
      merged[merged.length - 1] = {
        ...last,
        inlineData: {
          mimeType: last.inlineData.mimeType,
          data: joinBase64(last.inlineData.data, part.inlineData.data),
        },
      };
      continue;
    }
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
  const merged: Candidate = {
    ...previous,
    ...metadata,
    content: { role: content?.role ?? previous?.content?.role ?? "model", parts },
  };
  // Each chunk carries the logprobs of its own tokens: the answer's are all of them, in order.
  if (previous?.logprobsResult && metadata.logprobsResult) {
    merged.logprobsResult = {
      chosenCandidates: [
        ...(previous.logprobsResult.chosenCandidates ?? []),
        ...(metadata.logprobsResult.chosenCandidates ?? []),
      ],
      topCandidates: [
        ...(previous.logprobsResult.topCandidates ?? []),
        ...(metadata.logprobsResult.topCandidates ?? []),
      ],
    };
  }
  return merged;
}

/** The response after one more chunk. */
export function accumulateResponse(
  state: AccumulatedResponse,
  chunk: GenerateContentResponse,
): AccumulatedResponse {
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

function textLengthOf(candidate: Candidate | undefined): number {
  let length = 0;
  for (const part of candidate?.content?.parts ?? [])
    if (typeof part.text === "string") length += part.text.length;
  return length;
}

/** The longest text (thoughts included) of any candidate: how much a renderer has to show. */
export function responseTextLength(response: AccumulatedResponse): number {
  return response.candidates.reduce(
    (longest, candidate) => Math.max(longest, textLengthOf(candidate)),
    0,
  );
}

/**
 * The response as far as its first `limit` characters of text per candidate: the parts
 * before the cut whole, the part at the cut shortened, the rest (and the finish reason) left
 * for later. Lets a renderer show a burst of streamed text over several frames.
 */
export function revealPrefix(response: AccumulatedResponse, limit: number): AccumulatedResponse {
  if (responseTextLength(response) <= limit) return response;
  const candidates = response.candidates.map((candidate) => {
    if (!candidate || textLengthOf(candidate) <= limit) return candidate;
    const parts: Part[] = [];
    let remaining = limit;
    for (const part of candidate.content?.parts ?? []) {
      if (typeof part.text !== "string") {
        parts.push(part);
        continue;
      }
      if (remaining <= 0) break;
      parts.push(
        part.text.length <= remaining ? part : { ...part, text: part.text.slice(0, remaining) },
      );
      remaining -= part.text.length;
    }
    const { finishReason: _finishReason, ...rest } = candidate;
    return { ...rest, content: { role: candidate.content?.role ?? "model", parts } };
  });
  return { ...response, candidates };
}
