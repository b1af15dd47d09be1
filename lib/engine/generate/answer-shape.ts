/**
 * Which optional fields an answer carries, and where, as the model's family sends them (its
 * `answer` traits in catalog/models.json): candidate index, avgLogprobs, finishMessage,
 * functionCall ids, thoughtSignature placement, candidatesTokensDetails and serviceTier. The
 * generation decides the content; these rules decide only the fields around it.
 */
import { randomInt } from "node:crypto";
import type { AnswerTraits } from "@/lib/engine/catalog";
import type {
  Candidate,
  GenerateContentRequest,
  SafetyRating,
  UsageMetadata,
} from "@/lib/gemini/types";

/** The service's finishMessage beside function calls (recorded, 2.5 and 3). */
export const FUNCTION_CALL_FINISH_MESSAGE = "Model generated function call(s).";

/** How one answer is shaped: its family's traits, and whether it is streamed. */
export interface AnswerShape {
  traits: AnswerTraits;
  stream: boolean;
}

/** Whether a candidate's answer carries its average log probability. */
export function carriesAvgLogprobs(shape: AnswerShape, request: GenerateContentRequest): boolean {
  if (request.generationConfig?.responseLogprobs === true) return true;
  return shape.traits.avgLogprobs && !shape.stream;
}

/**
 * Where the answer's thoughtSignature goes: nowhere, on the first answer part, or (Gemini 3
 * streams) on the first answer part if it is a function call, else on the finishing event.
 */
export function signaturePlacement(
  shape: AnswerShape,
  request: GenerateContentRequest,
  thinks: boolean,
): "none" | "first-answer-part" | "finish" {
  switch (shape.traits.thoughtSignatures) {
    case "none":
      return "none";
    case "function-declarations": {
      const declares = (request.tools ?? []).some((tool) => tool.functionDeclarations?.length);
      return thinks && declares ? "first-answer-part" : "none";
    }
    case "every-answer":
      return shape.stream ? "finish" : "first-answer-part";
  }
}

/** A functionCall id like the service's: 8 lower-case letters and digits. */
export function newFunctionCallId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let id = "";
  for (let index = 0; index < 8; index++) id += alphabet[randomInt(alphabet.length)];
  return id;
}

/**
 * Puts the family's candidate fields on a candidate of a chunk or answer: its index (left out
 * when 0 on families that write no zero values), and finishMessage beside function calls.
 */
export function shapeCandidate(candidate: Candidate, index: number, shape: AnswerShape): Candidate {
  if (shape.traits.candidateIndex || index !== 0) candidate.index = index;
  else delete candidate.index;
  if (
    shape.traits.finishMessage &&
    candidate.finishReason &&
    candidate.finishReason !== "SAFETY" &&
    candidate.content?.parts.some((part) => part.functionCall)
  )
    candidate.finishMessage = FUNCTION_CALL_FINISH_MESSAGE;
  return candidate;
}

/**
 * The safety ratings a candidate reports: those of the categories the request's safetySettings
 * name, and any that blocked it. A model's default threshold still blocks, unreported (recorded:
 * 1.5's answers of 2025 carry no safetyRatings, though its default threshold rates every
 * category).
 */
export function reportedRatings(
  ratings: readonly SafetyRating[],
  request: GenerateContentRequest,
): SafetyRating[] {
  const asked = new Set((request.safetySettings ?? []).map((setting) => setting.category));
  return ratings.filter((rating) => rating.blocked || asked.has(rating.category));
}

/** The tier the service reports: the one asked for, else standard; lower case as it writes it. */
function serviceTierOf(request: GenerateContentRequest): string {
  const asked = request.serviceTier;
  return (asked && asked !== "UNSPECIFIED" ? asked : "STANDARD").toLowerCase();
}

/** Leaves out or adds the family's optional usage fields. */
export function shapeUsage(
  usage: UsageMetadata,
  shape: AnswerShape,
  request: GenerateContentRequest,
): UsageMetadata {
  if (!shape.traits.candidatesTokensDetails) delete usage.candidatesTokensDetails;
  if (shape.traits.serviceTier) usage.serviceTier = serviceTierOf(request);
  return usage;
}
