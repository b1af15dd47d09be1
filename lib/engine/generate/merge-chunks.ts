/**
 * generateContent's answer is its stream merged: each candidate's parts joined (text runs of
 * the same kind, audio of one type), its last finish reason, metadata and usage; a candidate
 * blocked while streaming keeps nothing of what it had sent.
 */
import { ApiError } from "@/lib/gemini/api-error";
import type { Candidate, GenerateContentResponse, Part } from "@/lib/gemini/types";
import { decodeText } from "@/lib/runtime/encoded-text";
import {
  isBase64Bytes,
  piecedText,
  setPiecedText,
  type PieceOfText,
} from "@/lib/runtime/pieced-text";

/** Merges streamed chunks into one response, as generateContent answers. */
export function mergeChunks(chunks: readonly GenerateContentResponse[]): GenerateContentResponse {
  const last = chunks[chunks.length - 1];
  if (!last) throw ApiError.internal();
  const response: GenerateContentResponse = {};
  const byIndex = new Map<number, Candidate>();
  for (const chunk of chunks) {
    if (chunk.promptFeedback) response.promptFeedback = chunk.promptFeedback;
    for (const delta of chunk.candidates ?? []) {
      const index = delta.index ?? 0;
      let candidate = byIndex.get(index);
      if (!candidate) {
        // The index is kept only where the chunks carry it (families that leave 0 out).
        candidate = { content: { role: "model", parts: [] } };
        byIndex.set(index, candidate);
      }
      for (const part of delta.content?.parts ?? []) appendPart(candidate.content!.parts, part);
      if (delta.index !== undefined) candidate.index = delta.index;
      if (delta.finishReason) candidate.finishReason = delta.finishReason;
      if (delta.finishMessage) candidate.finishMessage = delta.finishMessage;
      if (delta.safetyRatings) candidate.safetyRatings = delta.safetyRatings;
      if (delta.avgLogprobs !== undefined) candidate.avgLogprobs = delta.avgLogprobs;
      if (delta.citationMetadata) candidate.citationMetadata = delta.citationMetadata;
      if (delta.groundingMetadata) candidate.groundingMetadata = delta.groundingMetadata;
      if (delta.urlContextMetadata) candidate.urlContextMetadata = delta.urlContextMetadata;
      if (delta.logprobsResult) {
        const into = (candidate.logprobsResult ??= {});
        if (delta.logprobsResult.chosenCandidates)
          (into.chosenCandidates ??= []).push(...delta.logprobsResult.chosenCandidates);
        if (delta.logprobsResult.topCandidates)
          (into.topCandidates ??= []).push(...delta.logprobsResult.topCandidates);
      }
    }
  }
  for (const candidate of byIndex.values())
    for (const part of candidate.content!.parts) {
      const pieces = inlinePieces.get(part);
      if (!pieces) continue;
      const inlineData = { mimeType: part.inlineData!.mimeType, data: "" };
      setPiecedText(inlineData, "data", base64Pieces(pieces));
      part.inlineData = inlineData;
    }
  const candidates = [...byIndex.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, candidate]) => candidate);
  for (const candidate of candidates) {
    if (candidate.content?.parts.length === 0) delete candidate.content;
    // A candidate blocked while streaming keeps none of the text sent before the block.
    if (candidate.finishReason === "SAFETY") {
      delete candidate.content;
      delete candidate.logprobsResult;
      delete candidate.avgLogprobs;
      delete candidate.citationMetadata;
    }
  }
  if (candidates.length) response.candidates = candidates;
  if (last.usageMetadata) response.usageMetadata = last.usageMetadata;
  if (last.modelVersion) response.modelVersion = last.modelVersion;
  if (last.responseId) response.responseId = last.responseId;
  return response;
}

function appendPart(parts: Part[], part: Part): void {
  const previous = parts[parts.length - 1];
  if (part.text === "" && !part.thought) {
    // An empty text part only carries a signature (Gemini 3's finishing part): a whole answer
    // has it on its answer text, and drops it beside a function call or with no answer at all.
    const answerText = parts.findLast(
      (candidate) => candidate.text !== undefined && !candidate.thought,
    );
    if (part.thoughtSignature && answerText && !answerText.thoughtSignature)
      answerText.thoughtSignature = part.thoughtSignature;
    return;
  }
  if (
    previous &&
    part.text !== undefined &&
    previous.text !== undefined &&
    !previous.functionCall &&
    Boolean(previous.thought) === Boolean(part.thought) &&
    !part.thoughtSignature
  ) {
    previous.text += part.text;
    return;
  }
  if (
    previous &&
    part.inlineData &&
    previous.inlineData &&
    previous.inlineData.mimeType === part.inlineData.mimeType
  ) {
    let pieces = inlinePieces.get(previous);
    if (!pieces) inlinePieces.set(previous, (pieces = [...dataPieces(previous.inlineData)]));
    pieces.push(...dataPieces(part.inlineData));
    return;
  }
  parts.push({ ...part });
}

/**
 * The pieces of the inline data merged into one part, kept apart (lib/runtime/pieced-text.ts):
 * joining them would copy the whole, tens of megabytes of audio, in one go.
 */
const inlinePieces = new WeakMap<Part, PieceOfText[]>();

/** An inline data's pieces: its bytes or texts when it is pieced, else its one text. */
function dataPieces(inlineData: NonNullable<Part["inlineData"]>): readonly PieceOfText[] {
  return piecedText(inlineData, "data") ?? [inlineData.data];
}

/**
 * Pieces whose text, one after the other, is the base64 of the pieces' bytes one after the
 * other. The engine's own media are bytes, whose base64 is made as one run. Texts of whole
 * 3-byte groups (no padding: every audio chunk but the last) follow each other as they are;
 * beside bytes, or from one with padding on, texts are decoded to bytes to join the run.
 */
function base64Pieces(pieces: readonly PieceOfText[]): readonly PieceOfText[] {
  const bytes = (piece: PieceOfText) =>
    isBase64Bytes(piece)
      ? piece
      : Buffer.from(typeof piece === "string" ? piece : decodeText(piece), "base64");
  if (pieces.some((piece) => typeof piece !== "string")) return pieces.map(bytes);
  const padded = pieces.findIndex((piece) => (piece as string).endsWith("="));
  if (padded === -1 || padded === pieces.length - 1) return pieces;
  return [...pieces.slice(0, padded), ...pieces.slice(padded).map(bytes)];
}
